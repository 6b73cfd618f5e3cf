#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks that the repository's references to its own files resolve.

Two kinds, over the files git tracks:
- every relative markdown link `[text](target)` of a .md file (the #anchor dropped), resolved
  against the file's directory;
- every `docs/....md` path named anywhere (comments in code, scripts, CMake, prose), resolved
  against the repository root.

Prints each broken one as `file:line: target` and exits 1; exits 0 when all resolve.
Usage: scripts/check-links.py [--root DIR]
"""
import argparse
import pathlib
import re
import subprocess
import sys

MARKDOWN_LINK = re.compile(r"\]\(([^)\s]+)\)")
DOCS_PATH = re.compile(r"(?<![\w./-])docs/\w[\w./-]*\.md\b")
EXTERNAL = ("http://", "https://", "mailto:", "#")


def tracked(root):
    out = subprocess.run(["git", "-C", str(root), "ls-files", "-z"], check=True,
                         capture_output=True).stdout
    return [root / name for name in out.decode().split("\0") if name]


def text_of(path):
    try:
        return path.read_text(encoding="utf-8")
    except (UnicodeDecodeError, IsADirectoryError, FileNotFoundError):
        return None


def broken_in(path, root):
    text = text_of(path)
    if text is None:
        return
    for number, line in enumerate(text.splitlines(), start=1):
        if path.suffix == ".md":
            for target in MARKDOWN_LINK.findall(line):
                if target.startswith(EXTERNAL):
                    continue
                if not (path.parent / target.split("#", 1)[0]).exists():
                    yield number, target
        for target in DOCS_PATH.findall(line):
            if not (root / target).exists():
                yield number, target


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=pathlib.Path(__file__).resolve().parent.parent,
                        type=pathlib.Path, help="the repository to check")
    root = parser.parse_args().root.resolve()
    broken = 0
    for path in tracked(root):
        for number, target in broken_in(path, root):
            print(f"{path.relative_to(root)}:{number}: {target}")
            broken += 1
    if broken:
        print(f"check-links: {broken} reference(s) to files that do not exist", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
