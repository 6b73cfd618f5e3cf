#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# scripts/mysql-vs-gotpc.sh: shoal-tpcc and go-tpc side by side on the same MariaDB.
#
# Starts a scratch MariaDB (mariadbd from Debian's mariadb-server) in a temporary directory,
# listening on loopback only (127.0.0.1:PORT: go-tpc speaks TCP), loads WAREHOUSES warehouses
# with each tool into a database of its own (each tool's schema), then runs them in turn,
# interleaved REPS times: go-tpc, shoal-tpcc with server-side prepared statements (its default,
# one round trip per statement) and shoal-tpcc with protocol=text (one multi-statement query per
# batch), all without keying or think times (go-tpc's default; shoal-tpcc --no-wait),
# CONNECTIONS connections each (go-tpc -T CONNECTIONS; shoal-tpcc --connections CONNECTIONS with
# the spec's 10 terminals per warehouse sharing them), the server's default isolation
# (REPEATABLE READ; shoal-tpcc --isolation repeatable-read), DURATION each.
# Per run it measures: transactions completed (all five types), client CPU (user + system, from
# /usr/bin/time), peak client RSS, server CPU (mariadbd's utime + stime from /proc), TCP segments
# sent on the machine (/proc/net/snmp OutSegs: loopback, so both directions of both tools'
# traffic; anything else using TCP on the machine adds noise). Both tools' `check` run at the end.
# With PROCEDURES=1, shoal-tpcc also runs with --procedures (one stored-procedure call per
# transaction; init --procedures after its load; docs/tpcc/procedures.md) in both protocols,
# as shoal-prepared-procedures and shoal-text-procedures in the same rounds.
# With COUNTERS=1, the server's own counters (SHOW GLOBAL STATUS: statements by kind, handler
# row operations, bytes, temporary tables, sorts) are read before and after each run and printed
# per transaction, the tools side by side (medians over the rounds): load-independent figures,
# unlike the CPU times, for a machine shared with other work.
# Prints one line per run and a Markdown table of the medians; a benchmark, not a test.
#
# go-tpc is built from the Go module proxy (`go install github.com/pingcap/go-tpc/cmd/go-tpc@
# GO_TPC_VERSION`) into SCRATCH/bin, outside the repository, unless GO_TPC names a binary.
#
# Settings (environment): WAREHOUSES (10), CONNECTIONS (16), DURATION (60, seconds), REPS (3),
# CHECK_TIMEOUT (900, seconds, go-tpc's check), PORT (13306), SCRATCH (/tmp/shoal-gotpc), GO_TPC (empty: build it), GO_TPC_VERSION (latest),
# GO (go, or /usr/local/go/bin/go), BUILD_DIR (build/release), BUFFER_POOL (1G), PROCEDURES (0).
# Example: WAREHOUSES=10 DURATION=60 REPS=3 scripts/mysql-vs-gotpc.sh
set -euo pipefail

cd "$(dirname "$0")/.."
warehouses=${WAREHOUSES:-10}
connections=${CONNECTIONS:-16}
duration=${DURATION:-60}
reps=${REPS:-3}
port=${PORT:-13306}
scratch=${SCRATCH:-/tmp/shoal-gotpc}
build_dir=${BUILD_DIR:-build/release}
buffer_pool=${BUFFER_POOL:-1G}
go=${GO:-$(command -v go || echo /usr/local/go/bin/go)}

mkdir -p "$scratch"
gotpc=${GO_TPC:-}
if [[ -z "$gotpc" ]]; then
  gotpc=$scratch/bin/go-tpc
  if [[ ! -x "$gotpc" ]]; then
    echo "building go-tpc@${GO_TPC_VERSION:-latest} into $scratch/bin (Go module proxy)"
    (cd "$scratch" && GOBIN=$scratch/bin "$go" install \
      "github.com/pingcap/go-tpc/cmd/go-tpc@${GO_TPC_VERSION:-latest}")
  fi
fi
shoal=$build_dir/app/tpcc/shoal-tpcc
if [[ ! -x "$shoal" ]]; then
  cmake --preset release >/dev/null
  nice -n 10 cmake --build --preset release --target shoal-tpcc
fi

# The scratch server: loopback only, its own directory, killed on exit.
dir=$(mktemp -d "$scratch/mariadb-XXXXXX")
user_flag=()
if [[ $(id -u) -eq 0 ]]; then user_flag=(--user=root); fi
mariadb-install-db --no-defaults --datadir="$dir/data" --auth-root-authentication-method=normal \
  --skip-test-db "${user_flag[@]}" >"$dir/install.log" 2>&1
/usr/sbin/mariadbd --no-defaults --datadir="$dir/data" --socket="$dir/sock" \
  --bind-address=127.0.0.1 --port="$port" --pid-file="$dir/pid" --log-error="$dir/error.log" \
  --skip-name-resolve --innodb-buffer-pool-size="$buffer_pool" --innodb-log-file-size=512M \
  --max-connections=500 --skip-log-bin "${user_flag[@]}" </dev/null >/dev/null 2>&1 &
server_pid=$!
trap 'kill -9 $server_pid 2>/dev/null || true; rm -rf "$dir"' EXIT
for _ in $(seq 1 600); do
  mariadb-admin --no-defaults --socket="$dir/sock" -u root ping >/dev/null 2>&1 && break
  sleep 0.1
done
sql() { mariadb --no-defaults --socket="$dir/sock" -u root -N -B -e "$1"; }
sql "CREATE DATABASE gotpc; CREATE DATABASE tpcc; CREATE USER 'bench'@'127.0.0.1' IDENTIFIED BY 'bench'; GRANT ALL ON *.* TO 'bench'@'127.0.0.1';"
echo "server: $(sql 'SELECT version()') on 127.0.0.1:$port, buffer pool $buffer_pool, pid $server_pid"

shoal_db="mysql://bench:bench@127.0.0.1:$port/tpcc"
gotpc_flags=(-d mysql -H 127.0.0.1 -P "$port" -U bench -p bench -D gotpc)

echo "loading $warehouses warehouses with each tool"
/usr/bin/time -f "go-tpc prepare: %e s" "$gotpc" tpcc --warehouses "$warehouses" \
  "${gotpc_flags[@]}" -T 4 prepare --no-check >"$scratch/gotpc-prepare.log" 2>&1 || {
  tail -20 "$scratch/gotpc-prepare.log"
  exit 1
}
tail -1 "$scratch/gotpc-prepare.log"
"$shoal" init --db "$shoal_db" >/dev/null
/usr/bin/time -f "shoal-tpcc load: %e s" "$shoal" load --db "$shoal_db" \
  --warehouses "$warehouses" --no-progress 2>&1 | tail -2
tools=(go-tpc shoal-prepared shoal-text)
if [[ ${PROCEDURES:-0} == 1 ]]; then
  "$shoal" init --db "$shoal_db" --procedures | tail -1
  tools+=(shoal-prepared-procedures shoal-text-procedures)
fi

server_ticks() { awk '{print $14 + $15}' "/proc/$server_pid/stat"; }
out_segs() { awk '/^Tcp:/ { if (h) print $12; h = 1 }' /proc/net/snmp; }
ticks_per_second=$(getconf CLK_TCK)

results=$scratch/results.txt
: >"$results"
counters=$scratch/counters.txt
: >"$counters"
status_of() { sql 'SHOW GLOBAL STATUS' >"$1"; }
# One run: "tool transactions client_cpu_s peak_rss_kib server_cpu_s out_segs".
measure() {
  local tool=$1
  local t0 s0 t1 s1 log=$scratch/$tool-run-$rep.log timing=$scratch/$tool-time.txt count
  [[ ${COUNTERS:-0} == 1 ]] && status_of "$scratch/status-before.txt"
  t0=$(server_ticks)
  s0=$(out_segs)
  if [[ $tool == go-tpc ]]; then
    /usr/bin/time -o "$timing" -f "%U %S %M" "$gotpc" tpcc --warehouses "$warehouses" \
      "${gotpc_flags[@]}" -T "$connections" --time "${duration}s" --ignore-error run \
      >"$log" 2>&1
    count=$(awk '/^\[Summary\]/ && $2 !~ /_ERR$/ { for (i = 1; i <= NF; ++i) if ($i == "Count:") { gsub(",", "", $(i+1)); n += $(i+1) } } END { print n + 0 }' "$log")
  else
    local protocol=${tool#shoal-} mode=()
    [[ $protocol == *-procedures ]] && mode=(--procedures)
    protocol=${protocol%-procedures}
    /usr/bin/time -o "$timing" -f "%U %S %M" "$shoal" run "${mode[@]}" \
      --db "$shoal_db?protocol=$protocol" --no-wait \
      --connections "$connections" --isolation repeatable-read --warmup 0s \
      --duration "${duration}s" --no-tui --tolerate-errors --json "$scratch/shoal.json" \
      >"$log" 2>&1
    count=$(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(sum(t['completed'] for t in d['transactions']))" "$scratch/shoal.json")
  fi
  t1=$(server_ticks)
  s1=$(out_segs)
  if [[ ${COUNTERS:-0} == 1 ]]; then
    status_of "$scratch/status-after.txt"
    awk -v tool="$tool" -v n="$count" 'NR == FNR { before[$1] = $2; next }
      $1 ~ /^(Questions|Com_(select|insert|insert_select|update|delete|begin|commit|rollback|set_option|change_db|stmt_.*|admin_commands)|Handler_(read_.*|write|update|delete|commit|tmp_.*)|Innodb_rows_.*|Bytes_(received|sent)|Created_tmp_.*|Select_.*|Sort_.*)$/ &&
      $2 ~ /^[0-9]+$/ && $2 - before[$1] != 0 && n > 0 { printf "%s %s %.3f\n", tool, $1, ($2 - before[$1]) / n }' \
      "$scratch/status-before.txt" "$scratch/status-after.txt" >>"$counters"
  fi
  read -r user sys rss <"$timing"
  local line
  line=$(awk -v tool="$tool" -v n="$count" -v u="$user" -v s="$sys" -v rss="$rss" \
    -v st=$((t1 - t0)) -v hz="$ticks_per_second" -v segs=$((s1 - s0)) -v d="$duration" \
    'BEGIN { printf "%s %d %.2f %d %.2f %d %.1f\n", tool, n, u + s, rss, st / hz, segs, n * 60 / d }')
  echo "$line" | tee -a "$results"
}

echo "runs: tool transactions client_cpu_s peak_rss_kib server_cpu_s tcp_out_segments tx_per_min"
for rep in $(seq 1 "$reps"); do
  order=("${tools[@]}")
  if ! ((rep % 2)); then
    order=()
    for ((i = ${#tools[@]} - 1; i >= 0; --i)); do order+=("${tools[i]}"); done
  fi
  for tool in "${order[@]}"; do measure "$tool"; done
done

echo "checks:"
# go-tpc's check is slow on MariaDB (its 3.3.2.10 query ran for over ten minutes on 2
# warehouses here): bounded by CHECK_TIMEOUT seconds.
if timeout "${CHECK_TIMEOUT:-900}" "$gotpc" tpcc --warehouses "$warehouses" "${gotpc_flags[@]}" \
  check >"$scratch/gotpc-check.log" 2>&1; then
  echo "  go-tpc check: exit 0 ($(grep -c -i 'fail' "$scratch/gotpc-check.log" || true) lines naming a failure)"
else
  echo "  go-tpc check: did not pass or timed out after ${CHECK_TIMEOUT:-900} s (see $scratch/gotpc-check.log)"
fi
"$shoal" check --db "$shoal_db" | tail -1 | sed 's/^/  shoal-tpcc /'

python3 - "$results" "$duration" <<'EOF'
import statistics, sys
runs = {}
for line in open(sys.argv[1]):
    tool, n, cpu, rss, server, segs, tpm = line.split()
    runs.setdefault(tool, []).append((int(n), float(cpu), int(rss), float(server), int(segs), float(tpm)))
med = lambda xs: statistics.median(xs)
print("\n| median of %d runs | transactions/min | client CPU us/tx | server CPU us/tx | TCP segments/tx | peak client RSS MiB |" % len(next(iter(runs.values()))))
print("|---|---|---|---|---|---|")
medians = {}
for tool in ("go-tpc", "shoal-prepared", "shoal-text", "shoal-prepared-procedures",
             "shoal-text-procedures"):
    r = runs.get(tool, [])
    if not r:
        continue
    medians[tool] = (med([x[5] for x in r]), med([x[1] / x[0] * 1e6 for x in r]),
                     med([x[3] / x[0] * 1e6 for x in r]))
    print("| %s | %.0f | %.0f | %.0f | %.1f | %.1f |" % (
        tool, *medians[tool], med([x[4] / x[0] for x in r]), med([x[2] / 1024 for x in r])))
g = medians.get("go-tpc")
if g and all(g):
    print("\n| shoal-tpcc mode / go-tpc | transactions/min | client CPU per tx | server CPU per tx |")
    print("|---|---|---|---|")
    for tool, m in medians.items():
        if tool != "go-tpc":
            print("| %s | %.2fx | %.2fx | %.2fx |" % (tool, m[0] / g[0], m[1] / g[1], m[2] / g[2]))
EOF

if [[ ${COUNTERS:-0} == 1 ]]; then
  python3 - "$counters" <<'EOF'
import statistics, sys
per = {}
for line in open(sys.argv[1]):
    tool, name, value = line.split()
    per.setdefault(name, {}).setdefault(tool, []).append(float(value))
tools = [t for t in ("go-tpc", "shoal-prepared", "shoal-text", "shoal-prepared-procedures",
                     "shoal-text-procedures") if any(t in v for v in per.values())]
print("\n| server counter per transaction (median) | " + " | ".join(tools) + " |")
print("|---|" + "---|" * len(tools))
for name in sorted(per):
    cells = ["%.2f" % statistics.median(per[name][t]) if t in per[name] else "0" for t in tools]
    print("| %s | %s |" % (name, " | ".join(cells)))
EOF
fi
