#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Checks that the code obeys .clang-format and .clang-tidy, the layering, and that the links
# between files resolve (scripts/check-links.py). Configures a compile database of its own
# (build/lint: the release preset, one entry per source, no unity batches, no precompiled
# header, so each source is checked on its own includes); builds nothing.
# clang-format reads every file; clang-tidy every non-test source (src/, app/, examples/, bench/),
# and with --all the tests' sources too (scripts/test.sh --full; CI leaves them out for its time).
# Usage: scripts/lint.sh [--all]
set -euo pipefail
all=0
[ "${1:-}" != --all ] || all=1
cd "$(dirname "$0")/.."
cmake --preset release -B build/lint -DCMAKE_UNITY_BUILD=OFF -DSHOAL_TEST_PCH=OFF > /dev/null

# The application's layering (app/tpcc/README.md): no include crosses the diagram upward.
scripts/check-layers.sh -q
# Every relative markdown link and every docs/...md path named in the tree resolves.
scripts/check-links.py

mapfile -t files < <(git ls-files '*.hpp' '*.cpp')
clang-format-19 --dry-run -Werror "${files[@]}"

sources=('src/*.cpp' 'app/*.cpp' 'examples/*.cpp' 'bench/*.cpp')
[ "${all}" -eq 0 ] || sources+=('tests/*.cpp')
# Only what the release build compiles (the consumer project and optional targets have no entry).
mapfile -t units < <(git ls-files "${sources[@]}" |
                     grep -F -f <(grep -o '"file": "[^"]*"' build/lint/compile_commands.json |
                                  sed -E "s#.*\"$PWD/([^\"]*)\"#\1#"))
# Two at a time (the machines here have two cores).
if ! tidy_output=$(printf '%s\n' "${units[@]}" |
                   xargs -P 2 -n 4 clang-tidy-19 -p build/lint --quiet 2>&1); then
  echo "${tidy_output}" | grep -E -A3 '(warning|error):' || echo "${tidy_output}" | tail -20
  echo "lint: clang-tidy failed"
  exit 1
fi
echo "lint: clean (${#files[@]} files formatted, ${#units[@]} translation units checked)"
