#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Checks that the code obeys .clang-format and .clang-tidy, the layering, and that the links
# between files resolve (scripts/check-links.py). Configures a compile database of its own
# (build/lint: the release preset with its unity batches, no precompiled header); builds nothing.
# clang-format reads every file; clang-tidy the runtime's and the application's sources (src/,
# app/), and with --all the examples', the benchmarks' and the tests' too (scripts/test.sh --full;
# CI leaves them out for its time: the examples and benchmarks, 40 one-source programs, were
# about half of the lint's CPU; both compilers still build them with -Werror, and every preset
# of CI but tsan runs them).
#
# clang-tidy reads the unity batches the build compiles (a batch's headers parsed once for its
# eight sources: about half the CPU of one run per source), each source then being a file the
# batch includes: the header filter names the checked sources beside the headers .clang-tidy
# names, and bugprone-suspicious-include, which a batch's `#include "x.cpp"` lines would trip, is
# off. One check reads main files only, misc-unused-using-decls: a using-declaration left unused
# in a source is not reported in a batch. `LINT_PER_SOURCE=1` checks one source at a time (every
# check on its own includes, twice the time).
# Usage: scripts/lint.sh [--all]
set -euo pipefail
all=0
[ "${1:-}" != --all ] || all=1
cd "$(dirname "$0")/.."
unity=ON
[ "${LINT_PER_SOURCE:-0}" = 0 ] || unity=OFF
cmake --preset release -B build/lint -DCMAKE_UNITY_BUILD="${unity}" -DSHOAL_TEST_PCH=OFF > /dev/null

# The application's layering (app/tpcc/README.md): no include crosses the diagram upward.
scripts/check-layers.sh -q
# Every relative markdown link and every docs/...md path named in the tree resolves.
scripts/check-links.py

mapfile -t files < <(git ls-files '*.hpp' '*.cpp')
clang-format-19 --dry-run -Werror "${files[@]}"

sources=('src/*.cpp' 'app/*.cpp')
[ "${all}" -eq 0 ] || sources+=('examples/*.cpp' 'bench/*.cpp' 'tests/*.cpp')
# The compile database's entries that compile a selected source: the source itself, or the unity
# batch that includes it (only what the release build compiles: the consumer project and optional
# targets have no entry).
mapfile -t units < <(git ls-files "${sources[@]}" |
                     python3 scripts/lint-units.py build/lint/compile_commands.json "$PWD")
filter="${PWD}/((include/shoal|src/shoal|tests/support)/.*|(src|app|examples|bench)/.*\.cpp)"
[ "${all}" -eq 0 ] || filter="${PWD}/((include/shoal|src/shoal|tests/support)/.*|(src|app|examples|bench|tests)/.*\.cpp)"
# Two at a time (the machines here have two cores).
if ! tidy_output=$(printf '%s\n' "${units[@]}" |
                   xargs -P 2 -n 2 clang-tidy-19 -p build/lint --quiet \
                     --config-file=.clang-tidy --header-filter="${filter}" \
                     --checks=-bugprone-suspicious-include 2>&1); then
  echo "${tidy_output}" | grep -E -A3 '(warning|error):' || echo "${tidy_output}" | tail -20
  echo "lint: clang-tidy failed"
  exit 1
fi
echo "lint: clean (${#files[@]} files formatted, ${#units[@]} translation units checked)"
