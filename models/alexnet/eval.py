#!/usr/bin/python3
"""Evaluates a checkpoint on a split: top-1 accuracy and mean loss."""
import argparse

import torch
from torch import nn

import common


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--data-dir", required=True)
    p.add_argument("--pretrained", required=True, help="checkpoint written by train.py")
    p.add_argument("--use-gpu", type=common.str2bool, default=False)
    args = p.parse_args()
    device = common.pick_device(args.use_gpu)
    model, classes = common.load_checkpoint(args.pretrained, device)
    images, labels, _, split_classes = common.load_split(args.data_dir)
    if split_classes != classes:
        raise SystemExit(f"error: classes of {args.data_dir} {split_classes} differ from the checkpoint's {classes}")
    with torch.no_grad():
        logits = model(images.to(device))
        loss = nn.CrossEntropyLoss()(logits, labels.to(device)).item()
        top1 = (logits.argmax(1).cpu() == labels).float().mean().item()
    common.log("eval", f"images: {len(labels)}, top1: {top1:.6f}, loss: {loss:.6f}")


if __name__ == "__main__":
    main()
