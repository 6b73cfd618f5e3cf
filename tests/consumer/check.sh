#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# check.sh PREFIX: consumes the shoal installed under PREFIX the two ways a user would, and runs
# the result each time:
#   (a) CMake: find_package(shoal 0.1 REQUIRED) + shoal::shoal, with CMAKE_PREFIX_PATH=PREFIX;
#   (b) pkg-config: $CXX main.cpp $(pkg-config --cflags --libs shoal), with
#       PKG_CONFIG_PATH=PREFIX/<libdir>/pkgconfig.
# The compiler is $CXX (default c++). Use the compiler that built the installed libshoal.
#
# Example:
#   cmake --install build/release --prefix /tmp/shoal-install
#   CXX=clang++-19 sh tests/consumer/check.sh /tmp/shoal-install
# Exits 0 when both routes built and ran, 1 (saying which failed) otherwise, 2 on bad usage.
set -u

if [ $# -ne 1 ] || [ ! -d "$1" ]; then
  echo "usage: check.sh PREFIX   (PREFIX: a directory shoal was installed into)" >&2
  exit 2
fi
prefix=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
cxx=${CXX:-c++}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

say() { printf 'check.sh: %s\n' "$*"; }
fail() {
  say "FAILED: $*"
  exit 1
}

say "prefix $prefix, compiler $cxx ($("$cxx" --version | head -n 1))"

# (a) CMake package.
generator=""
if command -v ninja >/dev/null 2>&1; then generator="-G Ninja"; fi
# shellcheck disable=SC2086  # $generator is empty or two words on purpose
cmake -S "$here" -B "$work/cmake" $generator -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_PREFIX_PATH="$prefix" >"$work/configure.log" 2>&1 ||
  { cat "$work/configure.log"; fail "(a) configuring the find_package consumer"; }
cmake --build "$work/cmake" >"$work/build.log" 2>&1 ||
  { cat "$work/build.log"; fail "(a) building the find_package consumer"; }
"$work/cmake/shoal_consumer" || fail "(a) running the find_package consumer"
say "(a) find_package(shoal 0.1) + shoal::shoal: built and ran"

# (b) pkg-config. GNUInstallDirs picks the library directory; look where it can be.
pcdir=""
for dir in "$prefix"/lib/pkgconfig "$prefix"/lib64/pkgconfig "$prefix"/lib/*/pkgconfig; do
  if [ -f "$dir/shoal.pc" ]; then
    pcdir=$dir
    break
  fi
done
[ -n "$pcdir" ] || fail "(b) no shoal.pc under $prefix/lib*/pkgconfig"
export PKG_CONFIG_PATH="$pcdir"
pc_prefix=$(pkg-config --variable=prefix shoal) || fail "(b) pkg-config cannot read $pcdir/shoal.pc"
# The .pc file names its prefix relative to itself (${pcfiledir}/../..): compare real paths.
if [ ! -d "$pc_prefix" ] || [ "$(cd "$pc_prefix" && pwd -P)" != "$(cd "$prefix" && pwd -P)" ]; then
  fail "(b) $pcdir/shoal.pc says prefix=$pc_prefix, but it is installed under $prefix: the" \
    "file was generated for another prefix, and its -I/-L flags point there"
fi
flags=$(pkg-config --cflags --libs shoal) || fail "(b) pkg-config --cflags --libs shoal"
say "(b) pkg-config --cflags --libs shoal: $flags"
# main.cpp before the flags: libshoal may be a static library, which must follow its users.
# shellcheck disable=SC2086  # $flags is a list of words on purpose
"$cxx" -O2 -Wall -Wextra -Wpedantic -Werror "$here/main.cpp" $flags -o "$work/pkgconfig_consumer" ||
  fail "(b) compiling main.cpp with the pkg-config flags"
"$work/pkgconfig_consumer" || fail "(b) running the pkg-config consumer"
say "(b) pkg-config: built and ran"
say "PASS"
