# SPDX-License-Identifier: Apache-2.0
# scripts/pg-scratch.sh: a scratch PostgreSQL for the peer benchmarks (pg-peers.sh,
# pg-ch-peers.sh), sourced, never run.
#
# pg_scratch_start SCRATCH PORT SHARED_BUFFERS MAX_CONNECTIONS starts Debian's server binaries
# ($pg_bin, set by the caller) in a temporary directory under SCRATCH: loopback TCP only
# (127.0.0.1:PORT), fsync off (as tests/support's postgres_server), stopped and removed on exit
# (an EXIT trap); as root, the server runs as the postgres user. It sets `dir` and
# `server_pid`, and `sql TEXT [DATABASE]` runs a statement as postgres.
# server_ticks prints the server's CPU ticks: the postmaster's own and its waited-for children's
# (ended backends), plus every live child's (backends, autovacuum, checkpointer, ...).

pg_scratch_start() {
  local scratch=$1 port=$2 shared_buffers=$3 max_connections=$4
  dir=$(mktemp -d "$scratch/pg-XXXXXX")
  as_server=()
  if [[ $(id -u) -eq 0 ]]; then
    chown postgres: "$dir"
    as_server=(runuser -u postgres --)
  fi
  "${as_server[@]}" "$pg_bin/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --locale=C \
    --no-sync >"$dir/initdb.log" 2>&1
  cat >>"$dir/data/postgresql.conf" <<EOF2
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$dir'
fsync = off
synchronous_commit = off
full_page_writes = off
shared_buffers = $shared_buffers
max_wal_size = 4GB
max_connections = $max_connections
EOF2
  trap pg_scratch_stop EXIT
  "${as_server[@]}" "$pg_bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start >/dev/null
  server_pid=$(head -1 "$dir/data/postmaster.pid")
  pg_scratch_port=$port
}

pg_scratch_stop() {
  "${as_server[@]}" "$pg_bin/pg_ctl" -D "$dir/data" -m immediate -w -t 60 stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}

sql() {
  "$pg_bin/psql" -X -q -At -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$pg_scratch_port" -U postgres \
    -d "${2:-postgres}" -c "$1"
}

server_ticks() {
  python3 - "$server_pid" <<'PY'
import os, sys
pm, total = sys.argv[1], 0
for pid in filter(str.isdigit, os.listdir("/proc")):
    try:
        stat = open(f"/proc/{pid}/stat").read()
    except OSError:
        continue
    f = stat.rsplit(")", 1)[1].split()
    if pid == pm or f[1] == pm:
        total += sum(int(x) for x in f[11:15])
print(total)
PY
}
