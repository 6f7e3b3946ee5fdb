#!/usr/bin/python3
"""Writes lite_data/alexnet_pretrained.tar: the demo's pretrained checkpoint, the model that
whole_infer exports and runs (TIPC's prepare.sh downloads released weights for that mode;
the demo ships its own). The archive holds one member, alexnet_pretrained/latest.pt, a
checkpoint in train.py's format; the data step of whole_infer unpacks it into lite_data/.

How it is made: train.py, one process, one thread, seed 42, EPOCHS epochs of batch 8 on the
train split of lite_data/lite_data.tar (unpacked into a temporary directory), then eval.py
on the val split. Training is not reproducible across CPUs (SIMD width and reduction order
change the rounding, and training amplifies it), so the ground truth of whole_infer
(test_tipc/results/python_alexnet_results_fp32.txt) is recorded from this checkpoint's
inference, never from a training run: a fixed model's inference agrees across CPUs to ~1e-6.
Rerunning this script on another CPU gives slightly different weights; record the ground
truth again after it (models/alexnet/README.md).

Usage: models/alexnet/make_pretrained.py [OUTPUT.tar]"""
import os
import subprocess
import sys
import tarfile
import tempfile

import common
from make_lite_data import add

HERE = os.path.dirname(os.path.abspath(__file__))
EPOCHS = 10
MEMBER = f"alexnet_pretrained/{common.CHECKPOINT_NAME}"  # a directory export_model.py --checkpoint takes


def run(script, *args):
    subprocess.run([sys.executable, os.path.join(HERE, script), *args], check=True)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "../../lite_data/alexnet_pretrained.tar")
    with tempfile.TemporaryDirectory() as scratch:
        with tarfile.open(os.path.join(HERE, "../../lite_data/lite_data.tar")) as data:
            data.extractall(scratch)
        save_dir = os.path.join(scratch, "train_output")
        run("train.py", "--data-dir", os.path.join(scratch, "alexnet/train"), "--save-dir", save_dir,
            "--epochs", str(EPOCHS), "--batch-size", "8", "--seed", "42", "--threads", "1")
        checkpoint = os.path.join(save_dir, common.CHECKPOINT_NAME)
        run("eval.py", "--data-dir", os.path.join(scratch, "alexnet/val"), "--pretrained", checkpoint)
        with open(checkpoint, "rb") as f:
            weights = f.read()
    with tarfile.open(out, "w", format=tarfile.USTAR_FORMAT) as tar:
        add(tar, os.path.dirname(MEMBER))
        add(tar, MEMBER, weights)
    print(f"wrote {out}: {MEMBER}, {len(weights)} bytes")


if __name__ == "__main__":
    main()
