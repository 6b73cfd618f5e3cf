#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# scripts/fuzz.sh [MINUTES]: builds the fuzz preset (clang-19, libFuzzer, ASan + UBSan) and runs
# each target of tests/fuzz for MINUTES (default 10), one after another, each starting from its
# seed corpus (tests/fuzz/corpus/<name>) into a scratch corpus (build/fuzz/corpus/<name>); the
# committed seeds are not changed. A crash stops the script, leaving the input as
# build/fuzz/crash-<name>-*. The last line of each run (executions, "cov:" edges) is printed and
# collected in build/fuzz/summary.txt: the figures of docs/tpcc/fuzzing.md.
# Environment: JOBS (build parallelism, default 1), NICE (default 15).
set -euo pipefail
minutes=${1:-10}
cd "$(dirname "$0")/.."
nice -n "${NICE:-15}" cmake --preset fuzz >/dev/null
targets=(result_reader config_file target http_request)
nice -n "${NICE:-15}" cmake --build --preset fuzz -j "${JOBS:-1}" \
  --target "${targets[@]/#/fuzz_}"
out=build/fuzz
: >"$out/summary.txt"
for name in "${targets[@]}"; do
  mkdir -p "$out/corpus/$name"
  log="$out/fuzz-$name.log"
  echo "fuzz_$name: $minutes min"
  nice -n "${NICE:-15}" "$out/tests/fuzz/fuzz_$name" -max_total_time=$((minutes * 60)) \
    -max_len=65536 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$out/crash-$name-" \
    "$out/corpus/$name" "tests/fuzz/corpus/$name" >"$log" 2>&1 || {
    echo "fuzz_$name found a failure: see $log and $out/crash-$name-*" >&2
    exit 1
  }
  line=$(grep -E '^#[0-9]+.*cov:' "$log" | tail -1)
  runs=$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}')
  echo "fuzz_$name: $runs executions; last: $line" | tee -a "$out/summary.txt"
done
