#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds and installs the Citus extension from a source tree you point it at, against Debian
# bookworm's PostgreSQL 15 server headers (postgresql-server-dev-15). Citus is not packaged for
# bookworm; nothing of it enters this repository.
#
# Usage: scripts/citus.sh SRC_DIR
#   SRC_DIR      a Citus source tree (git clone https://github.com/citusdata/citus, tag v13.2.2)
# Environment:
#   BUILD_DIR    where the copy is built (default: a fresh directory under ${TMPDIR:-/tmp})
#   PG_CONFIG    pg_config of the target server (default: /usr/lib/postgresql/15/bin/pg_config)
#   JOBS         parallel make jobs (default: nproc)
#
# The source tree is never modified: the script builds a copy. One known incompatibility is
# patched in the copy: Citus 13.x defines a static have_createdb_privilege() for PostgreSQL < 16
# in src/include/pg_version_compat.h, while recent PostgreSQL 15 minor releases (15.20) declare
# it extern in commands/dbcommands.h ("static declaration follows non-static declaration").
# The copy's static function is renamed and the old name defined to the new one.
#
# Run as root (or with sudo available): it installs the build packages with apt-get and the
# extension into PostgreSQL's lib and share directories. The test that uses it:
#   ctest --test-dir build/release -L citus --output-on-failure
# Its run with every node as an endpoint (the --db list `init` prints) says how the nodes' load
# compares: one "[citus] endpoint ..." line per node (docs/tpcc/endpoints.md, "Citus").
set -euo pipefail

die() {
  echo "citus.sh: $*" >&2
  exit 1
}

[ $# -eq 1 ] || die "usage: scripts/citus.sh SRC_DIR (a Citus source tree)"
src=$(cd "$1" 2>/dev/null && pwd) || die "SRC_DIR '$1' is not a directory"
[ -x "$src/configure" ] && [ -f "$src/src/include/pg_version_compat.h" ] ||
  die "SRC_DIR '$src' does not look like a Citus source tree (no configure or pg_version_compat.h)"

pg_config=${PG_CONFIG:-/usr/lib/postgresql/15/bin/pg_config}
jobs=${JOBS:-$(nproc)}
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"

install_build_packages() {
  local packages=(postgresql-server-dev-15 libcurl4-openssl-dev liblz4-dev libzstd-dev
    libkrb5-dev libssl-dev libselinux1-dev libxslt1-dev libpam0g-dev libreadline-dev
    zlib1g-dev autoconf flex bison make gcc rsync)
  local missing=() p
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "citus.sh: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

copy_source() {
  build=${BUILD_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/citus-build.XXXXXX")}
  mkdir -p "$build"
  echo "citus.sh: building a copy of $src in $build"
  rsync -a --delete --exclude .git "$src/" "$build/"
}

# Renames the static have_createdb_privilege() of the copy when the server headers declare the
# function extern (PostgreSQL 15.20 and later 15.x); a no-op otherwise or when already done.
patch_createdb_privilege() {
  local compat="$build/src/include/pg_version_compat.h"
  local dbcommands
  dbcommands="$("$pg_config" --includedir-server)/commands/dbcommands.h"
  grep -q 'have_createdb_privilege' "$dbcommands" || return 0
  grep -q '^have_createdb_privilege(void)' "$compat" || return 0
  echo "citus.sh: renaming pg_version_compat.h's static have_createdb_privilege()"
  sed -i 's/^have_createdb_privilege(void)/citus_compat_have_createdb_privilege(void)/' "$compat"
  # The old name, defined after the function (PostgreSQL < 16 only), so callers use the copy.
  sed -i '/^#endif[[:space:]]*\/\* PG_VERSION_COMPAT_H/i #if PG_VERSION_NUM < PG_VERSION_16\
#define have_createdb_privilege citus_compat_have_createdb_privilege\
#endif' "$compat"
  grep -q '^#define have_createdb_privilege citus_compat' "$compat" ||
    die "could not patch $compat (its layout changed): rename have_createdb_privilege by hand"
}

build_and_install() {
  cd "$build"
  ./configure PG_CONFIG="$pg_config" --quiet
  make -j"$jobs" -s
  $sudo make install -s
}

install_build_packages
[ -x "$pg_config" ] || die "no pg_config at $pg_config (set PG_CONFIG)"
copy_source
patch_createdb_privilege
build_and_install
echo "citus.sh: installed citus into $("$pg_config" --pkglibdir) ($("$pg_config" --version))"
