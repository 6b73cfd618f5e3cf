#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# scripts/pg-peers.sh: shoal-tpcc, go-tpc and BenchBase side by side on the same PostgreSQL.
#
# Starts a scratch PostgreSQL (Debian's server binaries, PG_BIN) in a temporary directory,
# listening on loopback TCP only (127.0.0.1:PORT: go-tpc and BenchBase's JDBC driver speak TCP,
# so shoal-tpcc does too), loads WAREHOUSES warehouses with each tool into a database of its own
# (each tool's own schema and loader), then runs them in turn, interleaved REPS times (round 1
# go-tpc, shoal-tpcc, BenchBase; round 2 the reverse; ...), DURATION seconds each, all with:
#   - no keying or think times: go-tpc's default (no --wait), shoal-tpcc --no-wait, BenchBase
#     with no preExecutionWait/postExecutionWait and <rate>unlimited</rate>;
#   - CONNECTIONS connections: go-tpc -T CONNECTIONS (one connection per thread), BenchBase
#     <terminals>CONNECTIONS</terminals> (one connection per terminal), shoal-tpcc --connections
#     CONNECTIONS shared by the spec's 10 terminals per warehouse (and its deferred deliverers);
#   - PostgreSQL's default isolation, READ COMMITTED (go-tpc --isolation 0, shoal-tpcc's default,
#     BenchBase TRANSACTION_READ_COMMITTED instead of its sample's SERIALIZABLE);
#   - the standard mix 45/43/4/4/4 (BenchBase's <weights>; go-tpc and shoal-tpcc draw it);
#   - no warm-up (shoal-tpcc --warmup 0s; go-tpc and BenchBase have none configured).
# Per run it measures: transactions completed (all five types, the New-Order rollbacks counted
# as completed by every tool: go-tpc returns them as successes, shoal-tpcc counts them completed,
# BenchBase as "aborted", added here), New-Orders among them (tpmC = New-Orders per minute of
# DURATION), client CPU (user + system, /usr/bin/time: the whole process, start-up and JVM JIT
# included), peak client RSS, server CPU (the postmaster and all its children, live ones from
# /proc/PID/stat utime + stime + cutime + cstime, ended backends through the postmaster's cutime
# and cstime; autovacuum and the checkpointer count for whichever tool runs: every database is
# vacuumed and analyzed after the loads, so the first pass over fresh tables is not in a run). shoal-tpcc's
# `check` runs at the end, and go-tpc's `check` bounded by CHECK_TIMEOUT (BenchBase has none).
# Prints one line per run and Markdown tables of the medians; a benchmark, not a test.
#
# The peers are never downloaded by this script and nothing of theirs enters the repository:
#   - go-tpc with PostgreSQL support (`-d postgres`) is newer than the module proxy's latest
#     tag (v1.0.7 is MySQL-only, and the proxy refuses pseudo-versions of master here): build it
#     from a checkout of github.com/pingcap/go-tpc (e.g. the search tool's `fetch` of
#     github:pingcap/go-tpc, checked out into a scratch directory), dependencies from the proxy:
#         cd GO_TPC_SRC && go build -o SCRATCH/bin/go-tpc ./cmd/go-tpc
#     and set GO_TPC to the binary, or GO_TPC_SRC to the checkout (the script builds it then).
#   - BenchBase from a checkout of github.com/cmu-db/benchbase (`fetch` of github:cmu-db/benchbase,
#     checked out without its large data files), built for PostgreSQL with Maven; it targets
#     Java 23, so with a JDK 23+ (here Temurin 25; google-java-format's plugin fails on 25, so
#     the formatter is skipped, and --release avoids javac's -Werror warning):
#         JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 mvn -B package -P postgres -DskipTests \
#           -Dfmt.skip=true -Dmaven.compiler.release=23
#         tar xzf target/benchbase-postgres.tgz -C target
#     and set BENCHBASE to target/benchbase-postgres (holding benchbase.jar), JAVA to a java 23+.
#     Its config is written here from config/postgres/sample_tpcc_config.xml's shape.
# A tool whose binary is not given is skipped (TOOLS lists the ones to run). The tool
# shoal-tpcc-procedures is shoal-tpcc with --procedures (one stored-procedure call per
# transaction: init --procedures, run --procedures; docs/tpcc/procedures.md), on shoal-tpcc's
# database: add it to TOOLS, or set PROCEDURES=1 (which adds it), to measure both modes in the
# same rounds; the ratio table then has each shoal-tpcc mode against each peer.
#
# Settings (environment): WAREHOUSES (10), CONNECTIONS (16), DURATION (60, seconds), REPS (3),
# TOOLS ("go-tpc shoal-tpcc benchbase"; also shoal-tpcc-procedures), PORT (15432), SCRATCH (/tmp/shoal-pg-peers),
# SHOAL (build/release/app/tpcc/shoal-tpcc), GO_TPC, GO_TPC_SRC, GO (go, or /usr/local/go/bin/go),
# BENCHBASE, JAVA (java), PG_BIN (newest /usr/lib/postgresql/*/bin), SHARED_BUFFERS (1GB),
# CHECK_TIMEOUT (600, seconds, go-tpc's check; 0 skips it), PROCEDURES (0; 1 adds
# shoal-tpcc-procedures to TOOLS).
# Example: GO_TPC=/work/scratch/pgpeers/bin/go-tpc-pg \
#   BENCHBASE=/work/scratch/benchbase/target/benchbase-postgres \
#   JAVA=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java WAREHOUSES=10 DURATION=60 REPS=3 \
#   scripts/pg-peers.sh
set -euo pipefail

cd "$(dirname "$0")/.."
warehouses=${WAREHOUSES:-10}
connections=${CONNECTIONS:-16}
duration=${DURATION:-60}
reps=${REPS:-3}
port=${PORT:-15432}
scratch=${SCRATCH:-/tmp/shoal-pg-peers}
shoal=${SHOAL:-build/release/app/tpcc/shoal-tpcc}
java=${JAVA:-java}
shared_buffers=${SHARED_BUFFERS:-1GB}
check_timeout=${CHECK_TIMEOUT:-600}
read -r -a tools <<<"${TOOLS:-go-tpc shoal-tpcc benchbase}"
if [[ ${PROCEDURES:-0} == 1 && " ${tools[*]} " != *" shoal-tpcc-procedures "* ]]; then
  tools+=(shoal-tpcc-procedures)
fi
go=${GO:-$(command -v go || echo /usr/local/go/bin/go)}
pg_bin=${PG_BIN:-$(find /usr/lib/postgresql -maxdepth 2 -name bin -type d 2>/dev/null | sort -V | tail -1)}

mkdir -p "$scratch"
scratch=$(cd "$scratch" && pwd)
gotpc=${GO_TPC:-}
if [[ -z "$gotpc" && -n "${GO_TPC_SRC:-}" ]]; then
  gotpc=$scratch/bin/go-tpc
  echo "building go-tpc from $GO_TPC_SRC into $gotpc"
  (cd "$GO_TPC_SRC" && nice -n 10 "$go" build -o "$gotpc" ./cmd/go-tpc)
fi
have() {
  case $1 in
    go-tpc) [[ -n "$gotpc" && -x "$gotpc" ]] ;;
    shoal-tpcc | shoal-tpcc-procedures) [[ -x "$shoal" ]] ;;
    benchbase) [[ -n "${BENCHBASE:-}" && -f "$BENCHBASE/benchbase.jar" ]] ;;
  esac
}
active=()
for tool in "${tools[@]}"; do
  if have "$tool"; then active+=("$tool"); else echo "skipping $tool: not given (see the header)"; fi
done
((${#active[@]} > 0)) || { echo "no tool to run"; exit 1; }
if [[ -n "$gotpc" ]] && have go-tpc && ! "$gotpc" tpcc --help 2>&1 | grep -q postgres; then
  echo "$gotpc has no PostgreSQL driver (the module proxy's v1.0.7 is MySQL-only): see the header"
  exit 1
fi

# The scratch server (scripts/pg-scratch.sh): loopback TCP only, fsync off, stopped on exit.
source scripts/pg-scratch.sh
pg_scratch_start "$scratch" "$port" "$shared_buffers" 300
sql "CREATE ROLE bench LOGIN SUPERUSER PASSWORD 'bench'"
for db in gotpc tpcc benchbase; do sql "CREATE DATABASE $db OWNER bench"; done
echo "server: $(sql 'SELECT version()' | cut -d, -f1) on 127.0.0.1:$port, shared_buffers $shared_buffers, postmaster $server_pid"

shoal_db="postgresql://bench:bench@127.0.0.1:$port/tpcc"
gotpc_flags=(-d postgres -H 127.0.0.1 -P "$port" -U bench -p bench -D gotpc --conn-params sslmode=disable)
bb_config=$scratch/benchbase-tpcc.xml
# From BenchBase's config/postgres/sample_tpcc_config.xml: the same URL parameters and batch
# size; READ COMMITTED instead of SERIALIZABLE, no rate limit, no waits, our sizes.
cat >"$bb_config" <<EOF
<?xml version="1.0"?>
<parameters>
    <type>POSTGRES</type>
    <driver>org.postgresql.Driver</driver>
    <url>jdbc:postgresql://127.0.0.1:$port/benchbase?sslmode=disable&amp;ApplicationName=tpcc&amp;reWriteBatchedInserts=true</url>
    <username>bench</username>
    <password>bench</password>
    <reconnectOnConnectionFailure>true</reconnectOnConnectionFailure>
    <isolation>TRANSACTION_READ_COMMITTED</isolation>
    <batchsize>128</batchsize>
    <scalefactor>$warehouses</scalefactor>
    <terminals>$connections</terminals>
    <works>
        <work>
            <time>$duration</time>
            <rate>unlimited</rate>
            <weights>45,43,4,4,4</weights>
        </work>
    </works>
    <transactiontypes>
        <transactiontype><name>NewOrder</name></transactiontype>
        <transactiontype><name>Payment</name></transactiontype>
        <transactiontype><name>OrderStatus</name></transactiontype>
        <transactiontype><name>Delivery</name></transactiontype>
        <transactiontype><name>StockLevel</name></transactiontype>
    </transactiontypes>
</parameters>
EOF
# BenchBase reads its config/ directory from the working directory.
benchbase=(env -C "${BENCHBASE:-.}" "$java" -jar benchbase.jar -b tpcc -c "$bb_config")

echo "loading $warehouses warehouses with each tool"
for tool in "${active[@]}"; do
  case $tool in
    go-tpc)
      /usr/bin/time -f "go-tpc prepare: %e s" "$gotpc" tpcc --warehouses "$warehouses" \
        "${gotpc_flags[@]}" -T 4 prepare --no-check >"$scratch/gotpc-prepare.log" 2>&1 || {
        tail -20 "$scratch/gotpc-prepare.log"
        exit 1
      }
      tail -1 "$scratch/gotpc-prepare.log"
      ;;
    shoal-tpcc | shoal-tpcc-procedures)
      if [[ -z "${shoal_loaded:-}" ]]; then # one database for both modes
        "$shoal" init --db "$shoal_db" >/dev/null
        /usr/bin/time -f "shoal-tpcc load: %e s" "$shoal" load --db "$shoal_db" \
          --warehouses "$warehouses" --no-progress 2>&1 | tail -2
        shoal_loaded=1
      fi
      [[ $tool == shoal-tpcc ]] || "$shoal" init --db "$shoal_db" --procedures | tail -1
      ;;
    benchbase)
      /usr/bin/time -o "$scratch/benchbase-load.time" -f "benchbase load: %e s" "${benchbase[@]}" \
        --create=true --load=true -d "$scratch/benchbase-load" >"$scratch/benchbase-load.log" 2>&1 || {
        tail -20 "$scratch/benchbase-load.log"
        exit 1
      }
      cat "$scratch/benchbase-load.time"
      ;;
  esac
done
# Vacuum and analyze what every tool loaded, so that no run pays for autovacuum's first pass
# over another tool's fresh tables; then a checkpoint.
started=$SECONDS
for db in gotpc tpcc benchbase; do
  "$pg_bin/psql" -X -q -h 127.0.0.1 -p "$port" -U postgres -d "$db" -c "VACUUM ANALYZE"
done
echo "vacuum analyze: $((SECONDS - started)) s"
sql "CHECKPOINT" >/dev/null

# Server CPU ticks: server_ticks (scripts/pg-scratch.sh).
ticks_per_second=$(getconf CLK_TCK)

results=$scratch/results.txt
: >"$results"
# One run: "tool transactions new_orders failed client_cpu_s peak_rss_kib server_cpu_s".
measure() {
  local tool=$1
  local t0 t1 log=$scratch/$tool-run-$rep.log timing=$scratch/$tool-time.txt counts
  t0=$(server_ticks)
  case $tool in
    go-tpc)
      /usr/bin/time -o "$timing" -f "%U %S %M" "$gotpc" tpcc --warehouses "$warehouses" \
        "${gotpc_flags[@]}" -T "$connections" --time "${duration}s" --ignore-error run \
        >"$log" 2>&1 || true
      counts=$(awk '/^\[Summary\]/ { for (i = 1; i <= NF; ++i) if ($i == "Count:") { c = $(i+1); gsub(",", "", c); if ($2 ~ /_ERR$/) bad += c; else n += c; if ($2 == "NEW_ORDER") no += c } } END { print n + 0, no + 0, bad + 0 }' "$log")
      ;;
    shoal-tpcc | shoal-tpcc-procedures)
      local mode=()
      [[ $tool == shoal-tpcc ]] || mode=(--procedures)
      /usr/bin/time -o "$timing" -f "%U %S %M" "$shoal" run --db "$shoal_db" --no-wait "${mode[@]}" \
        --connections "$connections" --warmup 0s --duration "${duration}s" --no-tui \
        --tolerate-errors --json "$scratch/shoal.json" >"$log" 2>&1
      counts=$(python3 -c "import json,sys; t=json.load(open(sys.argv[1]))['transactions']; print(sum(x['completed'] for x in t), sum(x['completed'] for x in t if x['type'] == 'New-Order'), sum(x['failed'] + x['failed_retries_exhausted'] + x['lost'] + x['abandoned'] for x in t))" "$scratch/shoal.json")
      ;;
    benchbase)
      rm -f "$scratch/benchbase-hist.json"
      /usr/bin/time -o "$timing" -f "%U %S %M" "${benchbase[@]}" --execute=true \
        -d "$scratch/benchbase-results" -jh "$scratch/benchbase-hist.json" >"$log" 2>&1 || true
      # Completed = committed + the New-Order rollbacks (among BenchBase's "aborted", user
      # aborts); its other aborts (a Delivery whose DELETE found the row gone: it expects
      # SERIALIZABLE) and unexpected errors are failures.
      counts=$(python3 - "$scratch/benchbase-hist.json" <<'PY'
import json, sys
h = json.load(open(sys.argv[1]))
def counts(name):
    return {k: int(v) for k, v in h.get(name, {}).get("HISTOGRAM", {}).items()}
n = no = bad = 0
for k, v in counts("completed").items():
    n += v
    no += v if "NewOrder" in k else 0
for k, v in counts("aborted").items():
    if "NewOrder" in k:
        n += v
        no += v
    else:
        bad += v
bad += sum(counts("unexpected").values())
print(n, no, bad)
PY
)
      ;;
  esac
  t1=$(server_ticks)
  local user sys rss n no bad
  read -r user sys rss <"$timing"
  read -r n no bad <<<"$counts"
  awk -v tool="$tool" -v n="$n" -v no="$no" -v bad="$bad" -v u="$user" -v s="$sys" \
    -v rss="$rss" -v st=$((t1 - t0)) -v hz="$ticks_per_second" \
    'BEGIN { printf "%s %d %d %d %.2f %d %.2f\n", tool, n, no, bad, u + s, rss, st / hz }' |
    tee -a "$results"
}

echo "runs: tool transactions new_orders failed client_cpu_s peak_rss_kib server_cpu_s (load average: $(cut -d' ' -f1-3 /proc/loadavg))"
for rep in $(seq 1 "$reps"); do
  order=("${active[@]}")
  if ! ((rep % 2)); then
    order=()
    for ((i = ${#active[@]} - 1; i >= 0; --i)); do order+=("${active[i]}"); done
  fi
  for tool in "${order[@]}"; do measure "$tool"; done
  echo "  after round $rep: load average $(cut -d' ' -f1-3 /proc/loadavg)"
done

echo "checks:"
for tool in "${active[@]}"; do
  case $tool in
    go-tpc)
      if ((check_timeout == 0)); then
        echo "  go-tpc check: skipped (CHECK_TIMEOUT=0)"
      elif timeout "$check_timeout" "$gotpc" tpcc --warehouses "$warehouses" "${gotpc_flags[@]}" \
        check >"$scratch/gotpc-check.log" 2>&1; then
        echo "  go-tpc check: exit 0 ($(grep -c -i 'fail' "$scratch/gotpc-check.log" || true) lines naming a failure)"
      else
        echo "  go-tpc check: did not pass or timed out after $check_timeout s (see $scratch/gotpc-check.log)"
      fi
      ;;
    shoal-tpcc | shoal-tpcc-procedures)
      [[ -z "${shoal_checked:-}" ]] || continue # one database for both modes: checked once
      shoal_checked=1
      "$shoal" check --db "$shoal_db" | tail -1 | sed "s/^/  $tool (one database for both modes) /" ;;
    benchbase) echo "  benchbase: has no consistency check" ;;
  esac
done

python3 - "$results" "$duration" <<'EOF'
import statistics, sys
duration = float(sys.argv[2])
runs = {}
for line in open(sys.argv[1]):
    tool, n, no, bad, cpu, rss, server = line.split()
    runs.setdefault(tool, []).append((int(n), int(no), float(cpu), int(rss), float(server), int(bad)))
med = statistics.median
rows = {}
for tool, r in runs.items():
    ok = [x for x in r if x[0] > 0]
    if not ok:
        continue
    rows[tool] = dict(
        runs=len(ok),
        tpm=med([x[0] * 60 / duration for x in ok]),
        tpmc=med([x[1] * 60 / duration for x in ok]),
        cpu=med([x[2] / x[0] * 1e6 for x in ok]),
        server=med([x[4] / x[0] * 1e6 for x in ok]),
        rss=med([x[3] / 1024 for x in ok]),
        failed=med([x[5] * 60 / duration for x in ok]))
print("\n| median | runs | transactions/min | tpmC (New-Order/min) | failed/min | client CPU us/tx | server CPU us/tx | peak client RSS MiB |")
print("|---|---|---|---|---|---|---|---|")
for tool, v in rows.items():
    print("| %s | %d | %.0f | %.0f | %.0f | %.0f | %.0f | %.1f |" % (
        tool, v["runs"], v["tpm"], v["tpmc"], v["failed"], v["cpu"], v["server"], v["rss"]))
shoal_modes = [t for t in ("shoal-tpcc", "shoal-tpcc-procedures") if t in rows]
if shoal_modes:
    print("\n| shoal-tpcc mode / peer | transactions/min | client CPU per tx | server CPU per tx | peak client RSS |")
    print("|---|---|---|---|---|")
    for mode in shoal_modes:
        s = rows[mode]
        for tool, v in rows.items():
            if tool != mode and (tool not in shoal_modes or mode == "shoal-tpcc-procedures"):
                print("| %s / %s | %.2fx | %.2fx | %.2fx | %.2fx |" % (
                    mode, tool, s["tpm"] / v["tpm"], s["cpu"] / v["cpu"],
                    s["server"] / v["server"], s["rss"] / v["rss"]))
EOF
