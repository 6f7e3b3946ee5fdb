#!/usr/bin/env python3
"""tipc-run's alignment diff against numpy and against a plain read, as ratios in one run.

Two reprod_log result files (np.save of {"logits": float32 array}) of SIZE MiB each
(default 512) are compared three ways, each run REPEAT times (median kept), page cache warm:

  1. numpy: np.load(allow_pickle=True) of both, then np.abs(a - b) and its min, max, mean
     (what reprod_log's ReprodDiffHelper does);
  2. tipc-run diff A B --method all;
  3. a plain sequential read of both files (cat A B > /dev/null).

tipc-run's memory is sampled from /proc every 2 ms while it runs: its private (anonymous)
resident memory, and its total RSS, which also counts the page-cache pages of the two
memory-mapped inputs (shared with every other reader of the files, and reclaimable).

Usage: bench/align_bench.py [--build DIR] [--size-mib N] [--repeat N] [--workdir DIR]
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PYTHON = "/usr/bin/python3"

MAKE_FILES = """
import sys, numpy as np
n = int(sys.argv[1]) * 1024 * 1024 // 4
rng = np.random.default_rng(0)
a = rng.standard_normal(n, dtype=np.float32)
b = a + rng.standard_normal(n, dtype=np.float32) * np.float32(1e-6)
np.save(sys.argv[2], {"logits": a})
np.save(sys.argv[3], {"logits": b})
"""

NUMPY_STATS = """
import sys, numpy as np
a = np.load(sys.argv[1], allow_pickle=True).tolist()["logits"]
b = np.load(sys.argv[2], allow_pickle=True).tolist()["logits"]
d = np.abs(a - b)
print(repr(float(d.min())), repr(float(d.max())), repr(float(d.mean())))
"""


def status_kib(pid, field):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def timed(argv, sample_memory=False):
    """Wall seconds, stdout, and (peak anonymous KiB, peak total RSS KiB) if sampled."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    peak_anon = peak_rss = 0
    while sample_memory and proc.poll() is None:
        peak_anon = max(peak_anon, status_kib(proc.pid, "RssAnon"))
        peak_rss = max(peak_rss, status_kib(proc.pid, "VmHWM"))
        time.sleep(0.002)
    out, _ = proc.communicate()
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"{argv[0]} failed with exit code {proc.returncode}")
    return elapsed, out, (peak_anon, peak_rss)


def median_of(repeat, argv, sample_memory=False):
    runs = [timed(argv, sample_memory) for _ in range(repeat)]
    return statistics.median(r[0] for r in runs), runs[-1][1], max(r[2] for r in runs)


def size_arguments(parser, size_mib):
    """The options align_bench.py and padiff_bench.py share."""
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--size-mib", type=int, default=size_mib)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--workdir", default=None, help="where the input files go (default: a temp dir)")
    return parser


def main():
    args = size_arguments(argparse.ArgumentParser(), size_mib=512).parse_args()
    tipc = os.path.join(os.path.abspath(args.build), "tipc-run")
    with tempfile.TemporaryDirectory(dir=args.workdir) as work:
        a, b = os.path.join(work, "a.npy"), os.path.join(work, "b.npy")
        subprocess.run([PYTHON, "-c", MAKE_FILES, str(args.size_mib), a, b], check=True)
        timed(["sh", "-c", f"cat '{a}' '{b}' > /dev/null"])  # warm the page cache
        read_s, _, _ = median_of(args.repeat, ["sh", "-c", f"cat '{a}' '{b}' > /dev/null"])
        numpy_s, numpy_out, _ = median_of(args.repeat, [PYTHON, "-c", NUMPY_STATS, a, b])
        tipc_s, tipc_out, (anon_kib, rss_kib) = median_of(
            args.repeat, [tipc, "diff", a, b, "--method", "all", "--threshold", "1"], sample_memory=True)
    print(f"files: 2 x {args.size_mib} MiB float32, median of {args.repeat} runs, page cache warm")
    print(f"numpy load + np.abs(a - b) min/max/mean: {numpy_s:.3f} s   ({numpy_out.strip()})")
    print(f"tipc-run diff --method all:               {tipc_s:.3f} s")
    print(f"plain sequential read (cat):              {read_s:.3f} s")
    print(f"speed-up over numpy:                      {numpy_s / tipc_s:.1f}x   (goal >= 20)")
    print(f"tipc-run / sequential read:               {tipc_s / read_s:.2f}    (goal <= 1.5)")
    print(f"tipc-run private (anonymous) peak RSS:    {anon_kib / 1024:.1f} MiB (goal < 100)")
    print(f"tipc-run total peak RSS incl. mapped inputs: {rss_kib / 1024:.1f} MiB")
    print("tipc-run's report:")
    print("".join("  " + line + "\n" for line in tipc_out.splitlines() if "diff" in line), end="")


if __name__ == "__main__":
    main()
