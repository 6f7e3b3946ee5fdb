#!/usr/bin/python3
"""Runs an exported model on a folder of images: TorchScript on CPU (threads) or CUDA,
fp32 (fp16 on GPU), or the ONNX model through OpenCV's DNN module.

Per image it prints `infer result (<class>): <path>\t[<class id>, <score>]`, the format of the TIPC
ground-truth files in test_tipc/results/; with --benchmark True it ends with AutoLog-style
timing lines (preprocess_time(ms): ..., inference_time(ms): ..., postprocess_time(ms): ...)."""
import argparse
import os
import platform
import resource
import sys
import time

import numpy as np
import torch

import common


def parse_args():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--model-dir", required=True)
    p.add_argument("--image-dir", required=True)
    p.add_argument("--use-gpu", type=common.str2bool, default=False)
    p.add_argument("--cpu-threads", type=int, default=1)
    p.add_argument("--batch-size", type=int, default=1)
    p.add_argument("--precision", choices=["fp32", "fp16"], default="fp32")
    p.add_argument("--enable-mkldnn", type=common.str2bool, default=False)
    p.add_argument("--use-tensorrt", type=common.str2bool, default=False)
    p.add_argument("--benchmark", type=common.str2bool, default=False)
    p.add_argument("--backend", choices=["torchscript", "onnx"], default="torchscript")
    return p.parse_args()


class Timer:
    def __init__(self):
        self.pre, self.infer, self.post = [], [], []


def load_images(paths):
    return np.stack([common.read_ppm(path).transpose(2, 0, 1) for path in paths])


def predictor(args, device):
    if args.backend == "onnx":
        if args.use_gpu:
            sys.exit("error: the ONNX backend (OpenCV DNN) runs on CPU only")
        import cv2
        cv2.setNumThreads(args.cpu_threads)
        net = cv2.dnn.readNetFromONNX(os.path.join(args.model_dir, "model.onnx"))

        def run_onnx(batch):
            net.setInput(batch)
            return net.forward()
        return run_onnx
    model = torch.jit.load(os.path.join(args.model_dir, "model.pt"), map_location=device).eval()
    dtype = torch.float16 if args.precision == "fp16" else torch.float32
    model = model.to(dtype)

    def run_torch(batch):
        with torch.no_grad():
            return model(torch.from_numpy(batch).to(device, dtype)).float().cpu().numpy()
    return run_torch


def autolog(args, timer, images, device, total):
    stamp = time.strftime("%Y/%m/%d %H:%M:%S")
    def info(message):
        print(f"[{stamp}] root INFO: {message}")
    mean = lambda xs: round(1000 * sum(xs) / max(1, len(xs)), 4)
    rss = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 4)
    info("\n")
    info("---------------------- Env info ----------------------")
    info(f" OS_version: {platform.platform()}")
    info(f" CUDA_version: {torch.version.cuda}")
    info(f" CUDNN_version: {torch.backends.cudnn.version() if torch.cuda.is_available() else None}")
    info(" drivier_version: None")
    info("----------------------- Conf info -----------------------")
    info(f" runtime_device: {device.type}")
    info(f" enable_tensorrt: {args.use_tensorrt}")
    info(f" enable_mkldnn: {args.enable_mkldnn}")
    info(f" cpu_math_library_num_threads: {args.cpu_threads}")
    info("----------------------- Model info ----------------------")
    info(" model_name: alexnet")
    info(f" precision: {args.precision}")
    info("----------------------- Data info -----------------------")
    info(f" batch_size: {args.batch_size}")
    info(f" input_shape: dynamic")
    info(f" data_num: {images}")
    info("----------------------- Perf info -----------------------")
    info(f" cpu_rss(MB): {rss}, gpu_rss(MB): None, gpu_util: None%")
    info(f" total time spent(s): {round(total, 4)}")
    info(f" preprocess_time(ms): {mean(timer.pre)}, inference_time(ms): {mean(timer.infer)}, "
         f"postprocess_time(ms): {mean(timer.post)}")


def main():
    args = parse_args()
    if args.use_tensorrt:
        sys.exit("error: TensorRT is not supported by the demo model")
    if args.precision == "fp16" and not args.use_gpu:
        sys.exit("error: fp16 inference needs --use-gpu True")
    torch.set_num_threads(args.cpu_threads)
    device = common.pick_device(args.use_gpu)
    run = predictor(args, device)
    classes = open(os.path.join(args.model_dir, "classes.txt")).read().split()
    paths = sorted(os.path.join(d, f) for d, _, files in os.walk(args.image_dir) for f in files if f.endswith(".ppm"))
    if not paths:
        sys.exit(f"error: no .ppm images in {args.image_dir}")
    timer, start = Timer(), time.perf_counter()
    for i in range(0, len(paths), args.batch_size):
        chunk = paths[i:i + args.batch_size]
        t0 = time.perf_counter()
        batch = load_images(chunk)
        t1 = time.perf_counter()
        logits = run(batch)
        t2 = time.perf_counter()
        e = np.exp(logits - logits.max(axis=1, keepdims=True))
        probs = e / e.sum(axis=1, keepdims=True)
        for path, p in zip(chunk, probs):
            k = int(p.argmax())
            print(f"infer result ({classes[k]}): {path}\t[{k}, {p[k]:.6f}]")
        timer.pre.append(t1 - t0)
        timer.infer.append(t2 - t1)
        timer.post.append(time.perf_counter() - t2)
    sys.stdout.flush()
    if args.benchmark:
        autolog(args, timer, len(paths), device, time.perf_counter() - start)


if __name__ == "__main__":
    main()
