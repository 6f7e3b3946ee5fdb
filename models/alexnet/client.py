#!/usr/bin/python3
"""The serving chain's client (the `pipline:` line of test_tipc/configs/alexnet_serving.txt):
posts every .ppm image under --image_dir to serve.py's POST /predict, prints each answer as an
`infer result` line (infer.py's format, the ground-truth format), and checks the answers against
--ground_truth: the same class, the score within atol = rtol = 1e-5 (the fixed model's fp32
inference agrees across CPUs to ~1e-7, models/alexnet/README.md). Exits 1 on a mismatch or a
missing image, 2 when the server cannot be reached within --timeout seconds per request.
Standard library only, so it starts fast."""
import argparse
import json
import os
import re
import sys
import urllib.request

TOLERANCE = 1e-5
GROUND_TRUTH_LINE = re.compile(r"^(\S+)\t\[(\d+), ([0-9.eE+-]+)\]$")


def ground_truth(path):
    truth = {}
    for line in open(path).read().splitlines():
        m = GROUND_TRUTH_LINE.match(line)
        if m:
            truth[os.path.basename(m.group(1))] = (int(m.group(2)), float(m.group(3)))
    if not truth:
        sys.exit(f"error: no ground-truth lines in {path}")
    return truth


def predict(url, path, timeout):
    with open(path, "rb") as f:
        request = urllib.request.Request(url, data=f.read(), headers={"X-Image-Name": path}, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return json.load(response)
    except OSError as e:
        print(f"error: {url}: {e}", file=sys.stderr)
        sys.exit(2)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--image_dir", required=True)
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--ground_truth", required=True)
    p.add_argument("--timeout", type=float, default=30)
    args = p.parse_args()
    truth = ground_truth(args.ground_truth)
    paths = sorted(os.path.join(d, f) for d, _, files in os.walk(args.image_dir) for f in files if f.endswith(".ppm"))
    url = f"http://127.0.0.1:{args.port}/predict"
    mismatches = [name for name in truth if name not in {os.path.basename(path) for path in paths}]
    for path in paths:
        answer = predict(url, path, args.timeout)
        k, score = answer["class_id"], answer["score"]
        print(f"infer result ({answer['label']}): {path}\t[{k}, {score:.6f}]")
        expected = truth.get(os.path.basename(path))
        if expected and (k != expected[0] or abs(score - expected[1]) > TOLERANCE + TOLERANCE * abs(expected[1])):
            print(f"mismatch: {path}: [{k}, {score:.6f}], expected [{expected[0]}, {expected[1]:.6f}]")
            mismatches.append(os.path.basename(path))
    print(f"{len(paths)} images, {len(truth)} in the ground truth, {len(mismatches)} mismatched or missing")
    sys.exit(1 if mismatches else 0)


if __name__ == "__main__":
    main()
