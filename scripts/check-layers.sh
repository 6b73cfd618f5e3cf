#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Checks shoal-tpcc's layering without a build: prints each module's includes of other modules
# and fails on one that crosses the layer diagram upward (or sideways).
#
# The diagram (app/tpcc/README.md, docs/tpcc/design/tpcc-layers.md) is the `rank` table below: a
# module may include itself and the modules it links, and it may link only modules of a lower
# rank. The links are read from each module's CMakeLists.txt (`tpcc_module(NAME ... DEPENDS
# ...)`), the same ones the build enforces with per-module include roots; this script also
# catches a DEPENDS that points up (which would make the build accept an upward include) and an
# include of a concrete driver (driver/postgres, mysql, sqlite, sim, pool) from outside the
# driver.
#
# Usage: scripts/check-layers.sh [-q] [--root DIR]
#   -q          print only violations
#   --root DIR  check the tree at DIR (holding app/tpcc) instead of this repository: a scratch
#               copy with a planted violation (tests/tools/check_layers_test.sh)
set -euo pipefail
root="$(dirname "$0")/.."

quiet=false
while [ $# -gt 0 ]; do
  case $1 in
    -q) quiet=true ;;
    --root)
      [ $# -ge 2 ] || { echo "check-layers: --root needs a directory" >&2; exit 2; }
      root=$2
      shift
      ;;
    *) echo "check-layers: unknown argument '$1' (usage: check-layers.sh [-q] [--root DIR])" >&2
       exit 2 ;;
  esac
  shift
done
[ -d "$root/app/tpcc" ] || { echo "check-layers: no app/tpcc under '$root'" >&2; exit 2; }
cd "$root"

# The layer diagram, bottom up. run_result is the run's data, which the reports read without
# the run's machinery; figures, what the dashboard and the metrics endpoint derive from a run's
# snapshot; commands, the commands main dispatches to, at the top.
declare -A rank=(
  [driver]=0 [random]=0
  [cli]=1 [schema]=1 [txn]=1 [check]=1 [ch]=1
  [loader]=2 [stats]=2 [server_stats]=2
  [terminal]=3 [run_result]=3
  [run]=4 [report]=4
  [figures]=5 [compare]=5
  [ui]=6 [metrics]=6
  [commands]=7
)
app=app/tpcc
status=0

fail() {
  echo "check-layers: $*" >&2
  status=1
}

# The modules a module's CMakeLists.txt says it DEPENDS on (tpcc_module).
declared_depends() {
  local module=$1
  tr '\n' ' ' < "$app/$module/CMakeLists.txt" |
    grep -oE "tpcc_module\($module [^)]*\)" | tr -d ')' |
    sed -nE 's/.* DEPENDS //p' | sed -E 's/ (LIBS|PRIVATE_LIBS|SOURCES) .*//' |
    tr -s ' ' '\n' | grep -v '^$' || true
}

# The module a header path "module/...", or a file under app/tpcc, belongs to.
module_of() {
  echo "${1%%/*}"
}

declare -A depends
for module in "${!rank[@]}"; do
  depends[$module]=$(declared_depends "$module" | tr '\n' ' ')
  [ -f "$app/$module/CMakeLists.txt" ] || fail "$module: no CMakeLists.txt"
  for dep in ${depends[$module]}; do
    if [ -z "${rank[$dep]+x}" ]; then
      fail "$module DEPENDS on $dep, which is not in the diagram"
    elif [ "${rank[$dep]}" -ge "${rank[$module]}" ]; then
      fail "$module (rank ${rank[$module]}) DEPENDS on $dep (rank ${rank[$dep]}): not below it"
    fi
  done
done

# Everything a module may include: itself and what it links, transitively.
reachable() {
  local -A seen=()
  local queue=("$1") m dep
  while [ ${#queue[@]} -gt 0 ]; do
    m=${queue[0]}
    queue=("${queue[@]:1}")
    [ -n "${seen[$m]+x}" ] && continue
    seen[$m]=1
    for dep in ${depends[$m]:-}; do queue+=("$dep"); done
  done
  echo "${!seen[@]}"
}

for module in $(for m in "${!rank[@]}"; do echo "${rank[$m]} $m"; done | sort -k1,1nr -k2 |
                cut -d' ' -f2); do
  allowed=" $(reachable "$module") "
  mapfile -t files < <(find "$app/$module" -type f \( -name '*.hpp' -o -name '*.cpp' \) | sort)
  [ ${#files[@]} -gt 0 ] || continue
  # "file:line:#include "x/y.hpp"" for every quoted include of an application module.
  includes=$(grep -HnoE '^#include "[a-z_]+/[^"]+"' "${files[@]}" || true)
  used=""
  while IFS= read -r hit; do
    [ -n "$hit" ] || continue
    path=${hit#*\"}
    path=${path%\"}
    target=$(module_of "$path")
    [ "$target" = shoal ] && continue  # the runtime: below every module
    [ -n "${rank[$target]+x}" ] || continue  # not an application module (a test's own dir)
    [ "$target" = "$module" ] || used+="$target"$'\n'
    if [[ "$allowed" != *" $target "* ]]; then
      fail "${hit%%:#*}: $module includes \"$path\" ($target is not below $module)"
    fi
    if [ "$module" != driver ] && [[ "$path" =~ ^driver/(postgres|mysql|sqlite|sim|pool)/ ]]; then
      fail "${hit%%:#*}: $module includes the concrete driver \"$path\" (only driver/*.hpp)"
    fi
  done <<< "$includes"
  if ! $quiet; then
    printf '%-10s (rank %s) links: %-34s includes: %s\n' "$module" "${rank[$module]}" \
      "${depends[$module]:--}" "$(grep -v '^$' <<< "$used" | sort -u | tr '\n' ' ')"
  fi
done

if [ "$status" -eq 0 ]; then
  $quiet || echo "check-layers: every include goes down the diagram"
fi
exit "$status"
