#!/usr/bin/env python3
"""Runner overhead and scheduling quality of tipc-run, as ratios measured in one run.

  1. runner overhead: N trivial stages (/bin/true) through tipc-run -j 1 --gpus none.
     * tipc-run's own CPU per stage (goal < 5 ms). tipc-run's rusage from wait4 holds its
       own CPU plus that of the stage processes it reaped, so the stages' share is taken
       off in two ways: (a) the CPU of the same N /bin/true processes started by a plain
       spawn loop (the gated figure), and (b) cross-check: tipc-run's reaped children's
       CPU (cutime + cstime of /proc/PID/stat, sampled until it exits).
     * tipc-run's peak RSS (goal < 25 MiB): ru_maxrss from wait4, which is
       max(tipc-run's own peak, the peak of any one child it reaped). A child's peak is at
       most tipc-run's RSS when it forked (fork copies the page tables; exec records the
       copied address space's high-water mark) plus /bin/true's own ~1 MB, so this is
       tipc-run's own peak. The guardian tipc-run forks at the start (and reaps at the end)
       is such a child: its peak is tipc-run's RSS before any stage ran plus its own few
       pages. Cross-check: VmHWM of /proc/PID/status, tipc-run's own high-water mark,
       sampled every 5 ms until it exits. In the makespan suite below the stages are Python
       (tipc-fake-stage), whose own RSS ru_maxrss would report: there the gated figure is
       tipc-run's VmHWM.
  2. makespan: a suite of 40 fake configs (tipc-fake-stage as python, declared durations via
     --sleep), 1-, 2- and 4-GPU trains each followed by eval, export, a GPU inference and a
     CPU inference, on a fake 8-GPU spec (--gpus 0,...,7) with -j 32, so that GPUs, not -j,
     limit concurrency (CPU stages take no GPU). Makespan (tipc-run's wall time) against
     its lower bound max(critical path, GPU-seconds / 8) computed from the declared
     durations of the plans tipc-run makes (goal <= 1.10), twice: a first run, whose start
     order (critical path first) rests on default estimates per stage kind, and a second
     run, which takes its estimates from the first run's journals, as every later run of a
     suite does. Speed-up over -j 1. A simulation of the policy (start order with
     backfilling) on the declared durations says how much of the gap is the policy and how
     much the runner's own time.

Exit code 1 if a goal is missed.

Takes about 95 s on 2 cores (the -j 1 run is 60 s of it). The scratch repositories go to
Python's temp dir: TMPDIR=/dev/shm shows what the file system costs.

Usage: bench/scheduler_bench.py [BUILD_DIR]   (default: build)
"""
import heapq
import json
import os
import subprocess
import sys
import tempfile
import time

from tipc_config import SETTINGS, config

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 and not sys.argv[1].startswith("-")
                        else os.path.join(ROOT, "build"))
TIPC = os.path.join(BUILD, "tipc-run")
FAKE = os.path.join(BUILD, "tipc-fake-stage")
TICK = os.sysconf("SC_CLK_TCK")

GPUS = 8
JOBS = 32
CONFIGS = 40
STAGES = 1000
GOAL_RATIO = 1.10
GOAL_CPU_MS = 5.0
GOAL_RSS_MIB = 25.0




def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    settings = os.path.join(os.path.dirname(os.path.dirname(path)), "tipc-run.yaml")
    if path.endswith(".txt") and not os.path.exists(settings):
        with open(settings, "w") as f:
            f.write(SETTINGS)
    with open(path, "w") as f:
        f.write(text)


def proc_sample(pid):
    """(VmHWM KiB, reaped children's CPU seconds) of a live process, or None once it is gone."""
    try:
        with open(f"/proc/{pid}/status") as f:
            hwm = next((int(l.split()[1]) for l in f if l.startswith("VmHWM:")), None)
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        # after the ")": state is field 3, so utime..cstime (14..17) are fields[11..14]
        if hwm is None:
            return None  # a zombie: no memory map any more
        return hwm, (int(fields[13]) + int(fields[14])) / TICK
    except (OSError, StopIteration, IndexError, ValueError):
        return None


def run_measured(argv, cwd, sample_every=0.005):
    """Run argv; returns wall s, exit code, stdout, wait4 rusage, last /proc sample (or None)."""
    t0 = time.monotonic()
    out = tempfile.TemporaryFile()
    proc = subprocess.Popen(argv, cwd=cwd, stdout=out, stderr=subprocess.STDOUT)
    last = None
    while True:
        pid, status, ru = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        s = proc_sample(proc.pid)
        if s is not None:
            last = s
        time.sleep(sample_every)
    wall = time.monotonic() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    out.seek(0)
    return wall, proc.returncode, out.read().decode(errors="replace"), ru, last


def spawn_loop(argv, n):
    """n runs of argv from a plain loop: wall s, CPU s of the children."""
    cpu = 0.0
    t0 = time.monotonic()
    for _ in range(n):
        proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, status, ru = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        cpu += ru.ru_utime + ru.ru_stime
    return time.monotonic() - t0, cpu


def summary_line(output):
    lines = [l for l in output.splitlines() if l.startswith("tipc-run:") and " passed," in l]
    return lines[-1] if lines else "(no summary line)"


def check_run(what, code, output, stages):
    if code != 0 or f"{stages} passed," not in summary_line(output):
        sys.exit(f"{what}: tipc-run exited {code}, expected {stages} passed stages:\n{output[-3000:]}")


def overhead(tmp):
    # 1 train + 1 export + threads x batches CPU inferences, all /bin/true.
    batches = "|".join(str(b) for b in range(1, 51))
    threads = "|".join(str(t) for t in range(1, STAGES // 50 + 1))
    write(os.path.join(tmp, "test_tipc/configs/c.txt"), config("/bin/true", "train", threads=threads, batches=batches))
    n = 2 + (STAGES // 50) * 50
    wall, code, out, ru, last = run_measured(
        [TIPC, "test_tipc/configs/c.txt", "lite_train_lite_infer", "-j", "1", "--gpus", "none"], tmp)
    check_run("overhead run", code, out, n)
    base_wall, base_cpu = spawn_loop(["/bin/true"], n)
    total = ru.ru_utime + ru.ru_stime
    return {
        "n": n, "wall": wall, "total_cpu": total, "user": ru.ru_utime, "sys": ru.ru_stime,
        "base_wall": base_wall, "base_cpu": base_cpu,
        "own_cpu": total - base_cpu,  # (a)
        "own_cpu_proc": total - last[1] if last else float("nan"),  # (b)
        "maxrss_kib": ru.ru_maxrss, "hwm_kib": last[0] if last else 0,
    }


def suite():
    """The 40 configs: (name, gpu ids, train s, eval s, export s, infer s)."""
    out = []
    for i in range(CONFIGS):
        k = 4 if i % 8 == 3 else 2 if i % 4 == 1 else 1  # 5 four-GPU, 10 two-GPU, 25 one-GPU trains
        train = 0.4 + 0.2 * ((i * 3) % 7)                 # 0.4 .. 1.6 s
        out.append((f"m{i:02}", ",".join(str(g) for g in range(k)), train, 0.15, 0.15, 0.1))
    return out


def stage_plan(tmp, path, extra=()):
    """tipc-run's plan of one config: [(id, gpus needed, declared seconds, deps, kind)]."""
    p = subprocess.run([TIPC, path, "lite_train_lite_infer", "--dry-run", "--format", "jsonl", *extra], cwd=tmp,
                       check=True, capture_output=True, text=True)
    stages = []
    for line in p.stdout.splitlines():
        s = json.loads(line)
        argv = s["argv"]
        seconds = float(argv[argv.index("--sleep") + 1])
        stages.append((s["id"], s["needs"]["gpus"], seconds, s["deps"], s["kind"]))
    return stages


def critical_path(stages):
    finish = {}
    for sid, _, seconds, deps, _ in stages:  # plan order is a topological order
        finish[sid] = seconds + max((finish[d] for d in deps), default=0.0)
    return max(finish.values())


KIND_DEFAULT_S = {"train": 600, "eval": 60, "export": 30, "infer": 30, "check": 1}  # src/run/priority.cpp


def start_order(plans, estimate):
    """tipc-run's start order (src/run/priority.h): most estimated time ahead first (the stage's
    own plus its longest chain of dependents), then more GPUs, then plan order."""
    flat = [(ci, sid, need, estimate(kind, sec), deps) for ci, st in enumerate(plans) for sid, need, sec, deps, kind in st]
    chain = {}
    for ci, sid, need, est, deps in reversed(flat):  # dependents come after their dependencies
        ahead = max((chain[(cj, s2)] for cj, s2, _, _, d2 in flat if cj == ci and sid in d2), default=0.0)
        chain[(ci, sid)] = est + ahead
    order = sorted(range(len(flat)), key=lambda i: (-chain[flat[i][:2]], -flat[i][2], i))
    return [flat[i][:2] for i in order]


def simulate(plans, gpus, jobs, order):
    """tipc-run's policy on declared durations: walk the stages in `order` at every event and
    start each ready one that fits (all-or-nothing GPUs, backfilling). Returns the makespan."""
    by_key = {(ci, sid): (ci, sid, need, sec, [(ci, d) for d in deps])
              for ci, st in enumerate(plans) for sid, need, sec, deps, _ in st}
    flat = [by_key[k] for k in order]
    state = {(ci, sid): "wait" for ci, sid, *_ in flat}
    free, running, t, events = gpus, 0, 0.0, []
    while True:
        for ci, sid, need, sec, deps in flat:
            if running >= jobs:
                break
            if state[(ci, sid)] != "wait" or any(state[d] != "done" for d in deps) or need > free:
                continue
            state[(ci, sid)] = "run"
            free -= need
            running += 1
            heapq.heappush(events, (t + sec, ci, sid, need))
        if not events:
            return t
        t, ci, sid, need = heapq.heappop(events)
        state[(ci, sid)] = "done"
        free += need
        running -= 1


def write_suite(tmp, python):
    for name, ids, train, ev, ex, inf in suite():
        write(os.path.join(tmp, f"test_tipc/configs/{name}.txt"),
              config(python, f"train.py --sleep {train:g}", model=name, gpu_list=ids, eval_=f"eval.py --sleep {ev:g}",
                     export=f"export.py --sleep {ex:g}", infer=f"infer.py --sleep {inf:g}", infer_gpu="True|False"))


def suite_bound(tmp, extra=()):
    """The suite's plans (tipc-run's, with `extra` options), stage count and lower bound."""
    plans = [stage_plan(tmp, f"test_tipc/configs/{name}.txt", extra) for name, *_ in suite()]
    n = sum(len(p) for p in plans)
    gpu_seconds = sum(need * sec for p in plans for _, need, sec, _, _ in p)
    path = max(critical_path(p) for p in plans)
    return plans, n, max(path, gpu_seconds / GPUS), path, gpu_seconds


def makespan(tmp):
    write_suite(tmp, FAKE)
    plans, n, bound, path, gpu_seconds = suite_bound(tmp)
    serial_sum = sum(sec for p in plans for _, _, sec, _, _ in p)
    args = [TIPC, "test_tipc/configs", "lite_train_lite_infer", "--gpus", ",".join(str(g) for g in range(GPUS))]
    first, code, out, _, _ = run_measured(args + ["-j", str(JOBS)], tmp)
    check_run("first makespan run", code, out, n)
    parallel, code, out, ru, last = run_measured(args + ["-j", str(JOBS)], tmp)
    check_run("second makespan run", code, out, n)
    serial, code, out, _, _ = run_measured(args + ["-j", "1"], tmp, sample_every=0.05)
    check_run("-j 1 run", code, out, n)
    plan_order = [(ci, sid) for ci, st in enumerate(plans) for sid, *_ in st]
    return {
        "n": n, "first": first, "parallel": parallel, "serial": serial, "bound": bound, "path": path,
        "gpu_seconds": gpu_seconds, "serial_sum": serial_sum,
        "simulated_plan_order": simulate(plans, GPUS, JOBS, plan_order),
        "simulated_first": simulate(plans, GPUS, JOBS, start_order(plans, lambda kind, sec: KIND_DEFAULT_S[kind])),
        "simulated": simulate(plans, GPUS, JOBS, start_order(plans, lambda kind, sec: sec)), "maxrss_kib": ru.ru_maxrss,
        "hwm_kib": last[0] if last else 0,
        "mix": {k: sum(1 for _, ids, *_ in suite() if len(ids.split(",")) == k) for k in (1, 2, 4)},
    }


def print_rows(rows):
    """The (label, value, goal) table, the load average, and exit 1 when a goal is MISSED."""
    width = max(len(r[0]) for r in rows)
    vwidth = max(len(r[1]) for r in rows)
    for label, value, goal in rows:
        print(f"{label:<{width}}  {value:>{vwidth}}  {goal}")
    print("load average at end: " + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    missed = [r[0].strip() for r in rows if r[2].endswith("MISSED")]
    if missed:
        print("goals missed: " + "; ".join(missed))
        sys.exit(1)


def main():
    if not os.path.exists(TIPC) or not os.path.exists(FAKE):
        sys.exit(f"build tipc-run and tipc-fake-stage first ({BUILD})")
    print(f"tipc-run: {TIPC}   load average at start: {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory() as tmp:
        o = overhead(tmp)
    with tempfile.TemporaryDirectory() as tmp:
        m = makespan(tmp)
    n = o["n"]
    cpu_ms = 1000 * o["own_cpu"] / n
    rss_mib = max(o["maxrss_kib"], m["hwm_kib"]) / 1024  # tipc-run's own (see the docstring)
    ratio = m["parallel"] / m["bound"]
    first_ratio = m["first"] / m["bound"]
    rows = [
        (f"{n} trivial stages (/bin/true), -j 1: wall per stage", f"{1000 * o['wall'] / n:.2f} ms", ""),
        ("  same processes from a plain spawn loop: wall per process", f"{1000 * o['base_wall'] / n:.2f} ms", ""),
        ("  tipc-run + stages CPU per stage (wait4 rusage)",
         f"{1000 * o['total_cpu'] / n:.2f} ms ({1000 * o['user'] / n:.2f} user, {1000 * o['sys'] / n:.2f} sys)", ""),
        ("  plain spawn loop CPU per process", f"{1000 * o['base_cpu'] / n:.2f} ms", ""),
        ("  tipc-run's own CPU per stage (a: total - spawn loop)", f"{cpu_ms:.2f} ms",
         f"< {GOAL_CPU_MS:g} ms " + ("ok" if cpu_ms < GOAL_CPU_MS else "MISSED")),
        ("  cross-check (b: total - reaped children's cutime+cstime)", f"{1000 * o['own_cpu_proc'] / n:.2f} ms", ""),
        ("  peak RSS: wait4 ru_maxrss (max of tipc-run and one child)", f"{o['maxrss_kib'] / 1024:.1f} MiB", ""),
        ("  tipc-run's VmHWM, last sample before exit", f"{o['hwm_kib'] / 1024:.1f} MiB", ""),
        (f"{CONFIGS}-config suite, {m['n']} stages: peak RSS (ru_maxrss / VmHWM)",
         f"{m['maxrss_kib'] / 1024:.1f} / {m['hwm_kib'] / 1024:.1f} MiB", ""),
        ("tipc-run's peak RSS, larger of the two runs (ru_maxrss / suite's VmHWM)", f"{rss_mib:.1f} MiB",
         f"< {GOAL_RSS_MIB:g} MiB " + ("ok" if rss_mib < GOAL_RSS_MIB else "MISSED")),
        (f"makespan: {m['mix'][1]} 1-GPU, {m['mix'][2]} 2-GPU, {m['mix'][4]} 4-GPU trains + eval/export/infer, "
         f"{GPUS} GPUs, -j {JOBS}", "", ""),
        (f"  lower bound max(critical path {m['path']:.2f} s, GPU-seconds {m['gpu_seconds']:.2f} / {GPUS})",
         f"{m['bound']:.2f} s", ""),
        ("  first run (no earlier times: estimates are defaults per stage kind): makespan",
         f"{m['first']:.2f} s", ""),
        ("    makespan / lower bound", f"{first_ratio:.3f}",
         f"<= {GOAL_RATIO:.2f} " + ("ok" if first_ratio <= GOAL_RATIO else "MISSED")),
        ("  second run (estimates: the first run's times from its journals): makespan", f"{m['parallel']:.2f} s", ""),
        ("    makespan / lower bound", f"{ratio:.3f}", f"<= {GOAL_RATIO:.2f} " + ("ok" if ratio <= GOAL_RATIO else "MISSED")),
        ("  policy simulated on the declared durations / lower bound: plan order",
         f"{m['simulated_plan_order']:.2f} s = {m['simulated_plan_order'] / m['bound']:.3f}", ""),
        ("    critical path first, default estimates (first run)",
         f"{m['simulated_first']:.2f} s = {m['simulated_first'] / m['bound']:.3f}", ""),
        ("    critical path first, declared durations as estimates (second run)",
         f"{m['simulated']:.2f} s = {m['simulated'] / m['bound']:.3f}", ""),
        (f"  -j 1 (declared durations sum to {m['serial_sum']:.2f} s)", f"{m['serial']:.2f} s", ""),
        ("  speed-up over -j 1", f"{m['serial'] / m['parallel']:.2f}x", ""),
    ]
    print_rows(rows)


if __name__ == "__main__":
    main()
