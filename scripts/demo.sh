#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The main job: builds shoal-tpcc (release) and runs its default job on an embedded SQLite file:
# create the TPC-C schema, load 2 warehouses, run 20 terminals (coroutines) with the spec's
# keying and think times for a 30 s warm-up and a 2 min measurement interval, print tpmC,
# efficiency and per-transaction latencies, verify the consistency conditions, and clean up.
# No server needed. Any shoal-tpcc option may follow, e.g. scripts/demo.sh --warehouses 4
# (see build/release/app/tpcc/shoal-tpcc --help).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake --preset release > /dev/null
cmake --build --preset release --target shoal-tpcc
mkdir -p build/demo
exec build/release/app/tpcc/shoal-tpcc --db sqlite:build/demo/tpcc.db "$@"
