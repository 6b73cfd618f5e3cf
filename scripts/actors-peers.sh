#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# scripts/actors-peers.sh: coroactors' actor latency program beside shoal's port of it, on this
# machine in one run (issue 30).
#
# Usage: scripts/actors-peers.sh COROACTORS_CHECKOUT
# where COROACTORS_CHECKOUT is a source tree of github.com/snaury/coroactors, brought in by you,
# outside the repository (this script never downloads, nothing of coroactors is committed), e.g.
# the search tool's `fetch` of github:snaury/coroactors, then `git clone` of that snapshot into
# /work/scratch/coroactors-build/coroactors.
#
# Builds coroactors' src/benchmarks/benchmark_actor_latency.cpp out of its tree (into OUT, with
# clang++-19 -O3 -DNDEBUG, as its CMake Release build would; its async.h misses an
# `#include <optional>` that libstdc++ 12 does not bring in, so the build adds `-include optional`;
# without Abseil and Asio, whose schedulers the default run does not use) and shoal's port,
# bench/actor_latency.cpp (release preset). Then runs, interleaved (round r runs every case once
# before round r+1 starts), ROUNDS times:
#   coroactors         benchmark_actor_latency  -t T -p P -c C  (its default lock-free scheduler,
#                      10 us preemption)
#   shoal              actor_latency            -t T -p P -c C
#   shoal_std_mutex    actor_latency            -t T -p P -c C --std-mutex  (no actors, no
#                      suspension: the longest call is what the operating system's time slices
#                      alone give, the floor for both)
# and prints the median round trips per second and the median and worst "max latency" of each,
# with shoal / coroactors. Both programs print the same line, "Finished in <ms>ms (<rps>/s), max
# latency = <us>us"; shoal's also splits the latency (wait to start, longest call after it).
#
# A benchmark, not a test: it reports, it never fails on a time. Either program stops with ERROR
# on a wrong answer; this script stops on one.
#
# Settings (environment): ROUNDS (5), THREADS (2), PAIRS (2048), COUNT (10000000), CASES
# ("coroactors shoal shoal_std_mutex"), OUT (build/actors-peers).
# Example: ROUNDS=5 scripts/actors-peers.sh /work/scratch/coroactors-build/coroactors
set -euo pipefail
cd "$(dirname "$0")/.."

CHECKOUT=${1:?usage: scripts/actors-peers.sh COROACTORS_CHECKOUT (see the header)}
ROUNDS=${ROUNDS:-5}
THREADS=${THREADS:-2}
PAIRS=${PAIRS:-2048}
COUNT=${COUNT:-10000000}
CASES=${CASES:-"coroactors shoal shoal_std_mutex"}
OUT=${OUT:-build/actors-peers}
program="${CHECKOUT}/src/benchmarks/benchmark_actor_latency.cpp"
[ -f "${program}" ] || { echo "actors-peers: ${program} not found (see the header)" >&2; exit 2; }
mkdir -p "${OUT}"

# --- build -----------------------------------------------------------------------------------
cmake --preset release > /dev/null
cmake --build --preset release --target actor_latency > /dev/null
peer="${OUT}/coroactors_actor_latency"
if [ ! -x "${peer}" ] || [ "${program}" -nt "${peer}" ] || [ "$0" -nt "${peer}" ]; then
  clang++-19 -std=c++20 -O3 -DNDEBUG -include optional -I "${CHECKOUT}" "${program}" \
    -o "${peer}" -lpthread
fi

# --- run -------------------------------------------------------------------------------------
command_of() {  # case -> its command line
  local args="-t ${THREADS} -p ${PAIRS} -c ${COUNT}"
  case $1 in
    coroactors) echo "${peer} ${args}" ;;
    shoal) echo "build/release/bench/actor_latency ${args}" ;;
    shoal_std_mutex) echo "build/release/bench/actor_latency ${args} --std-mutex" ;;
    *) echo "actors-peers: unknown case $1" >&2; exit 2 ;;
  esac
}
results="${OUT}/results.tsv"
: > "${results}"
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%FT%TZ)"
for ((r = 1; r <= ROUNDS; r++)); do
  for c in ${CASES}; do
    # shellcheck disable=SC2046
    log=$($(command_of "${c}") 2>&1) || { echo "${c}: failed"; echo "${log}"; exit 1; }
    if grep -q 'ERROR' <<<"${log}"; then echo "${c}: wrong answer"; echo "${log}"; exit 1; fi
    line=$(grep '^Finished in' <<<"${log}")
    rps=$(sed -E 's/.*\(([0-9]+)\/s\).*/\1/' <<<"${line}")
    us=$(sed -E 's/.*max latency = ([0-9]+)us.*/\1/' <<<"${line}")
    printf '%s\t%s\t%s\t%s\n' "${r}" "${c}" "${rps}" "${us}" | tee -a "${results}"
  done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

python3 - "${results}" "${CASES}" <<'PY'
import statistics, sys
rows = [l.split('\t') for l in open(sys.argv[1]).read().splitlines()]
cases = sys.argv[2].split()
def col(c, k):
    return [float(r[k]) for r in rows if r[1] == c]
print("\n| case | round trips/s (median) | max latency (median) | max latency (worst) |")
print("|---|---|---|---|")
for c in cases:
    rps, us = col(c, 2), col(c, 3)
    if rps:
        print(f"| {c} | {statistics.median(rps)/1e6:.1f}M | {statistics.median(us)/1e3:.1f} ms"
              f" | {max(us)/1e3:.1f} ms |")
if col("shoal", 2) and col("coroactors", 2):
    t = statistics.median(col("shoal", 2)) / statistics.median(col("coroactors", 2))
    l = statistics.median(col("shoal", 3)) / statistics.median(col("coroactors", 3))
    print(f"\nshoal / coroactors: throughput {t:.2f}x, max latency {l:.2f}x (medians)")
PY
