#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# check_layers_test.sh: scripts/check-layers.sh passes on the real tree and fails on a scratch
# copy of app/tpcc where run/run.cpp includes the concrete MySQL driver (driver/mysql/), naming
# that include; and, as a control, on a copy where stats/ includes upward (run/).
#
# usage: check_layers_test.sh SOURCE_DIR
set -u
if [ $# -ne 1 ]; then
  echo "usage: check_layers_test.sh SOURCE_DIR" >&2
  exit 2
fi
source_dir=$1
script=$source_dir/scripts/check-layers.sh
failed=0
fail() {
  echo "FAIL: $*" >&2
  failed=1
}

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# The real tree: every include goes down the diagram.
if ! out=$("$script" -q 2>&1); then
  fail "check-layers.sh fails on the real tree: $out"
fi

# plant DIR FILE LINE: a fresh copy of app/tpcc under DIR with LINE added to FILE's includes.
plant() {
  mkdir -p "$1/app"
  cp -R "$source_dir/app/tpcc" "$1/app/tpcc"
  printf '%s\n' "$3" >> "$1/app/tpcc/$2"
}

# expect_failure DIR WHAT PATTERN: check-layers.sh on DIR exits non-zero, printing PATTERN.
expect_failure() {
  if out=$("$script" -q --root "$1" 2>&1); then
    fail "check-layers.sh passes $2"
  elif ! printf '%s\n' "$out" | grep -q "$3"; then
    fail "check-layers.sh fails $2, but without '$3': $out"
  else
    echo "ok: fails $2: $out"
  fi
}

plant "$scratch/mysql" run/run.cpp '#include "driver/mysql/connection.hpp"'
expect_failure "$scratch/mysql" "on run/ including driver/mysql/" \
  'run/run.cpp:[0-9]*: run includes the concrete driver "driver/mysql/connection.hpp"'

plant "$scratch/upward" stats/recorder.cpp '#include "run/run.hpp"'
expect_failure "$scratch/upward" "on stats/ including run/" \
  'stats/recorder.cpp:[0-9]*: stats includes "run/run.hpp" (run is not below stats)'

exit "$failed"
