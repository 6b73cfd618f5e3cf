#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# scripts/forkjoin-peers.sh: the runtime-benchmarks suite, shoal beside TooManyCooks, citor,
# libfork and oneTBB, on this machine in one run (issues 26 and 36).
#
# Runs the suite's programs (fib 39, skynet depth 8, nqueens 14, matmul 2048, channel 10M values,
# io_socket_st 20 connections x 100k requests; 2 threads by default) for every system that has
# the program in the suite (channel and io_socket_st: shoal and TooManyCooks only; citor: the four
# fork/join programs), interleaved (round r runs every system once before round r+1 starts),
# ROUNDS times, and prints a table of the median duration and the median peak RSS of each program
# and system, with the ratios shoal / best peer.
#
# shoal's programs are bench/forkjoin/*.cpp, built here (release preset, `forkjoin_*` targets).
# The peers' programs are the suite's own sources, built from source trees this script never
# downloads: bring them in yourself, outside the repository (nothing of theirs is committed),
# e.g. with the search tool's `fetch` of github:tzcnt/runtime-benchmarks, github:tzcnt/TooManyCooks,
# github:tzcnt/tmc-asio, github:Lallapallooza/citor and github:ConorWilliams/libfork, then
# `git clone` each snapshot into one directory and check out the versions the suite pins:
#     git -C PEERS/TooManyCooks checkout v1.6.1; git -C PEERS/libfork checkout v3.8.0
#     git -C PEERS/citor checkout v0.4.5
# and point PEERS at it (PEERS/runtime-benchmarks, PEERS/TooManyCooks, PEERS/tmc-asio,
# PEERS/citor, PEERS/libfork). oneTBB and Asio (TooManyCooks' channel and io_socket_st run on
# tmc-asio's executor) are Debian's (libtbb-dev, libasio-dev). Built with the suite's flags: -O3 -march=native, TooManyCooks with
# -DTMC_PRIORITY_COUNT=1 -DTMC_TRIVIAL_TASK and hwloc, citor with its 64 MiB worker stacks,
# libfork with -std=c++23 and hwloc, every
# peer linked to tcmalloc (libgoogle-perftools-dev, libhwloc-dev: scripts/install-deps.sh).
# shoal's programs are run twice: with glibc malloc (shoal) and linked to tcmalloc
# (shoal+tcmalloc); frames come from shoal's own frame allocator either way, only the vectors of
# the range form and the result vectors are malloc's.
#
# A benchmark, not a test: it reports, it never fails on a time. Every program checks its own
# answer and prints ERROR when it is wrong; this script stops on one.
#
# Settings (environment): PEERS (required), ROUNDS (3), THREADS (2), PROGRAMS ("fib skynet
# nqueens matmul channel io_socket_st"), SYSTEMS ("shoal shoal+tcmalloc tmc citor libfork tbb"),
# OUT (build/forkjoin-peers), and the sizes FIB (39), SKYNET (8), NQUEENS (14), MATMUL (2048),
# CONNECTIONS (20) and REQUESTS (100000) for io_socket_st (the suite passes its thread count as
# the connection count; here every system gets the same CONNECTIONS). channel follows the suite:
# threads / 2 producers and as many consumers.
# Example: PEERS=/work/scratch/peers-src ROUNDS=3 scripts/forkjoin-peers.sh
set -euo pipefail
cd "$(dirname "$0")/.."

: "${PEERS:?set PEERS to the directory holding runtime-benchmarks, TooManyCooks and libfork}"
ROUNDS=${ROUNDS:-3}
THREADS=${THREADS:-2}
PROGRAMS=${PROGRAMS:-"fib skynet nqueens matmul channel io_socket_st"}
SYSTEMS=${SYSTEMS:-"shoal shoal+tcmalloc tmc citor libfork tbb"}
OUT=${OUT:-build/forkjoin-peers}
FIB=${FIB:-39}
SKYNET=${SKYNET:-8}
NQUEENS=${NQUEENS:-14}
MATMUL=${MATMUL:-2048}
CONNECTIONS=${CONNECTIONS:-20}
REQUESTS=${REQUESTS:-100000}
mkdir -p "${OUT}/bin"

suite="${PEERS}/runtime-benchmarks/cpp"
for d in "${suite}" "${PEERS}/TooManyCooks/include" "${PEERS}/tmc-asio/include" \
         "${PEERS}/citor/include" "${PEERS}/libfork/include"; do
  [ -d "$d" ] || { echo "forkjoin-peers: ${d} not found (see the header for PEERS)" >&2; exit 2; }
done

# --- build -----------------------------------------------------------------------------------
# shoal's library from the release preset; its programs compiled here with the suite's flags
# (-O3 -march=native), like the peers', linked to glibc malloc (shoal_*) and to tcmalloc
# (shoal+tcmalloc_*, as the suite links every runtime).
cmake --preset release > /dev/null
cmake --build --preset release --target shoal > /dev/null
shoal_flags=(-std=c++20 -O3 -march=native -DNDEBUG -fcoro-aligned-allocation
             -DSHOAL_CORO_ALIGNED_ALLOCATION=1 -I include -I bench)
for p in ${PROGRAMS}; do
  clang++-19 "${shoal_flags[@]}" "bench/forkjoin/${p}.cpp" build/release/src/shoal/libshoal.a \
    -o "${OUT}/bin/shoal_${p}" -lpthread
  clang++-19 "${shoal_flags[@]}" "bench/forkjoin/${p}.cpp" build/release/src/shoal/libshoal.a \
    -o "${OUT}/bin/shoal+tcmalloc_${p}" -ltcmalloc -lpthread
done

peer_flags=(-O3 -march=native -DNDEBUG -I "${suite}/2common")
suite_dir() {  # system -> its directory in the suite
  case $1 in tmc) echo TooManyCooks ;; *) echo "$1" ;; esac
}
build_peer() {  # system program; a program the suite does not have for the system is skipped
  local sys=$1 p=$2 out="${OUT}/bin/$1_$2"
  [ -f "${suite}/$(suite_dir "${sys}")/${p}.cpp" ] || return 0
  [ -x "${out}" ] && [ "${out}" -nt "$0" ] && return 0
  case ${sys} in
    tmc) clang++-19 -std=c++20 "${peer_flags[@]}" -DTMC_PRIORITY_COUNT=1 -DTMC_TRIVIAL_TASK \
           -DTMC_USE_HWLOC -I "${PEERS}/TooManyCooks/include" -I "${PEERS}/tmc-asio/include" \
           "${suite}/TooManyCooks/${p}.cpp" -o "${out}" -lhwloc -ltcmalloc -lpthread ;;
    citor) clang++-19 -std=c++20 "${peer_flags[@]}" -DCITOR_WORKER_STACK_KIB=65536 \
           -I "${PEERS}/citor/include" "${suite}/citor/${p}.cpp" \
           -o "${out}" -ltcmalloc -lpthread ;;
    libfork) clang++-19 -std=c++23 "${peer_flags[@]}" -DLF_USE_HWLOC \
           -I "${PEERS}/libfork/include" "${suite}/libfork/${p}.cpp" \
           -o "${out}" -lhwloc -ltcmalloc -lpthread ;;
    tbb) clang++-19 -std=c++20 "${peer_flags[@]}" "${suite}/tbb/${p}.cpp" \
           -o "${out}" -ltbb -ltcmalloc -lpthread ;;
  esac
}
for s in ${SYSTEMS}; do
  case ${s} in shoal*) continue ;; esac
  for p in ${PROGRAMS}; do build_peer "${s}" "${p}"; done
done

# --- run -------------------------------------------------------------------------------------
args_of() {  # system program -> the program's arguments (each suite program has its own order)
  case $2 in
    fib) echo "${FIB} ${THREADS}" ;;
    matmul) echo "${MATMUL} ${THREADS}" ;;
    skynet) case $1 in shoal*) echo "${THREADS} ${SKYNET}" ;; *) echo "${THREADS}" ;; esac ;;
    nqueens) echo "${THREADS}" ;;
    channel) echo "${THREADS}" ;;
    io_socket_st) echo "${CONNECTIONS} ${REQUESTS}" ;;
  esac
}
results="${OUT}/results.tsv"
: > "${results}"
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%FT%TZ)"
for ((r = 1; r <= ROUNDS; r++)); do
  for p in ${PROGRAMS}; do
    for s in ${SYSTEMS}; do
      [ -x "${OUT}/bin/${s}_${p}" ] || continue  # not in the suite for this system
      # shellcheck disable=SC2046
      log=$("${OUT}/bin/${s}_${p}" $(args_of "${s}" "${p}") 2>&1) || { echo "${s} ${p}: failed"; echo "${log}"; exit 1; }
      if grep -qiE 'error|wrong' <<<"${log}"; then echo "${s} ${p}: wrong answer"; echo "${log}"; exit 1; fi
      us=$(awk '/duration:/ {print $2}' <<<"${log}" | tail -1)
      kib=$(awk '/max_rss:/ {print $2}' <<<"${log}" | tail -1)
      printf '%s\t%s\t%s\t%s\t%s\n' "${r}" "${p}" "${s}" "${us}" "${kib}" | tee -a "${results}"
    done
  done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

python3 - "${results}" "${PROGRAMS}" "${SYSTEMS}" <<'PY'
import statistics, sys
rows = [l.split('\t') for l in open(sys.argv[1]).read().splitlines()]
programs, systems = sys.argv[2].split(), sys.argv[3].split()
def med(p, s, col):
    v = [float(r[col]) for r in rows if r[1] == p and r[2] == s]
    return statistics.median(v) if v else None
print("\n| program (median) | " + " | ".join(systems) + " | shoal / best peer (time, RSS) |")
print("|---|" + "---|" * (len(systems) + 1))
for p in programs:
    cells, peers_t, peers_m = [], [], []
    for s in systems:
        t, m = med(p, s, 3), med(p, s, 4)
        cells.append(f"{t/1000:,.0f} ms, {m/1024:,.1f} MiB" if t is not None else "-")
        if not s.startswith("shoal") and t is not None:
            peers_t.append(t); peers_m.append(m)
    st, sm = med(p, "shoal", 3), med(p, "shoal", 4)
    ratio = f"{st/min(peers_t):.2f}x, {sm/min(peers_m):.2f}x" if st and peers_t else "-"
    print(f"| {p} | " + " | ".join(cells) + f" | {ratio} |")
PY
