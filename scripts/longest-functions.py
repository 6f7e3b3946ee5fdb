#!/usr/bin/env python3
"""Lists the longest function definitions in src/, longest first (issue 16: no function over 60 lines).

A definition is a line at column 0 (the code is formatted with namespace bodies not
indented) that opens a brace after a parameter list, up to the line that closes it at
column 0; its length counts both lines. Member functions defined inside a class body are
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


def definitions(path):
    """(first line, last line, signature) of each column-0 function definition in path."""
    lines = open(path, encoding="utf-8").read().splitlines()
    found, start = [], None
    for number, line in enumerate(lines, 1):
        if start is None:
            if line and not line[0].isspace() and line.rstrip().endswith("{") and not NOT_A_FUNCTION.match(line):
                head = line
                back = number - 2  # a signature that wraps: join the lines above up to a blank or a `;`/`}`
                while "(" not in head and back >= 0 and lines[back].strip() and lines[back].rstrip()[-1] not in ";}":
                    head = lines[back] + " " + head
                    back -= 1
                if "(" in head and "=" not in head.split("(")[0]:
                    start, signature = number, " ".join(head.split())
        elif line.startswith("}"):
            found.append((start, number, signature))
            start = None
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
