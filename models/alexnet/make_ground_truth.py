#!/usr/bin/python3
"""Writes a TIPC ground-truth file (`<image path>\t<result JSON>` per line, spec §5.2 of the
alignment-diff spec) from the `infer result` lines of an infer.py log.

Usage: models/alexnet/make_ground_truth.py INFER_LOG OUTPUT"""
import re
import sys

LINE = re.compile(r"^infer result \([^)]*\): (\S+)\t(\[.*\])$")


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    rows = [m.groups() for m in map(LINE.match, open(sys.argv[1]).read().splitlines()) if m]
    if not rows:
        sys.exit(f"error: no infer result lines in {sys.argv[1]}")
    with open(sys.argv[2], "w") as out:
        for path, result in rows:
            out.write(f"{path}\t{result}\n")
    print(f"wrote {len(rows)} results to {sys.argv[2]}")


if __name__ == "__main__":
    main()
