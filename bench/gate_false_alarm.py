#!/usr/bin/env python3
"""How often the gate cries wolf on the demo, and whether it hears a real slowdown.

Each round runs the demo's benchmark_train (the CPU train stage alone: `--only=train -k
gpus_-1`, one process, 2 epochs of 12 steps each, 22 ips samples after warm-up) on three
branches of a scratch git repository (one commit each, the same files), into one run
history, R times each, interleaved (A B C A B C ...):

  A  the demo as it is
  B  the demo as it is                                  compare A B: a false alarm unless
                                                        every gated figure is UNCHANGED
  C  TIPC_DEMO_SLOWDOWN=F (every step takes 1 + F       compare A C: detected when ips is
     times its compute time: ips falls by F / (1 + F))  REGRESSED

The comparisons are `tipc-run compare A B --runs R --json` with the default gates (the
scratch repository's test_tipc/tipc-run.yaml is the demo's): with R = 1 one run against one,
tested over their steps; with R > 1 each side's last R runs pooled, tested over the runs'
medians. It prints each comparison's ips change and p-value, then the counts: false alarms
k of n (and which figures raised them), detections k of n, the range of the p-values,
seconds per run, and the load average before and after.

Usage: bench/gate_false_alarm.py [--rounds 20] [--runs 1] [--slowdown 0.2] [--build build]
Takes about 3 x R x 2 s per round on 2 idle cores. Exit code 0; the figures are the result.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEMO_PARTS = ["models/alexnet", "lite_data/lite_data.tar", "test_tipc/tipc-run.yaml", "test_tipc/configs/alexnet.txt"]


def parse_args():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rounds", type=int, default=20)
    p.add_argument("--runs", type=int, default=1, help="runs per side, interleaved and pooled")
    p.add_argument("--slowdown", type=float, default=0.2)
    p.add_argument("--build", default=os.path.join(ROOT, "build"))
    p.add_argument("--keep", help="copy the run history to this file at the end")
    return p.parse_args()


def scratch_repo(where):
    for part in DEMO_PARTS:
        source, target = os.path.join(ROOT, part), os.path.join(where, part)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        (shutil.copytree if os.path.isdir(source) else shutil.copy)(source, target)
    shutil.rmtree(os.path.join(where, "models/alexnet/__pycache__"), ignore_errors=True)
    shutil.rmtree(os.path.join(where, "models/alexnet/cpp/build"), ignore_errors=True)


def git(repo, *words):
    subprocess.run(["git", "-c", "user.name=bench", "-c", "user.email=bench@localhost", *words], cwd=repo, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def make_branches(repo):
    """Branches A, B and C, each at a commit of its own with the demo's files."""
    git(repo, "init", "-q", "-b", "A")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "demo")
    for branch in ("B", "C"):
        git(repo, "checkout", "-q", "-b", branch)
        git(repo, "commit", "-q", "--allow-empty", "-m", branch)


def train_run(tipc, repo, history, branch, env):
    """One run of the train stage on `branch`; its seconds (wall, tipc-run's whole run)."""
    git(repo, "checkout", "-q", branch)
    start = time.perf_counter()
    subprocess.run([tipc, "test_tipc/configs/alexnet.txt", "benchmark_train", "--gpus", "none", "--only=train",
                    "-k", "gpus_-1", "--history", history, "-q"], cwd=repo, env={**os.environ, **env}, check=True,
                   stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def compare(tipc, repo, history, base, new, runs):
    """The gated figures of `tipc-run compare base new --runs R` as {name: figure}, and its exit code."""
    out = os.path.join(repo, "compare.json")
    code = subprocess.run([tipc, "compare", base, new, "--runs", str(runs), "--history", history, "--json", out],
                          cwd=repo, stdout=subprocess.DEVNULL).returncode
    with open(out) as f:
        report = json.load(f)
    return {figure["name"]: figure for stage in report["stages"] for figure in stage["figures"]}, code


def ips_line(figure):
    p = figure["p_value"]
    return f"ips {figure['relative_change']:+7.2%} p={p:.3g} {figure['class']}" if p is not None else figure["why"]


def main():
    args = parse_args()
    tipc = os.path.join(os.path.abspath(args.build), "tipc-run")
    load_before = os.getloadavg()
    alarms, detections, seconds = [], [], {"as is": [], "slowed": []}
    p_same, p_slow = [], []
    with tempfile.TemporaryDirectory(prefix="gate-false-alarm-") as repo:
        scratch_repo(repo)
        make_branches(repo)
        tipc = shutil.copy(tipc, os.path.join(repo, ".tipc-run"))  # a rebuild meanwhile changes nothing
        history = os.path.join(repo, "history.sqlite")
        slowed = {"TIPC_DEMO_SLOWDOWN": str(args.slowdown)}
        for round_ in range(args.rounds):
            for _ in range(args.runs):
                for branch in ("A", "B", "C"):
                    took = train_run(tipc, repo, history, branch, slowed if branch == "C" else {})
                    seconds["slowed" if branch == "C" else "as is"].append(took)
            same, same_code = compare(tipc, repo, history, "A", "B", args.runs)
            slow, _ = compare(tipc, repo, history, "A", "C", args.runs)
            changed = sorted(f"{name} {f['class']}" for name, f in same.items() if f["class"] != "UNCHANGED")
            alarms.append(changed or (["exit %d" % same_code] if same_code else []))
            detections.append(slow["ips"]["class"] == "REGRESSED")
            p_same.append(same["ips"]["p_value"])
            p_slow.append(slow["ips"]["p_value"])
            print(f"round {round_ + 1:2} (load {os.getloadavg()[0]:.1f}): A vs B {ips_line(same['ips'])}; "
                  f"{', '.join(alarms[-1]) or 'all UNCHANGED'} | A vs slowed {ips_line(slow['ips'])}", flush=True)
            if args.keep:
                shutil.copy(history, args.keep)
    summarise(args, alarms, detections, p_same, p_slow, seconds, load_before)


def summarise(args, alarms, detections, p_same, p_slow, seconds, load_before):
    n = args.rounds
    raised = {}
    for alarm in alarms:
        for what in alarm:
            raised[what] = raised.get(what, 0) + 1
    print(f"false alarms (A vs B not all UNCHANGED): {sum(1 for a in alarms if a)} of {n}"
          f"{' (' + ', '.join(f'{k}: {v}' for k, v in sorted(raised.items())) + ')' if raised else ''}")
    how = "pooled, tested over the runs' medians" if args.runs > 1 else "tested over steps"
    print(f"runs per side: {args.runs} ({how})")
    print(f"slowdown {args.slowdown:g} (ips -{args.slowdown / (1 + args.slowdown):.1%} expected) detected: "
          f"{sum(detections)} of {n}")
    for label, values in (("A vs B", p_same), ("A vs slowed", p_slow)):
        known = [p for p in values if p is not None]
        if known:
            print(f"ips p-values, {label}: {min(known):.3g} to {max(known):.3g} ({len(known)} tested)")
    for label, values in seconds.items():
        median = sorted(values)[len(values) // 2]
        print(f"seconds per run, {label}: {min(values):.1f} to {max(values):.1f} (median {median:.1f})")
    print("load average before: %.2f %.2f %.2f, after: %.2f %.2f %.2f" % (*load_before, *os.getloadavg()))


if __name__ == "__main__":
    sys.exit(main())
