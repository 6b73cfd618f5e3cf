#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks deploy/kubernetes/job.yaml without a cluster: it parses, is an Indexed Job whose
parallelism, completions and SHARDS agree, and its pods run `shoal-tpcc run` with the shard
taken from JOB_COMPLETION_INDEX, an agreed --start-at and a --json result.
Exit status: 0 valid, 1 invalid (each problem printed), 77 PyYAML missing (a skip; under CI=true,
where scripts/install-deps.sh installs it, a failure: 1)."""
import os
import re
import sys

try:
    import yaml
except ImportError:
    if os.environ.get("CI") == "true":
        print("validate: python3-yaml is not installed, and CI=true requires it")
        sys.exit(1)
    print("validate: python3-yaml is not installed: skipped")
    sys.exit(77)


def problems(job):
    spec = job.get("spec", {})
    found = []
    if job.get("kind") != "Job" or job.get("apiVersion") != "batch/v1":
        found.append("not a batch/v1 Job")
    if spec.get("completionMode") != "Indexed":
        found.append("completionMode is not Indexed")
    n = spec.get("completions")
    if not isinstance(n, int) or n < 1 or spec.get("parallelism") != n:
        found.append("parallelism and completions must be the same n >= 1")
    pod = spec.get("template", {}).get("spec", {})
    if pod.get("restartPolicy") != "Never":
        found.append("restartPolicy must be Never (a restarted shard measures another interval)")
    containers = pod.get("containers", [])
    if len(containers) != 1:
        return found + ["expected one container"]
    c = containers[0]
    env = {e["name"]: e.get("value") for e in c.get("env", [])}
    if env.get("SHARDS") != str(n):
        found.append(f"env SHARDS is {env.get('SHARDS')!r}, completions is {n}")
    if not re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", env.get("START_AT") or ""):
        found.append("env START_AT must be an ISO 8601 UTC time such as 2030-01-01T00:00:00Z")
    line = " ".join(c.get("command", []) + c.get("args", []))
    for needed in ("shoal-tpcc run", '--shard "$JOB_COMPLETION_INDEX/$SHARDS"',
                   '--start-at "$START_AT"', "--json", "--seed"):
        if needed not in line:
            found.append(f"the container does not run {needed!r}")
    mounts = {m["mountPath"] for m in c.get("volumeMounts", [])}
    if "/results" not in mounts:
        found.append("no volume mounted at /results for the JSON result")
    return found


def main():
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "job.yaml")
    with open(path) as f:
        documents = [d for d in yaml.safe_load_all(f) if d is not None]
    if len(documents) != 1:
        print(f"validate: {path}: expected one document, found {len(documents)}")
        return 1
    found = problems(documents[0])
    for p in found:
        print(f"validate: {path}: {p}")
    if not found:
        print(f"validate: {path}: an Indexed Job of {documents[0]['spec']['completions']} shards")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
