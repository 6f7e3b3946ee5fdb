#!/usr/bin/python3
"""Writes a TIPC ground-truth file (`<image path>\t<result JSON>` per line, spec §5.2 of the
alignment-diff spec) from the `infer result` lines of an infer.py log.

--classes keeps only the images of those classes (their folder names): the labels check of
the train modes holds only the classes whose labels a lite-trained model gets right on every
CPU measured (models/alexnet/README.md).

Usage: models/alexnet/make_ground_truth.py INFER_LOG OUTPUT [--classes NAME,NAME...]"""
import argparse
import os
import re
import sys

LINE = re.compile(r"^infer result \([^)]*\): (\S+)\t(\[.*\])$")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("infer_log")
    p.add_argument("output")
    p.add_argument("--classes", help="comma-separated class folder names to keep (default: all)")
    args = p.parse_args()
    rows = [m.groups() for m in map(LINE.match, open(args.infer_log).read().splitlines()) if m]
    if args.classes:
        keep = set(args.classes.split(","))
        rows = [(path, result) for path, result in rows if os.path.basename(os.path.dirname(path)) in keep]
    if not rows:
        sys.exit(f"error: no infer result lines in {args.infer_log}" + (f" of the classes {args.classes}" if args.classes else ""))
    with open(args.output, "w") as out:
        for path, result in rows:
            out.write(f"{path}\t{result}\n")
    print(f"wrote {len(rows)} results to {args.output}")


if __name__ == "__main__":
    main()
