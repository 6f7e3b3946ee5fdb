#!/usr/bin/env python3
"""Lists the longest function definitions in src/, longest first (issue 16: no function over 60 lines).

A definition starts at a line at column 0 (the code is formatted with namespace bodies not
indented) that holds a parameter list; its signature may wrap over indented lines down to the
line that opens the body with a brace. It ends at the line that closes it at column 0; its
length counts from the signature's first line to that brace. Member functions defined inside a class body are
indented and not counted (they are one-liners in this code base); lambdas count toward
the function that holds them.

  scripts/longest-functions.py [--top N] [--limit LINES] [DIR...]   (default: --top 10, src)

Exits 1 when --limit is given and a function is longer.
"""
import argparse
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NOT_A_FUNCTION = re.compile(r"^(namespace|struct|class|enum|union|extern|template\s*<[^>]*>\s*(struct|class))\b")


def starts_definition(line):
    """A column-0 line that may begin a function's signature (it may wrap over the lines below)."""
    if not line or line[0].isspace() or line.startswith(("#", "//", "}")) or NOT_A_FUNCTION.match(line):
        return False
    return "(" in line and "=" not in line.split("(")[0]


def definitions(path):
    """(first line, last line, signature) of each column-0 function definition in path."""
    lines = open(path, encoding="utf-8").read().splitlines()
    found, start, pending = [], None, None
    for number, line in enumerate(lines, 1):
        if start is not None:
            if line.startswith("}"):
                found.append((start, number, signature))
                start = None
            continue
        if pending is None and starts_definition(line):
            pending = (number, line)
        elif pending is not None:
            pending = (pending[0], pending[1] + " " + line.strip())
        if pending is None:
            continue
        stripped = line.rstrip()
        if stripped.endswith("{"):
            start, signature, pending = pending[0], " ".join(pending[1].split()), None
        elif stripped.endswith((";", "}")):
            pending = None  # a declaration, or a definition on one line
    return found


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--top", type=int, default=10)
    parser.add_argument("--limit", type=int, default=0)
    parser.add_argument("dirs", nargs="*", default=[os.path.join(ROOT, "src")])
    args = parser.parse_args()
    rows = []
    for top in args.dirs:
        for folder, _, files in os.walk(top):
            for name in sorted(files):
                if name.endswith((".cpp", ".h")):
                    path = os.path.join(folder, name)
                    for first, last, signature in definitions(path):
                        rows.append((last - first + 1, os.path.relpath(path, ROOT), first, signature))
    rows.sort(key=lambda row: (-row[0], row[1], row[2]))
    for length, path, first, signature in rows[: args.top]:
        print(f"{length:4d}  {path}:{first}  {signature[:100]}")
    over = [row for row in rows if args.limit and row[0] > args.limit]
    if over:
        print(f"{len(over)} function(s) over {args.limit} lines", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
