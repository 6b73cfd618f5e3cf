#!/usr/bin/env bash
# The main job, until shoal-tpcc exists: builds shoal (release) and runs examples/04_terminals,
# 100,000 coroutine "terminals" with TPC-C-shaped keying and think times on 2 worker threads,
# and reports throughput, timer lateness, memory per terminal and CPU. No database involved.
# Usage: scripts/demo.sh [--terminals N] [--seconds S] [--workers W]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake --preset release > /dev/null
cmake --build --preset release --target 04_terminals
exec build/release/examples/04_terminals "$@"
