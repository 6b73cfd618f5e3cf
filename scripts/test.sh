#!/usr/bin/env bash
# Builds and runs every test of the project, the way CI does:
#   every CMake preset (clang-19: release, dev = Debug+ASan+UBSan with shuffled ready queues,
#   tsan; g++ 12: gcc-release, gcc-dev), each configured, built and tested by ctest (the test
#   presets say which tests: gcc-dev runs the runtime's, not shoal-tpcc's); the format and static
#   checks (scripts/lint.sh); an installed copy of shoal consumed by a tiny find_package project
#   and by pkg-config. Prints each step's wall time as it ends, and a table of them at the end.
#
# The lint runs in the background, at a lower priority, from the moment build/release has its
# compile_commands.json: it soaks up the CPU that the tests leave idle while they wait on
# databases, child processes and sleeps. Its output is printed when it is joined, at the end.
#
# Usage: scripts/test.sh [preset ...]     (default: all of them)
set -euo pipefail
cd "$(dirname "$0")/.."

presets=("$@")
[ ${#presets[@]} -gt 0 ] || presets=(release dev tsan gcc-release gcc-dev)

step_names=()
step_seconds=()
run_start=$SECONDS
lint_pid=""
lint_log=build/lint.log
lint_status=build/lint.status

print_table() {
  echo "=== step times (wall clock) ==="
  local i
  for i in "${!step_names[@]}"; do
    printf '  %-26s %6d s\n' "${step_names[$i]}" "${step_seconds[$i]}"
  done
  printf '  %-26s %6d s\n' "total" $((SECONDS - run_start))
}

on_exit() {
  local rc=$?
  if [ -n "${lint_pid}" ] && kill -0 "${lint_pid}" 2>/dev/null; then
    kill -- "-${lint_pid}" 2>/dev/null || true  # its own process group (setsid)
  fi
  print_table
  [ "${rc}" -eq 0 ] || echo "=== FAILED (exit status ${rc}) ==="
}
trap on_exit EXIT

# step NAME COMMAND...: runs COMMAND, prints and records its wall time; stops the run on failure.
step() {
  local name=$1
  shift
  echo "=== ${name} ==="
  local start=$SECONDS
  "$@"
  local took=$((SECONDS - start))
  step_names+=("${name}")
  step_seconds+=("${took}")
  echo "=== ${name}: ${took} s ==="
}

start_lint() {
  mkdir -p build
  rm -f "${lint_status}"
  echo "=== lint: started in the background (output in ${lint_log}) ==="
  setsid bash -c 'start=$SECONDS
                  if nice -n 10 scripts/lint.sh > "$1" 2>&1; then rc=0; else rc=$?; fi
                  echo "${rc} $((SECONDS - start))" > "$2"' lint "${lint_log}" "${lint_status}" &
  lint_pid=$!
}

join_lint() {
  local start=$SECONDS
  wait "${lint_pid}" || true
  lint_pid=""
  cat "${lint_log}"
  local rc took
  read -r rc took < "${lint_status}"
  step_names+=("lint (background)")
  step_seconds+=("${took}")
  echo "=== lint: ${took} s in the background, $((SECONDS - start)) s waited for at the end ==="
  step_names+=("  waited for lint")
  step_seconds+=($((SECONDS - start)))
  [ "${rc}" -eq 0 ]
}

# ctest -j starts the tests it knows to be long first, from the times it recorded in an earlier
# run of the same build (Testing/Temporary/CTestCostData.txt). A fresh build has none, so hand it
# the times of the first preset tested in this run: the tests are the same in every preset.
seed_test_costs() {
  local costs=Testing/Temporary/CTestCostData.txt dir
  [ -f "build/$1/${costs}" ] && return 0
  for dir in "${presets[@]}"; do
    if [ -f "build/${dir}/${costs}" ]; then
      mkdir -p "$(dirname "build/$1/${costs}")"
      cp "build/${dir}/${costs}" "build/$1/${costs}"
      return 0
    fi
  done
}

step "install-deps" scripts/install-deps.sh

for preset in "${presets[@]}"; do
  step "${preset} configure" cmake --preset "${preset}"
  if [ "${preset}" = release ] && [ -z "${lint_pid}" ]; then start_lint; fi
  step "${preset} build" cmake --build --preset "${preset}"
  seed_test_costs "${preset}"
  step "${preset} test" ctest --preset "${preset}"
done

if [ -n "${lint_pid}" ]; then
  join_lint
else
  step "lint" scripts/lint.sh
fi

consumer() {
  rm -rf build/install
  cmake --install build/release --prefix build/install > /dev/null
  CXX=clang++-19 bash tests/consumer/check.sh "$PWD/build/install"
}
if [ -d build/release ]; then
  step "installed package consumer" consumer
fi
echo "=== all tests passed ==="
