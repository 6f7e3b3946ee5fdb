#!/usr/bin/python3
"""Exports a checkpoint for inference: TorchScript (model.pt), ONNX (model.onnx), the class
names, and reprod_log-style result files of the eager and the TorchScript logits on a fixed
input (forward_eager.npy, forward_torchscript.npy, and forward_onnx.npy from the ONNX
model run through OpenCV's DNN module) for the alignment checks."""
import argparse
import inspect
import os

import torch

import common

FIXED_INPUT_SEED = 2026
# PyTorch 2.9 and later export through torch.export (dynamo) by default, which has no opset 11:
# it writes opset 18, fails to convert it down and prints that traceback. The TorchScript
# exporter (the only one of older PyTorch, such as Debian's 1.13) writes opset 11 as asked.
TORCHSCRIPT_EXPORTER = {"dynamo": False} if "dynamo" in inspect.signature(torch.onnx.export).parameters else {}


def onnx_logits(path, batch):
    import cv2  # only the export needs OpenCV here; training does not
    net = cv2.dnn.readNetFromONNX(path)
    net.setInput(batch)
    return net.forward()


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--checkpoint", required=True,
                   help="checkpoint written by train.py, or a directory holding one as latest.pt (whole_infer "
                        "passes the pretrained model's directory, as TIPC passes Global.checkpoints)")
    p.add_argument("--output-dir", required=True)
    p.add_argument("--use-gpu", type=common.str2bool, default=False)
    args = p.parse_args()
    checkpoint = args.checkpoint
    if os.path.isdir(checkpoint):
        checkpoint = os.path.join(checkpoint, common.CHECKPOINT_NAME)
    model, classes = common.load_checkpoint(checkpoint)
    os.makedirs(args.output_dir, exist_ok=True)
    x = torch.rand(4, 3, common.IMAGE_SIZE, common.IMAGE_SIZE, generator=torch.Generator().manual_seed(FIXED_INPUT_SEED))
    with torch.no_grad():
        traced = torch.jit.trace(model, x)
        traced.save(os.path.join(args.output_dir, "model.pt"))
        torch.onnx.export(model, x, os.path.join(args.output_dir, "model.onnx"), opset_version=11,
                          input_names=["image"], output_names=["logits"],
                          dynamic_axes={"image": {0: "batch"}, "logits": {0: "batch"}}, **TORCHSCRIPT_EXPORTER)
        common.save_reprod_dict(os.path.join(args.output_dir, "forward_eager.npy"), {"logits": model(x).numpy()})
        common.save_reprod_dict(os.path.join(args.output_dir, "forward_torchscript.npy"),
                                {"logits": traced(x).numpy()})
    common.save_reprod_dict(os.path.join(args.output_dir, "forward_onnx.npy"),
                            {"logits": onnx_logits(os.path.join(args.output_dir, "model.onnx"), x.numpy())})
    common.save_reprod_dict(os.path.join(args.output_dir, "fixed_input.npy"), {"image": x.numpy()})
    with open(os.path.join(args.output_dir, "classes.txt"), "w") as f:
        f.write("\n".join(classes) + "\n")
    common.log("export", f"wrote model.pt, model.onnx and the forward dumps to {args.output_dir}")


if __name__ == "__main__":
    main()
