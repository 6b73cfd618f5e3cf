#!/usr/bin/env bash
# Builds and runs every test of the project, the way CI does:
#   every CMake preset (clang-19: release, dev = Debug+ASan+UBSan with shuffled ready queues,
#   tsan; g++ 12: gcc-release, gcc-dev), each configured, built and tested by ctest; then the
#   format and static checks; then an installed copy of shoal consumed by a tiny find_package
#   project and by pkg-config.
# Usage: scripts/test.sh [preset ...]     (default: all of them)
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh

presets=("$@")
[ ${#presets[@]} -gt 0 ] || presets=(release dev tsan gcc-release gcc-dev)

for preset in "${presets[@]}"; do
  echo "=== preset ${preset} ==="
  start=$(date +%s)
  cmake --workflow --preset "${preset}"
  echo "=== preset ${preset}: $(( $(date +%s) - start )) s ==="
done

echo "=== lint ==="
scripts/lint.sh

if [ -d build/release ]; then
  echo "=== installed package consumer ==="
  rm -rf build/install
  cmake --install build/release --prefix build/install > /dev/null
  CXX=clang++-19 bash tests/consumer/check.sh "$PWD/build/install"
fi
echo "=== all tests passed ==="
