#!/usr/bin/env python3
"""tipc-run padiff on one large float32 weight against a plain read, as ratios in one run.

Three PaDiff dumps (step_0/rank_0/params.json and one tensor file each) hold a Linear
weight of SIZE MiB of float32 (default 256), COLS columns wide (default 4096), the same
values in all three:

  a       Paddle's, [in, out] in C order;
  same    Paddle's again, a copy of a's file: both sides in the same layout;
  torch   torch's, stored [out, in]: tipc-run reads it through PaDiff's transpose, a view
          in Fortran order, so A is walked in memory order and B across it.

`tipc-run padiff a B --mode M` runs for B in (same, torch) and M in (mean, abs_mean,
strict), REPEAT times each (median kept), page cache warm, and is compared with a plain
sequential read of the same two tensor files (cat A B > /dev/null): the ratio of the
medians, wall and CPU (user + system, of the process and its threads; on a shared
machine CPU is the steadier figure). Every run must pass (exit 0): the values are equal.
For reference, numpy on the same files: np.load of both and np.mean of each (PaDiff's
mean mode), its wall time as a process and the time of the two means alone.

No goal is set: the ratios are for information (bench/RESULTS.md, "PaDiff comparison", says
where the time goes). Exits 1 only when a run fails.

Usage: bench/padiff_bench.py [--build DIR] [--size-mib N] [--cols N] [--repeat N] [--workdir DIR]
"""
import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile

from align_bench import PYTHON, size_arguments, timed

MODES = ("mean", "abs_mean", "strict")
LAYOUTS = {"same": "A's layout", "torch": "torch's [out, in], read transposed"}

MAKE_DUMPS = """
import json, os, sys, numpy as np
work, mib, cols = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rows = mib * 1024 * 1024 // 4 // cols
weight = np.random.default_rng(0).standard_normal((rows, cols), dtype=np.float32) * np.float32(0.02)

def dump(name, framework, root, tensor):
    rank = os.path.join(work, name, "step_0", "rank_0")
    os.makedirs(os.path.join(rank, "tensors"))
    np.save(os.path.join(rank, "tensors", "tensor_0.npy"), tensor)
    def node(layer, route, weights, children=()):
        return {"name": layer, "route": route, "repr": layer + "()", "available": True,
                "weights": weights, "grads": {}, "children": list(children)}
    fc = node("Linear", root + ".fc", {"weight": "tensors/tensor_0.npy"})
    with open(os.path.join(rank, "params.json"), "w") as f:
        json.dump({"model_name": root, "framework": framework, "tree": node(root, root, {}, [fc])}, f)

dump("a", "paddle", "Layer", weight)
dump("same", "paddle", "Layer", weight)
dump("torch", "torch", "Module", np.ascontiguousarray(weight.T))
print(rows, cols)
"""

# PaDiff's mean mode in numpy: the arrays as loaded, the means in memory order (float32 sums).
NUMPY_MEANS = """
import sys, time, numpy as np
a, b = np.load(sys.argv[1]), np.load(sys.argv[2])
start = time.perf_counter()
ma, mb = np.mean(a), np.mean(b)
print(time.perf_counter() - start, repr(float(ma)), repr(float(mb)), np.allclose(ma, mb, rtol=1e-7, atol=0))
"""


def tensor_file(work, name):
    return os.path.join(work, name, "step_0", "rank_0", "tensors", "tensor_0.npy")


def children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def runs(repeat, argv, sample_memory=False):
    """Median wall and CPU seconds, the last run's stdout, the peak private RSS in KiB."""
    walls, cpus, anon = [], [], 0
    for _ in range(repeat):
        cpu_before = children_cpu()
        wall, out, (peak_anon, _) = timed(argv, sample_memory)
        cpus.append(children_cpu() - cpu_before)
        walls.append(wall)
        anon = max(anon, peak_anon)
    return statistics.median(walls), statistics.median(cpus), out, anon


def numpy_reference(repeat, a, b):
    walls, means, out = [], [], ""
    for _ in range(repeat):
        wall, out, _ = timed([PYTHON, "-c", NUMPY_MEANS, a, b])
        walls.append(wall)
        means.append(float(out.split()[0]))
    mean_a, mean_b, verdict = out.split()[1:]
    return statistics.median(walls), statistics.median(means), mean_a, mean_b, verdict == "True"


def bench_layout(args, tipc, work, layout):
    a_file, b_file = tensor_file(work, "a"), tensor_file(work, layout)
    cat = ["sh", "-c", f"cat '{a_file}' '{b_file}' > /dev/null"]
    timed(cat)  # warm the page cache
    read_wall, read_cpu, _, _ = runs(args.repeat, cat)
    print(f"\nB = {layout} ({LAYOUTS[layout]}); plain sequential read of A and B (cat): {read_wall:.3f} s wall, "
          f"{read_cpu:.3f} s CPU")
    ratios = []
    for mode in MODES:
        argv = [tipc, "padiff", os.path.join(work, "a"), os.path.join(work, layout), "--mode", mode]
        wall, cpu, out, anon = runs(args.repeat, argv, sample_memory=True)
        if "PASS: no divergence" not in out:
            sys.exit(f"tipc-run padiff --mode {mode} on {layout} did not pass:\n{out}")
        ratios.append((wall / read_wall, cpu / read_cpu))
        print(f"  padiff --mode {mode:8}  {wall:.3f} s wall ({wall / read_wall:5.2f} x read), "
              f"{cpu:.3f} s CPU ({cpu / read_cpu:5.2f} x read), private peak RSS {anon / 1024:.1f} MiB")
    np_wall, np_means, mean_a, mean_b, same = numpy_reference(args.repeat, a_file, b_file)
    print(f"  numpy np.load + np.mean of both: {np_wall:.3f} s wall ({np_wall / read_wall:.2f} x read); "
          f"the two np.mean alone {np_means:.3f} s")
    print(f"  numpy's float32 means {mean_a} vs {mean_b}: PaDiff's rtol 1e-7 {'passes' if same else 'FAILS'}")
    return ratios


def main():
    parser = size_arguments(argparse.ArgumentParser(), size_mib=256)
    parser.add_argument("--cols", type=int, default=4096)
    args = parser.parse_args()
    tipc = os.path.join(os.path.abspath(args.build), "tipc-run")
    with tempfile.TemporaryDirectory(dir=args.workdir) as work:
        made = subprocess.run([PYTHON, "-c", MAKE_DUMPS, work, str(args.size_mib), str(args.cols)], check=True,
                              stdout=subprocess.PIPE, text=True)
        rows, cols = made.stdout.split()
        print(f"weight: float32 [{rows}, {cols}] ({args.size_mib} MiB) per side, median of {args.repeat} runs, "
              f"page cache warm; load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        ratios = [r for layout in LAYOUTS for r in bench_layout(args, tipc, work, layout)]
    print(f"\nload average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"slowest mode / sequential read: {max(r[0] for r in ratios):.2f} wall, "
          f"{max(r[1] for r in ratios):.2f} CPU")


if __name__ == "__main__":
    main()
