#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# scripts/lint-units.py: which entries of a compile database compile the sources named on stdin
# (paths relative to the repository), for scripts/lint.sh. A source a target compiles on its own
# is its own entry; a source in a unity batch is compiled by the batch (a generated file that
# includes it), so the batch is the entry. Prints each entry once, in the database's order, and
# on stderr how many of the named sources some entry compiles (the rest, such as the consumer
# project's or an optional target's, are not built by the release preset).
# Usage: git ls-files 'src/*.cpp' | scripts/lint-units.py build/lint/compile_commands.json ROOT
import json
import re
import sys

database, root = sys.argv[1], sys.argv[2].rstrip("/")
wanted = {f"{root}/{line.strip()}" for line in sys.stdin if line.strip()}
include = re.compile(r'^#include "([^"]+)"', re.MULTILINE)
units, covered = [], set()
for entry in json.load(open(database, encoding="utf-8")):
    path = entry["file"]
    if "/Unity/unity_" in path:
        with open(path, encoding="utf-8") as batch:
            compiled = set(include.findall(batch.read())) & wanted
    else:
        compiled = {path} & wanted
    if compiled and path not in units:
        units.append(path)
        covered |= compiled
print("\n".join(units))
print(f"lint-units: {len(covered)} of {len(wanted)} sources in {len(units)} entries",
      file=sys.stderr)
