#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# scripts/pg-ch-peers.sh: shoal-tpcc and go-tpc's `ch` (CH-benCHmark) side by side on the same
# PostgreSQL.
#
# Starts a scratch PostgreSQL (Debian's server binaries, PG_BIN) in a temporary directory on
# loopback TCP (127.0.0.1:PORT), loads WAREHOUSES warehouses with each tool into a database of
# its own (each tool's own schema and loader: go-tpc `tpcc prepare` then `ch prepare`, which adds
# SUPPLIER, NATION, REGION and its revenue view; shoal-tpcc `init --ch` and `load --ch`), vacuums
# and analyzes both, then runs each tool once (go-tpc first, then shoal-tpcc), DURATION seconds,
# with:
#   - TERMINALS terminals in all, with no keying or think times: go-tpc `ch run -T TERMINALS`
#     (its default: no wait), shoal-tpcc `--terminals TERMINALS/WAREHOUSES` per warehouse with
#     --no-wait and --connections TERMINALS (so each tool holds TERMINALS connections for them);
#   - STREAMS analytic streams, each on a connection of its own: go-tpc `-t STREAMS`,
#     shoal-tpcc `--analytic-streams STREAMS`; both run the 22 queries in the paper's order,
#     round and round, stream i from Q(i mod 22 + 1) in both (go-tpc's ch/workload.go: queryIdx);
#   - PostgreSQL's default isolation (READ COMMITTED), no warm-up (shoal-tpcc --warmup 0s).
# Per tool it measures: tpmC (completed New-Orders per minute of DURATION), the analytic queries
# completed, queries per hour (completed x 3600 / DURATION for both; go-tpc's own "QphH" line,
# which divides by the queries' summed latency instead of the wall time, is printed beside it),
# client CPU (user + system of the whole process, /usr/bin/time) and server CPU (the postmaster
# and its children, from /proc: scripts/pg-scratch.sh, shared with scripts/pg-peers.sh).
# A benchmark, not a test: never run by CI. The figures go in docs/benchmarks.md.
#
# go-tpc is never downloaded by this script: build it from a checkout of github.com/pingcap/go-tpc
# (a search tool's `fetch`, checked out into a scratch directory), dependencies from the module
# proxy, and give the binary as GO_TPC or the checkout as GO_TPC_SRC (built then with GO):
#     cd GO_TPC_SRC && go build -o SCRATCH/bin/go-tpc ./cmd/go-tpc
# The module proxy's latest tag (v1.0.7) has no PostgreSQL driver: the script refuses it.
#
# Settings (environment): WAREHOUSES (2), TERMINALS (4), STREAMS (1), DURATION (60, seconds),
# PORT (15433), SCRATCH (/tmp/shoal-pg-ch-peers), SHOAL (build/release/app/tpcc/shoal-tpcc),
# GO_TPC, GO_TPC_SRC, GO (go, or /usr/local/go/bin/go), PG_BIN (newest
# /usr/lib/postgresql/*/bin), SHARED_BUFFERS (1GB).
# Example: GO_TPC=/tmp/shoal-gotpc/bin/go-tpc DURATION=60 scripts/pg-ch-peers.sh
set -euo pipefail

cd "$(dirname "$0")/.."
warehouses=${WAREHOUSES:-2}
terminals=${TERMINALS:-4}
streams=${STREAMS:-1}
duration=${DURATION:-60}
port=${PORT:-15433}
scratch=${SCRATCH:-/tmp/shoal-pg-ch-peers}
shoal=${SHOAL:-build/release/app/tpcc/shoal-tpcc}
shared_buffers=${SHARED_BUFFERS:-1GB}
go=${GO:-$(command -v go || echo /usr/local/go/bin/go)}
pg_bin=${PG_BIN:-$(find /usr/lib/postgresql -maxdepth 2 -name bin -type d 2>/dev/null | sort -V | tail -1)}

if ((terminals % warehouses != 0)); then
  echo "TERMINALS ($terminals) must be a multiple of WAREHOUSES ($warehouses): shoal-tpcc's --terminals is per warehouse" >&2
  exit 2
fi
mkdir -p "$scratch"
scratch=$(cd "$scratch" && pwd)
gotpc=${GO_TPC:-}
if [[ -z "$gotpc" && -n "${GO_TPC_SRC:-}" ]]; then
  gotpc=$scratch/bin/go-tpc
  echo "building go-tpc from $GO_TPC_SRC into $gotpc"
  (cd "$GO_TPC_SRC" && nice -n 10 "$go" build -o "$gotpc" ./cmd/go-tpc)
fi
[[ -n "$gotpc" && -x "$gotpc" ]] || { echo "give GO_TPC or GO_TPC_SRC (see the header)" >&2; exit 2; }
[[ -x "$shoal" ]] || { echo "$shoal: not built (cmake --build --preset release --target shoal-tpcc)" >&2; exit 2; }
if ! "$gotpc" ch --help 2>&1 | grep -q postgres; then
  echo "$gotpc has no PostgreSQL driver (the module proxy's v1.0.7 is MySQL-only): see the header" >&2
  exit 2
fi

# The scratch server (scripts/pg-scratch.sh): loopback TCP only, fsync off, stopped on exit.
source scripts/pg-scratch.sh
pg_scratch_start "$scratch" "$port" "$shared_buffers" 100
sql "CREATE ROLE bench LOGIN SUPERUSER PASSWORD 'bench'"
for db in gotpc tpcc; do sql "CREATE DATABASE $db OWNER bench"; done
echo "server: $(sql 'SELECT version()' | cut -d, -f1) on 127.0.0.1:$port, shared_buffers $shared_buffers"

shoal_db="postgresql://bench:bench@127.0.0.1:$port/tpcc"
gotpc_flags=(-d postgres -H 127.0.0.1 -P "$port" -U bench -p bench -D gotpc --conn-params sslmode=disable)

echo "loading $warehouses warehouses with each tool"
"$gotpc" tpcc --warehouses "$warehouses" "${gotpc_flags[@]}" -T 2 prepare --no-check \
  >"$scratch/gotpc-prepare.log" 2>&1 || { tail -20 "$scratch/gotpc-prepare.log"; exit 1; }
"$gotpc" ch --warehouses "$warehouses" "${gotpc_flags[@]}" prepare \
  >"$scratch/gotpc-ch-prepare.log" 2>&1 || { tail -20 "$scratch/gotpc-ch-prepare.log"; exit 1; }
"$shoal" init --ch --db "$shoal_db" >/dev/null
"$shoal" load --ch --db "$shoal_db" --warehouses "$warehouses" --no-progress >/dev/null
for db in gotpc tpcc; do sql "VACUUM ANALYZE" "$db"; done
sql "CHECKPOINT" >/dev/null

# Server CPU ticks: server_ticks (scripts/pg-scratch.sh).
hz=$(getconf CLK_TCK)

echo "load average before the runs: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-10s %10s %10s %12s %14s %14s %14s\n' tool tpmC queries "queries/h" "client CPU s" "server CPU s" "own QphH"
# go-tpc: -T terminals, -t analytic streams; its summary lines "[Summary] NEW_ORDER ... Count: N"
# and "[Summary] Q1 - Count: N, ...".
t0=$(server_ticks)
/usr/bin/time -o "$scratch/gotpc.time" -f "%U %S" "$gotpc" ch --warehouses "$warehouses" \
  "${gotpc_flags[@]}" -T "$terminals" -t "$streams" --time "${duration}s" --interval 1000s \
  --ignore-error run >"$scratch/gotpc-run.log" 2>&1 || true
t1=$(server_ticks)
read -r user sys <"$scratch/gotpc.time"
read -r new_orders queries own <<<"$(awk '
  /^\[Summary\]/ {
    for (i = 1; i <= NF; ++i) if ($i == "Count:") { c = $(i + 1); gsub(",", "", c) }
    if ($2 == "NEW_ORDER") no += c
    if ($2 ~ /^Q[0-9]+$/) q += c
  }
  /^QphH:/ { own = $2 }
  END { print no + 0, q + 0, (own == "" ? "-" : own) }' "$scratch/gotpc-run.log")"
awk -v n="$new_orders" -v q="$queries" -v d="$duration" -v u="$user" -v s="$sys" -v st=$((t1 - t0)) \
  -v hz="$hz" -v own="$own" \
  'BEGIN { printf "%-10s %10.1f %10d %12.1f %14.2f %14.2f %14s\n", "go-tpc", n * 60 / d, q, q * 3600 / d, u + s, st / hz, own }'

# shoal-tpcc: --terminals per warehouse, the same connections for them, its own per stream.
t0=$(server_ticks)
/usr/bin/time -o "$scratch/shoal.time" -f "%U %S" "$shoal" run --db "$shoal_db" --no-wait \
  --terminals $((terminals / warehouses)) --connections "$terminals" \
  --analytic-streams "$streams" --warmup 0s --duration "${duration}s" --no-tui \
  --tolerate-errors --json "$scratch/shoal.json" >"$scratch/shoal-run.log" 2>&1 || true
t1=$(server_ticks)
read -r user sys <"$scratch/shoal.time"
python3 - "$scratch/shoal.json" "$user" "$sys" "$((t1 - t0))" "$hz" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
cpu = float(sys.argv[2]) + float(sys.argv[3])
server = int(sys.argv[4]) / int(sys.argv[5])
ch = doc["ch"]
print("%-10s %10.1f %10d %12.1f %14.2f %14.2f %14s" % (
    "shoal-tpcc", doc["tpmc"], ch["completed"], ch["queries_per_hour"], cpu, server, "-"))
PY
echo "load average after the runs: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "logs: $scratch/gotpc-run.log, $scratch/shoal-run.log, $scratch/shoal.json"
