#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# gdb_backtrace_check.sh: runs PROGRAM (gdb_backtrace_target) under gdb in batch mode with
# tools/gdb/shoal_backtrace.py loaded, stops inside its 3-deep await chain, runs `shoal-bt`, and
# checks the three coroutines and the root appear, innermost first.
#
# usage: gdb_backtrace_check.sh GDB SCRIPT PROGRAM
set -u
if [ $# -ne 3 ]; then
  echo "usage: gdb_backtrace_check.sh GDB SCRIPT PROGRAM" >&2
  exit 2
fi
gdb=$1
script=$2
program=$3

output=$(mktemp)
trap 'rm -f "$output"' EXIT
"$gdb" -batch -nx -x "$script" \
  -ex 'break gdb_target::stop_here' -ex run \
  -ex 'shoal-bt gdb_target::innermost_frame' \
  -ex kill --args "$program" >"$output" 2>&1
cat "$output"

# Line number (in the output) of the first backtrace line matching $1, or nothing.
line_of() { grep -n -E "^#[0-9]+ .*$1" "$output" | head -n 1 | cut -d: -f1; }

leaf=$(line_of 'gdb_chain_leaf\(\) ')
middle=$(line_of 'gdb_chain_middle\(\) ')
outer=$(line_of 'gdb_chain_outer\(\) ')
root=$(line_of 'run_root')
if [ -z "$leaf" ] || [ -z "$middle" ] || [ -z "$outer" ] || [ -z "$root" ]; then
  echo "gdb_backtrace_check: a coroutine is missing from the shoal-bt output" >&2
  exit 1
fi
if [ "$leaf" -ge "$middle" ] || [ "$middle" -ge "$outer" ] || [ "$outer" -ge "$root" ]; then
  echo "gdb_backtrace_check: frames out of order (leaf $leaf, middle $middle, outer $outer," \
       "root $root)" >&2
  exit 1
fi
echo "gdb_backtrace_check: leaf, middle, outer, root in order"
