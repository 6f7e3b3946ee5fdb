#!/usr/bin/env python3
"""Runner overhead and scheduling quality of tipc-run, as ratios measured in one run.

  1. per-stage overhead: N trivial stages (/bin/true) through tipc-run -j 1, against
     the same N processes started by a plain loop (CPU and wall time per stage);
  2. makespan: a suite of 20 fake trains with declared durations on a fake 4-GPU spec,
     against its lower bound max(longest stage, GPU-seconds / 4), and against -j 1.

Usage: bench/scheduler_bench.py [BUILD_DIR]   (default: build)
"""
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build"))
TIPC = os.path.join(BUILD, "tipc-run")
FAKE = os.path.join(BUILD, "tipc-fake-stage")


def config(python, train, gpu_list="-1", threads="1", batches="1"):
    return f"""===========================train_params===========================
model_name:bench
python:{python}
gpu_list:{gpu_list}
--use-gpu:False
--amp:null
--epochs:lite_train_lite_infer=1
--save-dir:./output/
--batch-size:lite_train_lite_infer=1
--pretrained:null
train_model_name:latest
train_infer_img_dir:./data
null:null
##
trainer:norm_train
norm_train:{train}
pact_train:null
fpgm_train:null
distill_train:null
null:null
null:null
##
===========================eval_params===========================
eval:null
null:null
##
===========================infer_params===========================
--output-dir:./output/
--checkpoint:
norm_export:export
quant_export:null
fpgm_export:null
distill_export:null
export1:null
export2:null
inference_dir:null
infer_model:./m
infer_export:null
infer_quant:False
inference:infer
--use-gpu:False
--enable-mkldnn:False
--cpu-threads:{threads}
--batch-size:{batches}
--use-tensorrt:False
--precision:fp32
--model-dir:
--image-dir:./data
null:null
--benchmark:False
null:null
"""


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed(cmd, cwd):
    cpu0, t0 = children_cpu(), time.monotonic()
    subprocess.run(cmd, cwd=cwd, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.monotonic() - t0, children_cpu() - cpu0


def overhead(tmp, stages=1000):
    # 1 train + 1 export + threads x batches CPU inferences, all /bin/true.
    batches = "|".join(str(b) for b in range(1, 51))
    threads = "|".join(str(t) for t in range(1, stages // 50 + 1))
    os.makedirs(os.path.join(tmp, "test_tipc/configs"), exist_ok=True)
    with open(os.path.join(tmp, "test_tipc/configs/c.txt"), "w") as f:
        f.write(config("/bin/true", "train", threads=threads, batches=batches))
    n = 2 + (stages // 50) * 50
    wall, cpu = timed([TIPC, "test_tipc/configs/c.txt", "lite_train_lite_infer", "-j", "1", "--gpus", "none"], tmp)
    base_wall, base_cpu = 0.0, 0.0
    cpu0, t0 = children_cpu(), time.monotonic()
    for _ in range(n):
        subprocess.run(["/bin/true"])
    base_wall, base_cpu = time.monotonic() - t0, children_cpu() - cpu0
    return n, wall, cpu, base_wall, base_cpu


def makespan(tmp):
    durations = [(1 + (i * 7) % 5) * 0.25 for i in range(20)]
    gpus = ["0,1" if i % 5 == 0 else "0" for i in range(20)]
    os.makedirs(os.path.join(tmp, "test_tipc/configs"), exist_ok=True)
    for i, (d, g) in enumerate(zip(durations, gpus)):
        with open(os.path.join(tmp, f"test_tipc/configs/c{i:02}.txt"), "w") as f:
            f.write(config(FAKE, f"train.py --sleep {d}", gpu_list=g))
    with open(os.path.join(tmp, "gpus.yaml"), "w") as f:
        f.write("gpus: [0, 1, 2, 3]\n")
    args = [TIPC, "test_tipc/configs", "lite_train_lite_infer", "--only", "train", "--resource-spec", "gpus.yaml"]
    parallel, _ = timed(args + ["-j", "8"], tmp)
    serial, _ = timed(args + ["-j", "1"], tmp)
    gpu_seconds = sum(d * len(g.split(",")) for d, g in zip(durations, gpus))
    bound = max(max(durations), gpu_seconds / 4)
    return parallel, serial, bound


def main():
    if not os.path.exists(TIPC) or not os.path.exists(FAKE):
        sys.exit(f"build tipc-run and tipc-fake-stage first ({BUILD})")
    with tempfile.TemporaryDirectory() as tmp:
        n, wall, cpu, base_wall, base_cpu = overhead(tmp)
    print(f"per-stage overhead over {n} trivial stages (-j 1):")
    print(f"  tipc-run: {1000 * wall / n:.2f} ms wall, {1000 * cpu / n:.2f} ms CPU per stage (stage process included)")
    print(f"  plain spawn loop: {1000 * base_wall / n:.2f} ms wall, {1000 * base_cpu / n:.2f} ms CPU per process")
    print(f"  tipc-run's own CPU per stage: {1000 * (cpu - base_cpu) / n:.2f} ms")
    with tempfile.TemporaryDirectory() as tmp:
        parallel, serial, bound = makespan(tmp)
    print("20 fake trains (4 of them on 2 GPUs) on a fake 4-GPU spec:")
    print(f"  makespan {parallel:.2f} s, lower bound {bound:.2f} s: ratio {parallel / bound:.3f}")
    print(f"  -j 1: {serial:.2f} s: speed-up {serial / parallel:.2f}x")


if __name__ == "__main__":
    main()
