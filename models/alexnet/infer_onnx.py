#!/usr/bin/python3
"""The ONNX chain's inference (the `inference:` line of test_tipc/configs/alexnet_paddle2onnx.txt):
runs the ONNX model --onnx_file through OpenCV's DNN module on the images under --image_dir,
by infer.py with --backend onnx, printing infer.py's `infer result` lines (the ground-truth
format). OpenCV DNN runs on the CPU here: --use_gpu True is an error, never a fall-back."""
import argparse
import os
import sys

import common
import infer


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--onnx_file", required=True, help="a model.onnx with classes.txt beside it (export_onnx.py)")
    p.add_argument("--image_dir", required=True)
    p.add_argument("--use_gpu", type=common.str2bool, default=False)
    args = p.parse_args()
    if os.path.basename(args.onnx_file) != "model.onnx":
        sys.exit(f"error: --onnx_file must name a model.onnx, not {args.onnx_file}")
    sys.argv = [sys.argv[0], "--backend", "onnx", "--model-dir", os.path.dirname(args.onnx_file) or ".",
                "--image-dir", args.image_dir, "--use-gpu", str(args.use_gpu)]
    infer.main()


if __name__ == "__main__":
    main()
