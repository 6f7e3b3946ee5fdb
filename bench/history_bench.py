#!/usr/bin/env python3
"""Speed of the run history (issue 27 item 7), as ratios where there is something to compare with.

The stand-in repositories' configs (tipc_config.py) have a two-line shell script as their
`python:` that prints the file its first word names (`exec cat`), so a stage is two cheap
execs and its log is realistic: a train's is STEPS (100) benchmark lines in PaddleOCR's
form (`epoch: [1/1], global_step: N, ..., ips: X samples/s`), so it records ips (98
per-step samples after the 2 warm-up steps), batch_cost_s, reader_cost_s, train:loss and
train:lr; an eval's is `[eval] images: 32, top1: X, loss: Y`. Each config plans 5 stages:
train, eval, export and 2 CPU inferences.

  (a) Recording a 50-stage run (10 configs, one suite run, -j 1 --gpus none, in a git
      repository so the run carries a commit; the scratch repositories are in Python's
      temp dir): tipc-run's CPU with the history on, and with --no-history, REPEATS runs
      of each, interleaved. wait4's rusage of tipc-run is its own
      CPU plus that of every child it reaped (the stages, git), so
      * the recording's cost = median(CPU with history) - median(CPU with --no-history): the
        stages are the same processes on both sides and cancel out, up to their noise;
      * tipc-run's own CPU = wait4's CPU - its reaped children's (cutime + cstime of
        /proc/PID/stat, read while tipc-run is a zombie: waitid(WNOWAIT) first, wait4 after;
        clock ticks of 10 ms, hence the median over the runs);
      * directly, where perf is installed (the gated figure then): PERF_RUNS more runs with
        the history under `perf record` (cpu-clock at 20 kHz, user and kernel, DWARF call
        chains); the samples of the tipc-run process whose call chain holds
        cli::record_and_compare (opening the history, the transaction, closing it), over all
        samples of that process. The difference above is a cross-check only: on a shared
        machine the stages' and git's CPU varies by more than the recording costs.
      goal: the recording's cost / tipc-run's own CPU <= 5 %.
  (b) `tipc-run compare` of two 1,000-stage runs (200 configs, two real suite runs, the
      second with other ips samples so that every train's ips gets its Mann-Whitney test),
      given as output directories (each run's report.json read back, as it is while no
      journal under the directory is newer) and as run ids of one history: median
      wall time of REPEATS; goal < 0.2 s.
  (c) `tipc-run history` and `tipc-run history ips` over 10,000 recorded runs: the history
      of (a), each further run a copy of its first recorded run's rows (runs, stages,
      figures, through SQL's INSERT ... SELECT, as docs/history.md's schema has them) with
      its own start time and commit; median wall time of REPEATS (warm page cache); goal
      < 0.5 s.
  (d) The history's size per run: growth of the file over (a)'s recorded runs (page count x
      page size after a WAL checkpoint), per run and per stage, and the 10,000-run file's
      size / 10,000.

Exit code 1 if a goal is missed. Takes about a minute on 2 cores with the defaults.

Usage: bench/history_bench.py [BUILD_DIR] [--repeats N]   (BUILD_DIR default: build; N: 15)
"""
import argparse
import os
import random
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time

from scheduler_bench import print_rows
from tipc_config import SETTINGS, config

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PARSER = argparse.ArgumentParser(description="Speed of the run history (issue 27 item 7)")
PARSER.add_argument("build", nargs="?", default=os.path.join(ROOT, "build"), help="the build folder (default: build)")
PARSER.add_argument("--repeats", type=int, default=15, help="runs per timed command (default 15)")
OPTIONS = PARSER.parse_args()
BUILD = os.path.abspath(OPTIONS.build)
REPEATS = OPTIONS.repeats
TIPC = os.path.join(BUILD, "tipc-run")
TICK = os.sysconf("SC_CLK_TCK")

STAGES_PER_CONFIG = 5
SMALL_CONFIGS = 10    # 50 stages
LARGE_CONFIGS = 200   # 1,000 stages
HISTORY_RUNS = 10_000
STEPS = 100
GOAL_RECORD_SHARE = 0.05
GOAL_COMPARE_S = 0.2
GOAL_HISTORY_S = 0.5
PERF_RUNS = 5
PERF_HZ = 20000
HISTORY = "test_tipc/output/.tipc-history.sqlite"


def train_log(rng, ips):
    return "".join(f"[2026/11/27 10:00:00] ppocr INFO: epoch: [1/1], global_step: {i}, lr: 0.001000, loss: {2.0 - i / STEPS:.4f}, "
                   f"avg_reader_cost: {rng.uniform(0.001, 0.002):.5f} s, avg_batch_cost: {rng.uniform(0.02, 0.03):.5f} s, "
                   f"avg_samples: 8.0, ips: {rng.gauss(ips, ips * 0.02):.5f} samples/s, eta: 0:00:10\n"
                   for i in range(1, STEPS + 1))


def write_repo(repo, configs, seed, ips_shift=1.0):
    """A stand-in repository of `configs` configs (5 stages each), committed to git. Its
    `python:` is a shell script that prints the file its first word names (exec cat): a
    train prints STEPS benchmark lines in PaddleOCR's form, an eval `top1: X, loss: Y`."""
    rng = random.Random(seed)
    logs = os.path.join(repo, "stand-in")
    os.makedirs(os.path.join(repo, "test_tipc/configs"), exist_ok=True)
    os.makedirs(logs)
    python = os.path.join(repo, "python.sh")
    with open(python, "w") as f:
        f.write(f'#!/bin/sh\nexec cat "{logs}/$1"\n')
    os.chmod(python, 0o755)
    with open(os.path.join(repo, "test_tipc/tipc-run.yaml"), "w") as f:
        f.write(SETTINGS)
    for name in ("export", "infer"):
        with open(os.path.join(logs, name), "w") as f:
            f.write(f"{name} done\n")
    for i in range(configs):
        model = f"m{i:03}"
        with open(os.path.join(logs, f"train_{model}"), "w") as f:
            f.write(train_log(rng, (100.0 + 5 * (i % 40)) * ips_shift))
        with open(os.path.join(logs, f"eval_{model}"), "w") as f:
            f.write(f"[eval] images: 32, top1: {0.9 + rng.uniform(-0.005, 0.005):.4f}, loss: 0.3\n")
        with open(os.path.join(repo, f"test_tipc/configs/{model}.txt"), "w") as f:
            f.write(config(python, f"train_{model}", model=model, eval_=f"eval_{model}", batches="1|2"))
    git = ["git", "-C", repo, "-c", "user.name=bench", "-c", "user.email=bench@example.invalid"]
    subprocess.run(git + ["init", "-q", "-b", "main"], check=True)
    subprocess.run(git + ["add", "-A"], check=True)
    subprocess.run(git + ["commit", "-q", "-m", "stand-in"], check=True)


def run_measured(argv, cwd):
    """Run argv to its end: wall s, exit code, output, CPU s by wait4 (tipc-run and its reaped
    children), the reaped children's CPU s (cutime + cstime, read from the zombie)."""
    out = tempfile.TemporaryFile()
    t0 = time.monotonic()
    proc = subprocess.Popen(argv, cwd=cwd, stdout=out, stderr=subprocess.STDOUT)
    os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOWAIT)
    wall = time.monotonic() - t0
    with open(f"/proc/{proc.pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    children = (int(fields[13]) + int(fields[14])) / TICK  # cutime, cstime (fields 16, 17)
    _, status, ru = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    out.seek(0)
    return wall, proc.returncode, out.read().decode(errors="replace"), ru.ru_utime + ru.ru_stime, children


def checked(what, result, stages=None):
    wall, code, output, cpu, children = result
    if code != 0 or (stages is not None and f"tipc-run: {stages} passed," not in output):
        sys.exit(f"{what}: tipc-run exited {code}, expected {stages} passed stages:\n{output[-3000:]}")
    return result


def db_bytes(path):
    """The history's size in pages after moving the WAL into the file."""
    db = sqlite3.connect(path)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    size = db.execute("PRAGMA page_count").fetchone()[0] * db.execute("PRAGMA page_size").fetchone()[0]
    db.close()
    return size


def perf_recording_share(repo, argv, runs):
    """The recording's share of tipc-run's own CPU by `perf record` (cpu-clock, user and
    kernel, DWARF call chains): samples of the tipc-run process (the pid with the most
    samples; a forked stage's samples before its exec have another pid) whose call chain
    holds record_and_compare, over its samples; None without perf."""
    if not shutil.which("perf"):
        return None
    data = os.path.join(repo, "perf.data")
    recorded = total = 0
    for _ in range(runs):
        p = subprocess.run(["perf", "record", "-q", "-o", data, "-F", str(PERF_HZ), "--call-graph", "dwarf,32768", "--",
                            *argv], cwd=repo, capture_output=True, text=True)
        if p.returncode != 0:
            return None
        script = subprocess.run(["perf", "script", "-i", data, "--comm", "tipc-run", "-F", "pid,ip,sym"], cwd=repo,
                                capture_output=True, text=True).stdout
        by_pid, in_recording = {}, {}
        for sample in script.split("\n\n"):
            lines = sample.strip().splitlines()
            if not lines:
                continue
            pid = lines[0].split()[0]
            by_pid[pid] = by_pid.get(pid, 0) + 1
            in_recording[pid] = in_recording.get(pid, 0) + any("record_and_compare" in l for l in lines[1:])
        main_pid = max(by_pid, key=by_pid.get)
        recorded += in_recording[main_pid]
        total += by_pid[main_pid]
    os.unlink(data)
    return recorded, total


def recording(repo):
    """(a) and the real half of (d)."""
    stages = SMALL_CONFIGS * STAGES_PER_CONFIG
    write_repo(repo, SMALL_CONFIGS, seed=1)
    argv = [TIPC, "test_tipc/configs", "lite_train_lite_infer", "-j", "1", "--gpus", "none"]
    checked("warm-up run", run_measured(argv + ["--no-history"], repo), stages)
    on, off, own_on, own_off, sizes = [], [], [], [], []
    for _ in range(REPEATS):
        _, _, _, cpu, children = checked("run with --no-history", run_measured(argv + ["--no-history"], repo), stages)
        off.append(cpu)
        own_off.append(cpu - children)
        _, _, output, cpu, children = checked("run with the history", run_measured(argv, repo), stages)
        if "recorded as run" not in output:
            sys.exit(f"the run was not recorded:\n{output[-3000:]}")
        on.append(cpu)
        own_on.append(cpu - children)
        sizes.append(db_bytes(os.path.join(repo, HISTORY)))
    perf = perf_recording_share(repo, argv, PERF_RUNS)
    return {"stages": stages, "on": on, "off": off, "own_on": own_on, "own_off": own_off, "sizes": sizes, "perf": perf}


def comparing(tmp):
    """(b): two 1,000-stage runs, as output directories and as run ids of one history."""
    stages = LARGE_CONFIGS * STAGES_PER_CONFIG
    history = os.path.join(tmp, "large.sqlite")
    repos = [os.path.join(tmp, "base"), os.path.join(tmp, "new")]
    run_wall = []
    for seed, repo in enumerate(repos):
        write_repo(repo, LARGE_CONFIGS, seed=10 + seed, ips_shift=1.0 + 0.03 * seed)
        wall, *_ = checked(f"1,000-stage run {seed + 1}", run_measured(
            [TIPC, "test_tipc/configs", "lite_train_lite_infer", "-j", "1", "--gpus", "none", "--history", history],
            repo), stages)
        run_wall.append(wall)
    outputs = [os.path.join(r, "test_tipc/output") for r in repos]
    timed = {}
    for label, refs in (("output directories", outputs), ("run ids", ["1", "2"])):
        walls, cpus, last = [], [], None
        for _ in range(REPEATS):
            wall, code, output, cpu, _ = run_measured([TIPC, "compare", *refs, "--history", history], repos[0])
            if code not in (0, 6):
                sys.exit(f"tipc-run compare {' '.join(refs)} exited {code}:\n{output[-3000:]}")
            walls.append(wall)
            cpus.append(cpu)
            last = output
        timed[label] = (statistics.median(walls), statistics.median(cpus), last.splitlines()[0])
    return {"stages": stages, "run_wall": run_wall, "timed": timed}


def fill(path, runs):
    """(c)'s history: copies of the file's first run until it holds `runs` runs."""
    db = sqlite3.connect(path)
    have = db.execute("SELECT count(*) FROM runs").fetchone()[0]
    template = db.execute("SELECT min(id) FROM runs").fetchone()[0]
    run_columns = "recorded, started, finished, verdict, tool_version, commit_hash, branch, dirty, repo_root, output_dir, environment"
    stage_columns = "position, config, mode, stage, kind, result, seconds, attempts"
    rng = random.Random(3)
    db.execute("BEGIN")
    for n in range(have, runs):
        commit = "%040x" % rng.getrandbits(160)
        new = db.execute(f"INSERT INTO runs({run_columns}) SELECT recorded + ?2, started + ?2, finished + ?2, verdict, "
                         f"tool_version, ?3, branch, dirty, repo_root, output_dir, environment FROM runs WHERE id = ?1",
                         (template, 3600.0 * n, commit)).lastrowid
        db.execute(f"INSERT INTO stages(run, {stage_columns}) SELECT ?2, {stage_columns} FROM stages WHERE run = ?1 "
                   "ORDER BY position", (template, new))
        db.execute("INSERT INTO figures(stage, position, name, unit, higher_is_better, gated, median, samples) "
                   "SELECT s2.id, f.position, f.name, f.unit, f.higher_is_better, f.gated, f.median, f.samples "
                   "FROM figures f JOIN stages s ON f.stage = s.id JOIN stages s2 ON s2.run = ?2 AND s2.position = s.position "
                   "WHERE s.run = ?1", (template, new))
    db.execute("COMMIT")
    counts = {t: db.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in ("runs", "stages", "figures")}
    db.close()
    return counts


def listing(repo):
    """(c) and the rest of (d), on a copy of (a)'s history."""
    path = os.path.join(repo, "test_tipc/output/large-history.sqlite")
    src = sqlite3.connect(os.path.join(repo, HISTORY))
    dst = sqlite3.connect(path)
    src.backup(dst)
    src.close()
    dst.close()
    t0 = time.monotonic()
    counts = fill(path, HISTORY_RUNS)
    fill_s = time.monotonic() - t0
    size = db_bytes(path)
    timed = {}
    for label, args in (("history", []), ("history ips", ["ips"]), ("history ips --runs 1000", ["ips", "--runs", "1000"]),
                        ("history eval:top1 --stage '*/eval'", ["eval:top1", "--stage", "*/eval"])):
        walls, cpus, lines = [], [], 0
        for _ in range(REPEATS):
            wall, code, output, cpu, _ = run_measured([TIPC, "history", *args, "--history", path], repo)
            if code != 0:
                sys.exit(f"tipc-run history {' '.join(args)} exited {code}:\n{output[-3000:]}")
            walls.append(wall)
            cpus.append(cpu)
            lines = len(output.splitlines()) - 1
        timed[label] = (statistics.median(walls), statistics.median(cpus), lines)
    return {"counts": counts, "fill_s": fill_s, "size": size, "timed": timed}


def goal(ok, text):
    return text + (" ok" if ok else " MISSED")


def main():
    if not os.path.exists(TIPC):
        sys.exit(f"build tipc-run first ({BUILD})")
    print(f"tipc-run: {TIPC}   repeats: {REPEATS}   load average at start: "
          + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    with tempfile.TemporaryDirectory() as tmp:
        a = recording(os.path.join(tmp, "small"))
        c = listing(os.path.join(tmp, "small"))
    with tempfile.TemporaryDirectory() as tmp:
        b = comparing(tmp)
    med = statistics.median
    cost = med(a["on"]) - med(a["off"])
    own = med(a["own_on"])
    share = cost / own
    perf_share = a["perf"][0] / a["perf"][1] if a["perf"] else None
    gated_share = share if perf_share is None else perf_share
    growth = [later - earlier for earlier, later in zip(a["sizes"], a["sizes"][1:])]
    per_run = (a["sizes"][-1] - a["sizes"][0]) / (len(a["sizes"]) - 1)
    n = a["stages"]
    rows = [
        (f"(a) {n}-stage run, -j 1: CPU by wait4 (tipc-run + stages + git), median of {REPEATS}: --no-history",
         f"{1000 * med(a['off']):.1f} ms", ""),
        ("    with the history", f"{1000 * med(a['on']):.1f} ms", ""),
        ("    recording's cost (difference of the medians)", f"{1000 * cost:.1f} ms", ""),
        ("    tipc-run's own CPU (wait4 - reaped children), median: --no-history / with the history",
         f"{1000 * med(a['own_off']):.0f} / {1000 * own:.0f} ms", ""),
        ("    recording's cost / tipc-run's own CPU with the history (difference of medians)", f"{100 * share:.1f} %",
         "" if perf_share is not None else goal(share <= GOAL_RECORD_SHARE, f"<= {100 * GOAL_RECORD_SHARE:g} %")),
        ("    spread: CPU with / without the history, min..max",
         f"{1000 * min(a['on']):.0f}..{1000 * max(a['on']):.0f} / {1000 * min(a['off']):.0f}..{1000 * max(a['off']):.0f} ms", ""),
    ]
    if perf_share is not None:
        recorded, total = a["perf"]
        rows.append((f"    by perf, {PERF_RUNS} runs: tipc-run's samples in record_and_compare / all its samples",
                     f"{recorded} / {total} = {100 * perf_share:.2f} % ({1000 * recorded / PERF_HZ / PERF_RUNS:.1f} of "
                     f"{1000 * total / PERF_HZ / PERF_RUNS:.0f} ms a run)",
                     goal(gated_share <= GOAL_RECORD_SHARE, f"<= {100 * GOAL_RECORD_SHARE:g} %")))
    for label, (wall, cpu, first) in b["timed"].items():
        rows.append((f"(b) compare two {b['stages']}-stage runs, {label}: wall (CPU), median of {REPEATS}",
                     f"{wall:.3f} s ({cpu:.3f} s)", goal(wall < GOAL_COMPARE_S, f"< {GOAL_COMPARE_S:g} s")))
        rows.append(("    its first line", first[:90], ""))
    rows.append(("    (the 1,000-stage runs themselves, wall)", " / ".join(f"{w:.2f} s" for w in b["run_wall"]), ""))
    k = c["counts"]
    rows.append((f"(c) history of {k['runs']} runs ({k['stages']} stages, {k['figures']} figures; filled in "
                 f"{c['fill_s']:.1f} s)", "", ""))
    for label, (wall, cpu, lines) in c["timed"].items():
        gated = label in ("history", "history ips")
        rows.append((f"    tipc-run {label} ({lines} lines): wall (CPU), median of {REPEATS}", f"{wall:.3f} s ({cpu:.3f} s)",
                     goal(wall < GOAL_HISTORY_S, f"< {GOAL_HISTORY_S:g} s") if gated else ""))
    rows += [
        (f"(d) size per recorded {n}-stage run: file growth over {len(growth)} real recordings (min..max)",
         f"{per_run / 1024:.1f} KiB ({min(growth)}..{max(growth)} B)", ""),
        ("    per stage", f"{per_run / n:.0f} B", ""),
        (f"    the {k['runs']}-run file: size / runs, / stages", f"{c['size'] / k['runs'] / 1024:.1f} KiB, "
         f"{c['size'] / k['stages']:.0f} B ({c['size'] / 2**20:.1f} MiB)", ""),
    ]
    print_rows(rows)


if __name__ == "__main__":
    main()
