#!/usr/bin/env python3
"""A 100-config suite of fake stages over a two-node Slurm cluster of this machine
(scripts/slurm-local.sh --nodes 2, 2 GPUs and 2 CPUs per node): makespan over its lower
bound, Slurm's own overhead measured apart, and the srun processes tipc-run keeps at once.

    python3 bench/slurm_suite.py [BUILD_DIR] [--jobs N] [--configs N]

The lower bound is max(longest chain, CPU-seconds / CPUs, GPU-seconds / GPUs) over the
stages' own work: each fake stage's sleep plus an empty srun's latency (the report's
durations count the time a job waited in Slurm's queue too). Slurm's overhead is the
latency of an empty `srun true` (20 in a row), and the wait of a job for a slot that another
job freed (two jobs of one CPU-node's worth each, one after the other)."""
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


def write_suite(repo, stage, configs):
    (repo / "test_tipc/configs").mkdir(parents=True)
    (repo / "test_tipc/tipc-run.yaml").write_text(tipc_config.SETTINGS)
    for i in range(configs):
        sleep = 0.2 + (i % 5) * 0.2  # trains of 0.2 to 1.0 s
        text = tipc_config.config(stage, f"train.py --sleep {sleep}", model=f"fake_{i:03}", gpu_list=GPU_LISTS[i % 3],
                                  eval_="eval.py --sleep 0.1", export="export.py --sleep 0.1",
                                  infer="infer.py --sleep 0.1", infer_gpu="True|False")
        (repo / f"test_tipc/configs/fake_{i:03}.txt").write_text(text)


def sruns_of(pid):
    """srun processes under `pid` (not srun's own helper, not exited ones)."""
    def stat(p):
        try:
            text = pathlib.Path(f"/proc/{p}/stat").read_text()
        except OSError:
            return None, 0
        fields = text[text.rfind(")") + 2:].split()
        return fields[0], int(fields[1])

    count = 0
    for entry in pathlib.Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if (entry / "comm").read_text() != "srun\n":
                continue
        except OSError:
            continue
        state, parent = stat(entry.name)
        if state in (None, "Z"):
            continue
        try:
            if pathlib.Path(f"/proc/{parent}/comm").read_text() == "srun\n":
                continue
        except OSError:
            continue
        up = parent
        while up > 1:
            if up == pid:
                count += 1
                break
            up = stat(up)[1]
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
            repo = tmp / "repo"
            write_suite(repo, build / "tipc-fake-stage", args.configs)
            argv = [build / "tipc-run", "test_tipc/configs", "lite_train_lite_infer", "--executor", "slurm", "-q"]
            if args.jobs:
                argv += ["-j", str(args.jobs)]
            run = subprocess.Popen(argv, cwd=repo, env=env, stdout=subprocess.DEVNULL)
            most, done = 0, False

            def sample():
                nonlocal most
                while not done:
                    most = max(most, sruns_of(run.pid))
                    time.sleep(0.02)

            sampler = threading.Thread(target=sample)
            sampler.start()
            run.wait()
            done = True
            sampler.join()
            report = json.loads((repo / "test_tipc/output/report.json").read_text())
        finally:
            subprocess.run([ROOT / "scripts/slurm-local.sh", "stop", cluster], capture_output=True)
    bound, path, cpu, gpu, passed = lower_bound(report, latency)
    makespan = report["seconds"]
    print(f"{args.configs} configs, {passed}/{report['counts']['total']} stages passed, -j {report['jobs']}, exit {run.returncode}")
    print(f"Slurm overhead: empty srun {latency * 1000:.0f} ms, slot handover {handover * 1000:.0f} ms")
    print(f"lower bound {bound:.1f} s = max(longest chain {path:.1f}, CPU-s/{NODES * CPUS} {cpu:.1f}, "
          f"GPU-s/{NODES * GPUS} {gpu:.1f})")
    print(f"makespan {makespan:.1f} s, makespan / lower bound {makespan / bound:.3f}")
    print(f"srun processes at once: at most {most}")


if __name__ == "__main__":
    main()
