#!/usr/bin/env python3
"""Cost of planning by tracing the repository's own runner (src/trace/), as ratios measured in one run.

A scratch repository is laid out from the corpus (/work/shared/tipc-corpus or --corpus):
PaddleClas's test_tipc/*.sh, *.py and its first 100 *_train_infer_python.txt configs, at
their paths in the repository. Then

  (a) cold: tipc-run test_tipc/configs lite_train_lite_infer --dry-run --plan-from runner
      with TIPC_TRACE_CACHE an empty fresh directory, default -j (goal: <= 5 s on 2 cores),
      its wall without perf, its CPU from a second cold run under perf stat;
  (b) warm: the same again, the cache now filled;
  (a') cold again with TMPDIR set to Python's temp dir, where the scratch trees then go
       (tipc-run otherwise puts them on a tmpfs: src/trace/scratch_tree.cpp);
  (c) for orientation: --plan-from dialect --dialect paddleclas on the same configs;
  (d) cold again after adding 1,221 directories beside test_tipc/ (a repository the size of
      PaddleOCR's), which every trace shadows.

Each run's wall time and CPU, and the cold run's cost per trace. CPU is perf stat's
task-clock, which follows every descendant: wait4's rusage does not see the processes
inside bwrap's own PID namespace (its init reaps them), so without perf the figure is
tipc-run's and bwrap's only and says so. Each run must exit 0 and plan every config.
Where the cold run's CPU goes: a second cold run under `perf record`, its samples by
program (bash running the runner, the stand-ins, tee/cat/mkdir the runner starts, bwrap,
tipc-run itself: scratch trees, forks, planning), and small experiments timed on their
own: starting bwrap with tipc-run's options, starting bash, one stand-in call.

Then the makespan of a traced suite on fake GPUs: scheduler_bench.py's 40-config suite
(its code, imported), planned by tracing PaddleOCR's runner from the corpus with
--plan-from runner and run with tipc-fake-stage as --python on 8 fake GPUs, -j 32,
against its lower bound max(critical path, GPU-seconds / 8) from the traced plans' declared
durations (goal <= 1.10), first run and second run.

Exit code 1 if a goal is missed.

Usage: bench/trace_bench.py [BUILD_DIR] [--corpus DIR] [--configs N]   (default: build, 100)
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import scheduler_bench as sched  # noqa: E402  (its makespan suite and measuring code)
GOAL_COLD_S = 5.0  # issue 42
GOAL_RATIO = sched.GOAL_RATIO
GPUS = sched.GPUS
REPO = "PaddleClas"
DIALECT = "paddleclas"
MODE = "lite_train_lite_infer"


def build_repository(corpus, repo, count):
    """The runner's directory and the first `count` train_infer_python configs, as laid out upstream."""
    runners = os.path.join(corpus, "runners", REPO, "test_tipc")
    os.makedirs(os.path.join(repo, "test_tipc"))
    for name in sorted(os.listdir(runners)):
        if name.endswith((".sh", ".py")):
            shutil.copy(os.path.join(runners, name), os.path.join(repo, "test_tipc", name))
    configs_root = os.path.join(corpus, "configs", REPO)
    found = sorted(os.path.relpath(os.path.join(d, f), configs_root)
                   for d, _, files in os.walk(os.path.join(configs_root, "test_tipc/configs"))
                   for f in files if f.endswith("_train_infer_python.txt"))
    if len(found) < count:
        sys.exit(f"only {len(found)} train_infer_python configs of {REPO} in {configs_root}")
    os.makedirs(os.path.join(repo, "deploy"))  # the runner cds into it for the inference
    for relative in found[:count]:
        os.makedirs(os.path.dirname(os.path.join(repo, relative)), exist_ok=True)
        shutil.copy(os.path.join(configs_root, relative), os.path.join(repo, relative))
    return count


PERF = shutil.which("perf")
EXTRA_DIRECTORIES = (20, 10, 5)  # ppocr-like: 20 modules of 10 packages of 5 leaves


def add_directories(repo):
    """Directories a large repository has beside test_tipc/, which every trace shadows; how many were added."""
    added = 0
    for a in range(EXTRA_DIRECTORIES[0]):
        for b in range(EXTRA_DIRECTORIES[1]):
            for c in range(EXTRA_DIRECTORIES[2]):
                os.makedirs(os.path.join(repo, "ppocr", f"mod{a}", f"sub{b}", f"leaf{c}"))
                added += 1 + (c == 0) + (c == 0 and b == 0)
    return added + 1


def fs_type(path):
    """The file system type of path, from /proc/mounts (longest mount point that holds it)."""
    best, kind = "", "?"
    for line in open("/proc/mounts"):
        _, point, fstype = line.split()[:3]
        if os.path.join(os.path.realpath(path), "").startswith(os.path.join(point, "")) and len(point) >= len(best):
            best, kind = point, fstype
    return kind


def run_measured(argv, cwd, env=None, perf=True):
    """wall s, exit code, output, CPU s (perf's task-clock of the process tree, else wait4's rusage).

    perf stat's counters follow every fork, which makes each fork dearer (perf's own locks):
    a wall time that counts is measured with perf=False (CPU then is wait4's, tipc-run's own)."""
    counts = tempfile.NamedTemporaryFile(suffix=".perf")
    perf = perf and PERF
    if perf:
        argv = [PERF, "stat", "-x,", "-e", "task-clock", "-o", counts.name, "--"] + argv
    t0 = time.monotonic()
    out = tempfile.TemporaryFile()
    proc = subprocess.Popen(argv, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT)
    _, status, ru = os.wait4(proc.pid, 0)
    wall = time.monotonic() - t0
    out.seek(0)
    cpu = ru.ru_utime + ru.ru_stime
    if perf:
        cpu = next(float(l.split(",")[0]) / 1000 for l in open(counts.name) if ",task-clock," in l)
    return wall, os.waitstatus_to_exitcode(status), out.read().decode(errors="replace"), cpu


def cpu_by_program(tipc, repo, cache):
    """A cold run under perf record: the share of its CPU samples per program name."""
    data = os.path.join(cache, "perf.data")
    argv = [PERF, "record", "-q", "-F", "1000", "-o", data, "--", tipc, "test_tipc/configs", MODE, "--dry-run",
            "--plan-from", "runner"]
    subprocess.run(argv, cwd=repo, env=dict(os.environ, TIPC_TRACE_CACHE=cache), check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    report = subprocess.run([PERF, "report", "-i", data, "--sort", "comm", "--stdio"], check=True,
                            capture_output=True, text=True).stdout
    shares = [line.split() for line in report.splitlines() if line.strip() and not line.startswith("#")]
    return [(name, float(share.rstrip("%"))) for share, name in shares[:8]]


def planned_configs(output):
    """How many configs a --dry-run (text format) planned: one '# <model> <mode> (...): N stages' header each."""
    return sum(1 for line in output.splitlines() if line.startswith("# ") and f" {MODE} (" in line)


def plan_run(tipc, repo, plan_from, cache, perf=True, **env_extra):
    env = dict(os.environ, TIPC_TRACE_CACHE=cache, **env_extra)
    argv = [tipc, "test_tipc/configs", MODE, "--dry-run", "--plan-from", plan_from]
    if plan_from == "dialect":
        argv += ["--dialect", DIALECT]
    wall, code, out, cpu = run_measured(argv, repo, env, perf)
    if code != 0:
        problems = [line for line in out.splitlines() if "error" in line and "reported errors" not in line]
        sys.exit(f"--plan-from {plan_from} ({env_extra or 'default TMPDIR'}): tipc-run exited {code}:\n" + "\n".join(problems[:20]))
    return {"wall": wall, "cpu": cpu, "output": out}


def per_call(argv, n, cwd=None):
    """Mean wall and CPU s of n sequential runs of argv."""
    cpu = 0.0
    t0 = time.monotonic()
    for _ in range(n):
        proc = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, status, ru = os.wait4(proc.pid, 0)
        if os.waitstatus_to_exitcode(status) != 0:
            sys.exit(f"{argv} failed")
        cpu += ru.ru_utime + ru.ru_stime
    return (time.monotonic() - t0) / n, cpu / n


def breakdown(build, repo):
    """The pieces of one trace, each timed on its own (mean of 20 runs)."""
    bwrap = ["bwrap", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-net", "--unshare-pid",
             "--unshare-ipc", "--die-with-parent", "--bind", "/tmp", "/tmp", "--"]
    stand_in = os.path.join(build, "tipc-trace-stand-in")
    scratch = tempfile.mkdtemp()
    env_stand_in = ["env", f"TIPC_TRACE_CALLS={scratch}/calls", "TIPC_TRACE_EVAL=", stand_in, "train.py", "-o",
                    f"Global.output_dir={scratch}/test_tipc/output/x"]
    rows = [
        ("/bin/true", per_call(["/bin/true"], 20)),
        ("bwrap (tipc-run's options) + /bin/true", per_call(bwrap + ["/bin/true"], 20)),
        ("bash -c true", per_call(["bash", "-c", "true"], 20)),
        ("bash sourcing the runner's common_func.sh", per_call(["bash", "-c", "source test_tipc/common_func.sh"], 20,
                                                                cwd=repo)),
        ("env + stand-in call (records one call)", per_call(env_stand_in, 20)),
        ("env + /bin/true (the env share of the line above)", per_call(["env", "/bin/true"], 20)),
    ]
    shutil.rmtree(scratch)
    return rows


def traced_makespan(corpus, tmp):
    """scheduler_bench's makespan suite, planned by tracing PaddleOCR's runner: bound, first and second run."""
    runners = os.path.join(corpus, "runners", "PaddleOCR", "test_tipc")
    os.makedirs(os.path.join(tmp, "test_tipc"))
    for name in os.listdir(runners):
        if name.endswith((".sh", ".py")):
            shutil.copy(os.path.join(runners, name), os.path.join(tmp, "test_tipc", name))
    sched.write_suite(tmp, "python3")
    os.environ["TIPC_TRACE_CACHE"] = os.path.join(tmp, "cache")
    traced = ["--plan-from", "runner", "--python", sched.FAKE]
    _, n, bound, _, _ = sched.suite_bound(tmp, traced)
    args = [sched.TIPC, "test_tipc/configs", MODE, "--gpus", ",".join(str(g) for g in range(sched.GPUS)),
            "-j", str(sched.JOBS)] + traced
    runs = []
    for what in ("first", "second"):
        wall, code, out, _, _ = sched.run_measured(args, tmp)
        sched.check_run(f"traced suite, {what} run", code, out, n)
        runs.append(wall)
    return n, bound, runs


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("build", nargs="?", default=os.path.join(ROOT, "build"))
    parser.add_argument("--corpus", default="/work/shared/tipc-corpus")
    parser.add_argument("--configs", type=int, default=100)
    args = parser.parse_args()
    build = os.path.abspath(args.build)
    tipc = os.path.join(build, "tipc-run")
    sched.TIPC, sched.FAKE = tipc, os.path.join(build, "tipc-fake-stage")
    if not os.path.exists(tipc):
        sys.exit(f"build tipc-run first ({build})")
    print(f"tipc-run: {tipc}   cores: {os.cpu_count()}   load average at start: "
          + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    with tempfile.TemporaryDirectory() as tmp:
        repo = os.path.join(tmp, "repo")
        count = build_repository(args.corpus, repo, args.configs)
        cache = os.path.join(tmp, "cache")
        os.makedirs(cache)
        cold = plan_run(tipc, repo, "runner", cache, perf=False)
        traces = len([name for name in os.listdir(cache) if name.endswith(".json")])  # locks/ aside
        cpu_cache = os.path.join(tmp, "cpu-cache")
        os.makedirs(cpu_cache)
        cold["cpu"] = plan_run(tipc, repo, "runner", cpu_cache)["cpu"]
        warm = plan_run(tipc, repo, "runner", cache)
        native = plan_run(tipc, repo, "dialect", "")
        disk_cache = os.path.join(tmp, "disk-cache")
        os.makedirs(disk_cache)
        on_disk = plan_run(tipc, repo, "runner", disk_cache, TMPDIR=tmp)
        big_cache = os.path.join(tmp, "big-cache")
        os.makedirs(big_cache)
        big_dirs = add_directories(repo)
        big = plan_run(tipc, repo, "runner", big_cache, perf=False)
        pieces = breakdown(build, repo)
        profile_cache = os.path.join(tmp, "profile-cache")
        os.makedirs(profile_cache)
        by_program = cpu_by_program(tipc, repo, profile_cache) if PERF else []
    with tempfile.TemporaryDirectory() as tmp:
        stages, bound, (first, second) = traced_makespan(args.corpus, tmp)
    for name, r in (("cold", cold), ("warm", warm), ("dialect", native), ("cold on disk", on_disk),
                    ("cold, many directories", big)):
        if planned_configs(r["output"]) != count:
            sys.exit(f"{name} run planned {planned_configs(r['output'])} of {count} configs:\n{r['output'][-3000:]}")
    if traces != count:
        sys.exit(f"the cold run cached {traces} traces, expected {count}")
    rows = [
        (f"(a) cold: {count} configs traced, empty cache: wall", f"{cold['wall']:.2f} s",
         f"<= {GOAL_COLD_S:g} s " + ("ok" if cold["wall"] <= GOAL_COLD_S else "MISSED")),
        ("    CPU of a second cold run, " + ("tipc-run and all it started (perf task-clock)" if PERF else
                                                 "tipc-run and bwrap only (wait4 rusage; no perf here)"),
         f"{cold['cpu']:.2f} s", ""),
        ("    wall / (CPU / cores): how much of the wall was waiting for a core",
         f"{cold['wall'] / (cold['cpu'] / os.cpu_count()):.2f}", ""),
        ("    per trace: wall / CPU", f"{1000 * cold['wall'] / count:.1f} / {1000 * cold['cpu'] / count:.1f} ms", ""),
        (f"(a') cold, scratch trees in $TMPDIR={tempfile.gettempdir()} ({fs_type(tempfile.gettempdir())}): wall / CPU",
         f"{on_disk['wall']:.2f} / {on_disk['cpu']:.2f} s", ""),
        ("    (a) / (a'): wall, CPU", f"{cold['wall'] / on_disk['wall']:.2f}, {cold['cpu'] / on_disk['cpu']:.2f}", ""),
        (f"(d) cold, the repository with {big_dirs} more directories to shadow: wall", f"{big['wall']:.2f} s", ""),
        ("(b) warm: same cache: wall / CPU", f"{warm['wall']:.2f} / {warm['cpu']:.2f} s", ""),
        ("(c) --plan-from dialect: wall / CPU", f"{native['wall']:.2f} / {native['cpu']:.2f} s", ""),
        ("cold / dialect wall", f"{cold['wall'] / native['wall']:.1f}x", ""),
        ("warm / dialect wall", f"{warm['wall'] / native['wall']:.2f}x", ""),
        ("one trace's pieces, mean of 20 each (wall / CPU):", "", ""),
    ]
    rows += [(f"    {label}", f"{1000 * w:.2f} / {1000 * c:.2f} ms", "") for label, (w, c) in pieces]
    rows += [
        (f"traced suite on {GPUS} fake GPUs: {stages} stages, lower bound", f"{bound:.2f} s", ""),
        ("    first run: makespan / lower bound", f"{first:.2f} s = {first / bound:.3f}",
         f"<= {GOAL_RATIO:.2f} " + ("ok" if first / bound <= GOAL_RATIO else "MISSED")),
        ("    second run: makespan / lower bound", f"{second:.2f} s = {second / bound:.3f}",
         f"<= {GOAL_RATIO:.2f} " + ("ok" if second / bound <= GOAL_RATIO else "MISSED")),
    ]
    if by_program:
        rows.append(("a second cold run under perf record: CPU samples by program", "", ""))
        rows += [(f"    {name}", f"{share:.1f} %", "") for name, share in by_program]
    sched.print_rows(rows)


if __name__ == "__main__":
    main()
