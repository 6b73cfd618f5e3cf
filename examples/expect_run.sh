#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# expect_run.sh: how ctest runs an example. Checks the exit status AND the output together
# (ctest's PASS_REGULAR_EXPRESSION alone ignores the exit status, so a sanitizer report or a
# failed check after output that looks right would pass).
#
# usage: expect_run.sh [--interrupt-after SECONDS] EXIT REGEX PROGRAM [ARGS...]
#   EXIT     the expected exit status: a number, or "nonzero" for any failure
#   REGEX    an extended regular expression (grep -E) the combined stdout and stderr must match
#   --interrupt-after SECONDS
#            send SIGINT to PROGRAM, as Ctrl-C in a terminal would, SECONDS after its first
#            output appears (so the signal cannot arrive before it installed its handler)
set -u

interrupt_after=""
if [ "${1:-}" = "--interrupt-after" ]; then
  interrupt_after=$2
  shift 2
fi
if [ $# -lt 3 ]; then
  echo "usage: expect_run.sh [--interrupt-after SECONDS] EXIT REGEX PROGRAM [ARGS...]" >&2
  exit 2
fi
expected=$1
regex=$2
shift 2

output=$(mktemp)
trap 'rm -f "$output"' EXIT

if [ -n "$interrupt_after" ]; then
  "$@" >"$output" 2>&1 &
  pid=$!
  waited=0
  while [ ! -s "$output" ] && [ "$waited" -lt 300 ] && kill -0 "$pid" 2>/dev/null; do
    sleep 0.1
    waited=$((waited + 1))
  done
  sleep "$interrupt_after"
  kill -INT "$pid" 2>/dev/null
  wait "$pid"
  status=$?
else
  "$@" >"$output" 2>&1
  status=$?
fi
cat "$output"

failed=0
if [ "$expected" = "nonzero" ]; then
  if [ "$status" -eq 0 ]; then
    echo "expect_run: exit status 0, expected a failure status" >&2
    failed=1
  fi
elif [ "$status" -ne "$expected" ]; then
  echo "expect_run: exit status $status, expected $expected" >&2
  failed=1
fi
if ! grep -Eq -- "$regex" "$output"; then
  echo "expect_run: output does not match: $regex" >&2
  failed=1
fi
exit "$failed"
