#!/usr/bin/env python3
"""A 100-config suite of fake stages over a two-node Slurm cluster of this machine
(scripts/slurm-local.sh --nodes 2, 2 GPUs and 2 CPUs per node): makespan over its lower
bound, Slurm's own overhead measured apart, and the srun processes tipc-run keeps at once.

    python3 bench/slurm_suite.py [BUILD_DIR] [--jobs N] [--configs N] [--placement tipc-run|slurm] [--keep FILE]

The lower bound is max(longest chain, CPU-seconds / CPUs, GPU-seconds / GPUs) over the
stages' own work: each fake stage's sleep plus what Slurm costs a job (the report's
durations count the time a job waited in Slurm's queue too). Slurm's overhead is measured
apart: the latency of an empty `srun true` (20 in a row), the wait of a job for a slot that
another job freed (two jobs of one CPU-node's worth each, one after the other), and the
suite's own jobs run by Slurm alone: their sleeps as -j shell loops of `srun sleep S` (no
GPUs, no dependencies, no tipc-run), whose wall time gives Slurm's cost per job at the
suite's concurrency. The ratio is printed against the bound with each per-job cost."""
import argparse
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import tipc_config  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent
NODES, GPUS, CPUS = 2, 2, 2
GPU_LISTS = ["-1", "0", "0,1"]  # CPU, one GPU, both GPUs of a node


def write_suite(repo, stage, configs, placement="tipc-run"):
    (repo / "test_tipc/configs").mkdir(parents=True)
    (repo / "test_tipc/tipc-run.yaml").write_text(tipc_config.SETTINGS + f"slurm:\n  placement: {placement}\n")
    for i in range(configs):
        sleep = 0.2 + (i % 5) * 0.2  # trains of 0.2 to 1.0 s
        text = tipc_config.config(stage, f"train.py --sleep {sleep}", model=f"fake_{i:03}", gpu_list=GPU_LISTS[i % 3],
                                  eval_="eval.py --sleep 0.1", export="export.py --sleep 0.1",
                                  infer="infer.py --sleep 0.1", infer_gpu="True|False")
        (repo / f"test_tipc/configs/fake_{i:03}.txt").write_text(text)


def sruns_of(pid):
    """srun processes that `pid` started: its children named srun (srun's own helper is srun's
    child). One read of /proc/N/stat per process; sampled every 100 ms, as a scan of /proc every
    20 ms took a good part of a core from the suite it measures."""
    count = 0
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            text = pathlib.Path(f"/proc/{entry.name}/stat").read_text()
        except OSError:
            continue
        comm = text[text.find("(") + 1:text.rfind(")")]
        fields = text[text.rfind(")") + 2:].split()
        if comm == "srun" and fields[0] != "Z" and int(fields[1]) == pid:
            count += 1
    return count


def work_of(stage, latency):
    """A stage's own work: its fake stage's sleep and an empty srun's latency."""
    argv = stage["argv"]
    return float(argv[argv.index("--sleep") + 1]) + latency


def lower_bound(report, latency):
    stages = [(plan["config"], dict(s, seconds=work_of(s, latency)))
              for plan in report["plans"] for s in plan["stages"] if s["result"] == "PASS"]
    by_id = {(config, s["id"]): s for config, s in stages}
    longest = {}

    def chain(config, s):
        key = (config, s["id"])
        if key not in longest:
            longest[key] = s["seconds"] + max((chain(config, by_id[(config, d)]) for d in s["deps"]
                                               if (config, d) in by_id), default=0)
        return longest[key]

    path = max(chain(config, s) for config, s in stages)
    cpu = sum(s["seconds"] for _, s in stages) / (NODES * CPUS)
    gpu = sum(s["seconds"] * (s["gpus_needed"] or 0) for _, s in stages) / (NODES * GPUS)
    return max(path, cpu, gpu), path, cpu, gpu, len(stages)


def srun_latency(env, runs=20):
    start = time.monotonic()
    for _ in range(runs):
        subprocess.run(["srun", "--quiet", "true"], env=env, check=True, cwd="/tmp")
    return (time.monotonic() - start) / runs


def suite_sleeps(configs):
    """The fake stages' sleeps of write_suite's configs: a train's, then eval, export, two inferences."""
    return [s for i in range(configs) for s in (0.2 + (i % 5) * 0.2, 0.1, 0.1, 0.1, 0.1)]


def slurm_alone(env, sleeps, streams):
    """Slurm's own cost per job at the suite's concurrency: the suite's jobs (their sleeps, no
    GPUs, no dependencies) as `streams` shell loops of `srun sleep S`, without tipc-run. Returns
    (wall seconds, seconds per job beyond its sleep)."""
    scripts = ["set -e\n" + "".join(f"srun --quiet sleep {s}\n" for s in sleeps[k::streams]) for k in range(streams)]
    start = time.monotonic()
    procs = [subprocess.Popen(["bash", "-c", script], env=env, cwd="/tmp") for script in scripts]
    if any(p.wait() != 0 for p in procs):
        sys.exit("srun failed")
    wall = time.monotonic() - start
    return wall, (wall * streams - sum(sleeps)) / len(sleeps)


def slot_handover(env):
    """Seconds a waiting job takes to start once a job holding every CPU ends (the sleep excluded)."""
    first = subprocess.Popen(["srun", "--quiet", f"--ntasks={NODES * CPUS}", "sleep", "1"], env=env, cwd="/tmp")
    time.sleep(0.3)
    start = time.monotonic()
    subprocess.run(["srun", "--quiet", f"--ntasks={NODES * CPUS}", "true"], env=env, check=True, cwd="/tmp")
    first.wait()
    return time.monotonic() - start - 0.7


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("build", nargs="?", default="build")
    parser.add_argument("--jobs", type=int)
    parser.add_argument("--configs", type=int, default=100)
    parser.add_argument("--keep", metavar="FILE", help="copy the run's report.json there")
    parser.add_argument("--placement", choices=["tipc-run", "slurm"], default="tipc-run",
                        help="the settings' slurm placement: tipc-run pins jobs to nodes, slurm chooses")
    args = parser.parse_args()
    build = pathlib.Path(args.build).resolve()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        cluster = tmp / "cluster"
        started = subprocess.run([ROOT / "scripts/slurm-local.sh", "start", cluster, "--nodes", str(NODES), str(GPUS),
                                  str(CPUS)], capture_output=True, text=True)
        if started.returncode != 0:
            sys.exit("cluster did not start:\n" + started.stderr)
        env = dict(os.environ, SLURM_CONF=str(cluster / "slurm.conf"))
        try:
            latency, handover = srun_latency(env), slot_handover(env)
            streams = args.jobs or NODES * CPUS
            alone_wall, per_job = slurm_alone(env, suite_sleeps(args.configs), streams)
            repo = tmp / "repo"
            write_suite(repo, build / "tipc-fake-stage", args.configs, args.placement)
            argv = [build / "tipc-run", "test_tipc/configs", "lite_train_lite_infer", "--executor", "slurm", "-q"]
            if args.jobs:
                argv += ["-j", str(args.jobs)]
            run = subprocess.Popen(argv, cwd=repo, env=env, stdout=subprocess.DEVNULL)
            most, done = 0, False

            def sample():
                nonlocal most
                while not done:
                    most = max(most, sruns_of(run.pid))
                    time.sleep(0.1)

            sampler = threading.Thread(target=sample)
            sampler.start()
            run.wait()
            done = True
            sampler.join()
            report = json.loads((repo / "test_tipc/output/report.json").read_text())
            if args.keep:
                pathlib.Path(args.keep).write_text(json.dumps(report))
        finally:
            subprocess.run([ROOT / "scripts/slurm-local.sh", "stop", cluster], capture_output=True)
    makespan = report["seconds"]
    print(f"{args.configs} configs, placement by {args.placement}, {report['counts']['PASS']}/{report['counts']['total']} stages passed, "
          f"-j {report['jobs']}, exit {run.returncode}")
    print(f"Slurm overhead: empty srun {latency * 1000:.0f} ms; slot handover {handover * 1000:.0f} ms; "
          f"the suite's {len(suite_sleeps(args.configs))} jobs as {streams} srun loops without tipc-run: "
          f"{alone_wall:.1f} s, {per_job * 1000:.0f} ms per job beyond its sleep")
    for name, overhead in (("an empty srun's latency", latency), ("Slurm's cost per job at -j", per_job)):
        bound, path, cpu, gpu, _ = lower_bound(report, overhead)
        print(f"lower bound with {name}: {bound:.1f} s = max(longest chain {path:.1f}, CPU-s/{NODES * CPUS} {cpu:.1f}, "
              f"GPU-s/{NODES * GPUS} {gpu:.1f}); makespan {makespan:.1f} s, makespan / lower bound {makespan / bound:.3f}")
    print(f"srun processes at once: at most {most}")


if __name__ == "__main__":
    main()
