#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs every Debian (bookworm) package shoal and shoal-tpcc need to build, test and
# benchmark. Runs apt-get update first, then installs only what is missing. Idempotent.
# Usage: scripts/install-deps.sh        (as root, or with sudo available)
set -euo pipefail

packages=(
  # toolchain
  cmake ninja-build pkg-config g++ clang-19 libclang-rt-19-dev clang-format-19 clang-tidy-19
  llvm-19  # llvm-symbolizer, so sanitizer reports name functions and lines
  # runtime and tests
  libgtest-dev libgmock-dev libbenchmark-dev libasio-dev libboost-context-dev
  libtbb-dev  # oneTBB: a baseline of bench/sched_bench.cpp (optional: the bench builds without it)
  # scripts/forkjoin-peers.sh: the runtime-benchmarks suite links every runtime to tcmalloc, and
  # TooManyCooks and libfork pin threads with hwloc
  libgoogle-perftools-dev libhwloc-dev
  # application
  libpq-dev postgresql libsqlite3-dev libfmt-dev nlohmann-json3-dev libncurses-dev
  libtomlplusplus-dev  # --config FILE (TOML)
  # MySQL / MariaDB: the driver's Connector/C, and the server binaries the tests start in a
  # temporary directory of their own (app/tpcc/testing/mariadb_server.hpp; the packaged service is
  # not used by them)
  libmariadb-dev mariadb-server
  # tests that drive the binary as a person would
  tmux procps
  sqlite3  # the sqlite3 shell: load --csv's export imported with .import (tests/app/loader)
  # deploy/kubernetes/validate.py (the manifests test): PyYAML
  python3-yaml
  # the HTML report rendered in a headless browser; the HdrHistogram log read by its own
  # Java reader; zlib for the log's compressed histograms
  chromium default-jdk-headless libhdrhistogram-java zlib1g-dev
  # the gdb helper's test (tools/gdb, label "tools")
  gdb
  # promtool: run --metrics-addr's page validated with `promtool check metrics`
  prometheus
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "install-deps: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
