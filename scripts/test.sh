#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds and runs the project's tests, the way CI does (.ci/run is this script and nothing else):
#   clang-19: release (every test), dev = Debug+ASan+UBSan with shuffled ready queues (every
#   test), tsan (the runtime: its unit, stress and tool tests); g++ 12: gcc-release (builds the
#   runtime, the application, the examples, the benchmarks and the runtime's tests, and runs
#   those: labels unit, stress, example, bench-smoke, tools); the format and static checks
#   (scripts/lint.sh: clang-format over every file, clang-tidy over the runtime's and the
#   application's sources); an installed copy of shoal consumed by a tiny find_package project
#   and by pkg-config. Prints each step's wall time and CPU seconds as it ends, and a table at the end.
#
# --full runs the whole matrix, what CI leaves out for its time (HACKING.md, "CI's budget"):
#   tsan-all (the application under TSan too) instead of tsan, every test of gcc-release (the
#   application's tests built and run under g++ too),
#   gcc-dev (g++ -O0 with ASan+UBSan, the runtime), and clang-tidy over the examples, the
#   benchmarks and the tests as well.
#
# Most tests wait on a database, a child process or a clock and leave a core idle, so the next
# preset's build runs beside this preset's tests (in the background, at a lower priority; its
# log is build/<preset>.build.log, printed if it fails), and the lint runs in the background from
# the first configure to the end, lower still. The presets are ordered so that the longest builds
# hide behind the longest test runs: release, dev, gcc-release, tsan.
#
# Usage: scripts/test.sh [--full] [preset ...]   (default: release dev gcc-release tsan)
set -euo pipefail
cd "$(dirname "$0")/.."

full=0
if [ "${1:-}" = --full ]; then
  full=1
  shift
fi
presets=("$@")
if [ ${#presets[@]} -eq 0 ]; then
  presets=(release dev gcc-release tsan)
  [ "${full}" -eq 0 ] || presets=(release dev gcc-release tsan-all gcc-dev)
fi
lint_args=()
[ "${full}" -eq 0 ] || lint_args=(--all)

# The test preset of a configure preset: --full runs every test of gcc-release.
test_preset() {
  if [ "${full}" -eq 1 ] && [ "$1" = gcc-release ]; then echo gcc-release-all; else echo "$1"; fi
}

# configure PRESET: gcc-release runs the runtime's tests only, so it builds the application's
# tests only with --full (the application itself it always builds). dev is built with line
# tables only instead of full debug information: the sanitizers' reports still name every
# function, file and line, and its build takes about a tenth less CPU (a debugger wants the
# preset's own -g: configure build/dev with `cmake --preset dev -U CMAKE_CXX_FLAGS_DEBUG`).
configure() {
  local -a extra=()
  if [ "$1" = gcc-release ]; then
    if [ "${full}" -eq 1 ]; then extra=(-DSHOAL_BUILD_APP_TESTS=ON); else extra=(-DSHOAL_BUILD_APP_TESTS=OFF); fi
  fi
  [ "$1" != dev ] || extra=(-DCMAKE_CXX_FLAGS_DEBUG=-gline-tables-only)
  cmake --preset "$1" "${extra[@]}"
}

step_names=()
step_seconds=()
step_cpu=()
run_start=$SECONDS
lint_pid=""
behind_pid=""
lint_cpu=0
lint_log=build/lint.log
lint_status=build/lint.status

# CPU seconds (user + system) of this shell's finished children and their waited-for descendants
# (not of daemons they leave behind, such as a test's PostgreSQL server).
children_cpu() {
  local -a stat
  read -r -a stat < /proc/$$/stat
  echo $(((stat[15] + stat[16]) / $(getconf CLK_TCK)))
}

print_table() {
  echo "=== step times ==="
  printf '  %-26s %8s %8s\n' step "wall s" "CPU s"
  local i
  for i in "${!step_names[@]}"; do
    printf '  %-26s %8d %8s\n' "${step_names[$i]}" "${step_seconds[$i]}" "${step_cpu[$i]}"
  done
  printf '  %-26s %8d %8d\n' "total" $((SECONDS - run_start)) $(($(children_cpu) + lint_cpu))
}

on_exit() {
  local rc=$?
  local pid
  for pid in "${lint_pid}" "${behind_pid}"; do
    if [ -n "${pid}" ] && kill -0 "${pid}" 2>/dev/null; then
      kill -- "-${pid}" 2>/dev/null || true  # its own process group (setsid)
    fi
  done
  print_table
  [ "${rc}" -eq 0 ] || echo "=== FAILED (exit status ${rc}) ==="
}
trap on_exit EXIT

# step NAME COMMAND...: runs COMMAND, prints and records its wall time; stops the run on failure.
step() {
  local name=$1
  shift
  echo "=== ${name} ==="
  local start=$SECONDS cpu
  cpu=$(children_cpu)
  "$@"
  local took=$((SECONDS - start))
  cpu=$(($(children_cpu) - cpu))
  step_names+=("${name}")
  step_seconds+=("${took}")
  step_cpu+=("${cpu}")
  echo "=== ${name}: ${took} s wall, ${cpu} s CPU ==="
}

# lower_autogroup NICE: lowers the priority of the calling session's scheduler autogroup.
# With autogroups on (Debian's default), the kernel shares the CPU between sessions first and
# applies a process's nice value only within its own session: a `setsid nice -n 10` job gets as
# much CPU as the whole foreground session. The autogroup's own nice value is what lowers it.
lower_autogroup() {
  [ -w /proc/self/autogroup ] && echo "$1" 2> /dev/null > /proc/self/autogroup || true
}
export -f lower_autogroup

# The lint runs in its own session (so that it can be stopped as a group) and is not this shell's
# child (so that its CPU time is not counted in whichever step is running when it ends). Its
# session runs at the lowest priority: it fills the cores the builds and tests leave idle.
start_lint() {
  mkdir -p build
  rm -f "${lint_status}" build/lint.pid
  echo "=== lint: started in the background (output in ${lint_log}) ==="
  (setsid bash -c 'echo $$ > "$3"
                   lower_autogroup 19
                   start=$SECONDS
                   if nice -n 10 scripts/lint.sh $4 > "$1" 2>&1; then rc=0; else rc=$?; fi
                   read -r -a stat < /proc/$$/stat
                   cpu=$(((stat[15] + stat[16]) / $(getconf CLK_TCK)))
                   echo "${rc} $((SECONDS - start)) ${cpu}" > "$2.tmp"
                   mv "$2.tmp" "$2"' lint "${lint_log}" "${lint_status}" build/lint.pid "${lint_args[*]}" &)
  while [ ! -s build/lint.pid ]; do sleep 0.1; done
  lint_pid=$(cat build/lint.pid)
}

join_lint() {
  local start=$SECONDS
  while [ ! -f "${lint_status}" ]; do
    kill -0 "${lint_pid}" 2>/dev/null || [ -f "${lint_status}" ] ||
      { echo "lint: the background lint ended without a status"; return 1; }
    sleep 1
  done
  lint_pid=""
  cat "${lint_log}"
  local rc took cpu
  read -r rc took cpu < "${lint_status}"
  lint_cpu=${cpu}
  step_names+=("lint (in the background)" "  of which waited for")
  step_seconds+=("${took}" $((SECONDS - start)))
  step_cpu+=("${cpu}" "")
  echo "=== lint: ${took} s wall in the background (${cpu} s CPU), $((SECONDS - start)) s of it" \
       "waited for at the end ==="
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

# build_behind PRESET: starts PRESET's build in the background, in a session of its own (so that
# it can be stopped as a group), at a lower priority than the tests it runs beside (its
# autogroup's: see lower_autogroup) and a higher one than the lint.
behind_preset=""
behind_start=0
build_behind() {
  behind_preset=$1
  behind_start=$SECONDS
  echo "=== ${behind_preset} build: started beside the tests (log in build/$1.build.log) ==="
  setsid bash -c 'lower_autogroup 5; exec nice -n 5 cmake --build --preset "$1"' build "$1" \
    > "build/$1.build.log" 2>&1 &
  behind_pid=$!
}

# join_behind: waits for the build started by build_behind, records its wall time and CPU seconds
# (a background child's CPU is counted when it is waited for), prints its log's end if it failed.
join_behind() {
  local cpu rc=0 waited=$SECONDS
  cpu=$(children_cpu)
  wait "${behind_pid}" || rc=$?
  behind_pid=""
  cpu=$(($(children_cpu) - cpu))
  step_names+=("${behind_preset} build (beside)")
  step_seconds+=($((SECONDS - behind_start)))
  step_cpu+=("${cpu}")
  echo "=== ${behind_preset} build: $((SECONDS - behind_start)) s wall (beside the tests;" \
       "$((SECONDS - waited)) s waited for), ${cpu} s CPU ==="
  if [ "${rc}" -ne 0 ]; then
    tail -n 200 "build/${behind_preset}.build.log"
    echo "=== ${behind_preset} build failed (exit status ${rc}) ==="
    return 1
  fi
}

# run_tests PRESET: the preset's tests, then the skips: a test that skipped (a missing server,
# browser or tool, or a build where it cannot apply) must be listed for this preset in
# tests/expected_skips.txt with its reason, or the run fails: so that a green run never hides a
# test that did not run.
run_tests() {
  local log="build/$1.ctest.log" skipped unexpected=() name
  ctest --preset "$(test_preset "$1")" 2>&1 | tee "${log}"
  skipped=$(sed -n -E 's/.*Test +#[0-9]+: ([^ ]+) .*\*\*\*Skipped.*/\1/p' "${log}")
  for name in ${skipped}; do
    expected_skip "$1" "${name}" || unexpected+=("${name}")
  done
  [ -z "${skipped}" ] || echo "=== $1: $(echo "${skipped}" | wc -l) skipped as expected or listed below ==="
  if [ ${#unexpected[@]} -gt 0 ]; then
    printf '  skipped, and not in tests/expected_skips.txt for %s: %s\n' "$1" "${unexpected[@]}"
    return 1
  fi
}

# expected_skip PRESET TEST: whether tests/expected_skips.txt lists TEST as skipping in PRESET
# (lines "PRESET-REGEX TEST-REGEX reason...", both regexes anchored; # starts a comment).
expected_skip() {
  local preset_re test_re reason
  while read -r preset_re test_re reason; do
    case "${preset_re}" in '' | '#'*) continue ;; esac
    [[ "$1" =~ ^(${preset_re})$ ]] && [[ "$2" =~ ^(${test_re})$ ]] && return 0
  done < tests/expected_skips.txt
  return 1
}

mkdir -p build
for i in "${!presets[@]}"; do
  preset=${presets[$i]}
  if [ "${i}" -eq 0 ]; then
    step "${preset} configure" configure "${preset}"
    [ -n "${lint_pid}" ] || start_lint
    step "${preset} build" cmake --build --preset "${preset}"
  else
    join_behind
  fi
  next=${presets[$((i + 1))]:-}
  if [ -n "${next}" ]; then
    step "${next} configure" configure "${next}"
    build_behind "${next}"
  fi
  seed_test_costs "${preset}"
  step "${preset} test" run_tests "${preset}"
done

if [ -n "${lint_pid}" ]; then
  join_lint
else
  step "lint" scripts/lint.sh "${lint_args[@]}"
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
