#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# scripts/sched-medians.sh: sched_bench's figures as medians of several rounds, each round's
# load average recorded, and (optionally) a baseline binary run interleaved with it.
#
# Usage: scripts/sched-medians.sh [BINARY [BASELINE]]
#   BINARY    the sched_bench to measure (default build/release/bench/sched_bench);
#   BASELINE  another sched_bench (say, main's, copied aside before rebuilding) run in the same
#             rounds, alternately with BINARY: baseline, binary, baseline, binary, ...
# Settings (environment): ROUNDS (5), FILTER (the rows of docs/benchmarks.md, "sched_bench"),
# OUT_DIR (build/sched-medians: each round's JSON and the load averages).
#
# Why: on a shared machine a single run of the avalanche moves 2-4x with the neighbours' load,
# and Asio's figure moves most, so a ratio from one run says little. Each round is one process
# that runs every system (shoal, Asio, oneTBB) back to back: the ratio of a row to Asio's is
# taken within a round, and the table shows the median over the rounds of each figure and of
# each ratio, with the load averages (/proc/loadavg, 1-minute) seen at the start of the rounds.
# A benchmark, not a test: it always exits 0 once the rounds ran.
set -euo pipefail

cd "$(dirname "$0")/.."

binary=${1:-build/release/bench/sched_bench}
baseline=${2:-}
rounds=${ROUNDS:-5}
filter=${FILTER:-'empty_avalanche/.*/(100000|1000000)/|empty_repost/.*/(1|2|16)/|timed_avalanche/.*/10000/|timed_repost/.*/(1|2|16)/'}
out=${OUT_DIR:-build/sched-medians}

for b in "$binary" $baseline; do
  [[ -x $b ]] || { echo "sched-medians: no executable '$b' (build sched_bench first)" >&2; exit 2; }
done
mkdir -p "$out"
rm -f "$out"/round-*.json "$out"/loadavg.txt

run_one() {  # name binary round
  echo "$3 $1 $(date -u +%H:%M:%S) $(cat /proc/loadavg)" >>"$out/loadavg.txt"
  "$2" --benchmark_filter="$filter" --benchmark_format=json >"$out/round-$3-$1.json" 2>/dev/null
}

echo "sched-medians: $rounds rounds of '$filter', $(nproc) cores, $(date -u '+%F %H:%M UTC')"
for ((r = 1; r <= rounds; ++r)); do
  [[ -n $baseline ]] && run_one before "$baseline" "$r"
  run_one after "$binary" "$r"
  echo "round $r done, load average $(cut -d' ' -f1-3 /proc/loadavg)"
done

python3 - "$out" <<'EOF'
import glob, json, os, re, statistics, sys
out = sys.argv[1]
rows = {}      # (name, benchmark) -> {counter: [values per round]}
ratios = {}    # (name, benchmark) -> [value / asio's value in the same round]
for path in sorted(glob.glob(os.path.join(out, "round-*.json"))):
    name = re.match(r"round-\d+-(\w+)\.json", os.path.basename(path)).group(1)
    runs = {b["name"]: b for b in json.load(open(path))["benchmarks"]}
    for bench, b in runs.items():
        per = next((k for k in ("ns/job", "ns/post") if k in b), None)
        if per is None:
            continue
        cell = rows.setdefault((name, bench), {})
        for k in (per, "cpu_" + per):
            cell.setdefault(k, []).append(b[k])
        peer = re.sub(r"^(\w+)/[^/]+/", r"\1/asio/", bench)
        if peer in runs and peer != bench:
            ratios.setdefault((name, bench), []).append(b[per] / runs[peer][per])
print("\nload averages at the start of each run (round, binary, UTC, /proc/loadavg):")
print(open(os.path.join(out, "loadavg.txt")).read().rstrip())
print("\n| binary | benchmark | median ns | median cpu_ns | median ratio to Asio (same run) | n |")
print("|---|---|---|---|---|---|")
for (name, bench), cell in sorted(rows.items(), key=lambda kv: (kv[0][1], kv[0][0])):
    (wall_key, wall), (cpu_key, cpu) = list(cell.items())
    ratio = ratios.get((name, bench))
    r = f"{statistics.median(ratio):.3f}" if ratio else "-"
    print(f"| {name} | {bench} | {statistics.median(wall):.1f} | {statistics.median(cpu):.1f} | {r} | {len(wall)} |")
EOF
