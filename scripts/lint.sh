#!/usr/bin/env bash
# Checks that the code obeys .clang-format and .clang-tidy. Needs a configured release build
# (build/release/compile_commands.json); configures one if missing. Builds nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f build/release/compile_commands.json ] || cmake --preset release > /dev/null
# clang-tidy reads the release build's compile commands without the test programs' precompiled
# header: so it needs nothing built, and each source is checked on its own includes.
mkdir -p build/lint
sed -E 's# -Xclang -include-pch -Xclang [^ ]+ -Xclang -include -Xclang [^ "]+##g' \
  build/release/compile_commands.json > build/lint/compile_commands.json

# The application's layering (app/tpcc/README.md): no include crosses the diagram upward.
scripts/check-layers.sh -q

mapfile -t files < <(git ls-files '*.hpp' '*.cpp')
clang-format-19 --dry-run -Werror "${files[@]}"

mapfile -t units < <(git ls-files 'src/*.cpp' 'app/*.cpp' 'tests/unit/*.cpp' 'tests/stress/*.cpp' \
                                  'tests/app/*.cpp' 'tests/support/*.cpp' 'examples/*.cpp' \
                                  'bench/*.cpp')
# Two at a time (the machines here have two cores).
if ! tidy_output=$(printf '%s\n' "${units[@]}" |
                   xargs -P 2 -n 4 clang-tidy-19 -p build/lint --quiet 2>&1); then
  echo "${tidy_output}" | grep -E -A3 '(warning|error):' || echo "${tidy_output}" | tail -20
  echo "lint: clang-tidy failed"
  exit 1
fi
echo "lint: clean (${#files[@]} files formatted, ${#units[@]} translation units checked)"
