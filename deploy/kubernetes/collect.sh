#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# collect.sh [JOB] [DIR]: copies each shard's JSON result out of the pods' logs of the Indexed
# Job JOB (default shoal-tpcc) into DIR (default ./results), then merges them.
set -eu
job=${1:-shoal-tpcc}
dir=${2:-results}
mkdir -p "$dir"
for pod in $(kubectl get pods -l "job-name=$job" -o name); do
  index=$(kubectl get "$pod" -o jsonpath='{.metadata.annotations.batch\.kubernetes\.io/job-completion-index}')
  kubectl logs "$pod" |
    sed -n '/^----- shoal-tpcc result /,/^----- end of shoal-tpcc result -----$/p' |
    sed '1d;$d' > "$dir/shard-$index.json"
  [ -s "$dir/shard-$index.json" ] || { echo "collect: no result in $pod's log" >&2; exit 1; }
done
shoal-tpcc merge "$dir"/shard-*.json --json "$dir/merged.json"
