"""Shared pieces of the demo AlexNet chain: the model, the data reader, the log format.

Images are binary PPM (P6) files in an ImageFolder layout, <split>/<class>/<n>.ppm,
read with numpy alone. Every script logs through log() so lines look alike:

  [train] rank 0/2 epoch: 1/2, iter: 3/10, loss: 1.234567, lr: 0.010000, acc: 0.500000
"""
import os
import random
import sys

import numpy as np
import torch
from torch import nn

IMAGE_SIZE = 32
CHECKPOINT_NAME = "latest.pt"  # what train.py saves in --save-dir (the config's train_model_name)


def str2bool(text):
    if str(text).lower() in ("true", "1", "yes"):
        return True
    if str(text).lower() in ("false", "0", "no"):
        return False
    raise ValueError(f"expected True or False, got {text!r}")


def demo_switch(name):
    """A demo switch from the environment (models/alexnet/README.md, "Injected regressions"):
    a non-negative number, 0 when unset or empty; anything else is an error naming it."""
    text = os.environ.get(name, "")
    try:
        value = float(text) if text else 0.0
    except ValueError:
        value = -1.0
    if not 0 <= value < float("inf"):
        sys.exit(f"error: {name}={text!r}: expected a non-negative number")
    return value


def seed_everything(seed):
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    torch.use_deterministic_algorithms(True, warn_only=True)


def pick_device(use_gpu):
    """--use-gpu True without CUDA is an error, never a silent fall-back."""
    if not use_gpu:
        return torch.device("cpu")
    if not torch.cuda.is_available():
        sys.exit("error: --use-gpu True but CUDA is not available (this torch: %s)" % torch.__version__)
    # fp32 means fp32: cuDNN's convolutions default to TF32 on Ampere and later (a 10-bit
    # mantissa, ~1e-3 off), which no ground truth held at 1e-5 survives.
    torch.backends.cudnn.allow_tf32 = False
    torch.backends.cuda.matmul.allow_tf32 = False
    return torch.device("cuda", int(os.environ.get("LOCAL_RANK", "0")))


class AlexNet(nn.Module):
    """AlexNet's shape (5 convolutions, 3 max-pools, 3 fully connected layers), scaled to 32x32 images."""

    def __init__(self, num_classes):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 16, kernel_size=5, padding=2), nn.ReLU(inplace=True), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, kernel_size=3, padding=1), nn.ReLU(inplace=True), nn.MaxPool2d(2),
            nn.Conv2d(32, 48, kernel_size=3, padding=1), nn.ReLU(inplace=True),
            nn.Conv2d(48, 48, kernel_size=3, padding=1), nn.ReLU(inplace=True),
            nn.Conv2d(48, 32, kernel_size=3, padding=1), nn.ReLU(inplace=True), nn.MaxPool2d(2))
        self.classifier = nn.Sequential(
            nn.Flatten(), nn.Linear(32 * 4 * 4, 128), nn.ReLU(inplace=True), nn.Dropout(0.2),
            nn.Linear(128, 64), nn.ReLU(inplace=True), nn.Linear(64, num_classes))

    def forward(self, x):
        return self.classifier(self.features(x))


def read_ppm(path):
    with open(path, "rb") as f:
        return decode_ppm(f.read(), path)


def decode_ppm(data, name):
    """Binary PPM: "P6", width, height, maxval separated by whitespace, then exactly one
    whitespace byte before the pixels (which may themselves start with whitespace bytes).
    `name` says which image in errors (the serving demo's server gets the bytes over HTTP)."""
    fields, pos = [], 0
    while len(fields) < 4:
        while data[pos:pos + 1].isspace():
            pos += 1
        start = pos
        while pos < len(data) and not data[pos:pos + 1].isspace():
            pos += 1
        fields.append(data[start:pos])
    if fields[0] != b"P6":
        raise ValueError(f"{name}: not a binary PPM (P6) image")
    width, height, maxval = int(fields[1]), int(fields[2]), int(fields[3])
    pixels = np.frombuffer(data, dtype=np.uint8, count=width * height * 3, offset=pos + 1)
    return pixels.reshape(height, width, 3).astype(np.float32) / float(maxval)


def classes_of(split_dir):
    return sorted(d for d in os.listdir(split_dir) if os.path.isdir(os.path.join(split_dir, d)))


def load_split(split_dir):
    """(images N x 3 x H x W float32, labels N int64, paths, class names), in a fixed order."""
    classes = classes_of(split_dir)
    images, labels, paths = [], [], []
    for label, name in enumerate(classes):
        folder = os.path.join(split_dir, name)
        for file in sorted(os.listdir(folder)):
            paths.append(os.path.join(folder, file))
            images.append(read_ppm(paths[-1]).transpose(2, 0, 1))
            labels.append(label)
    if not images:
        sys.exit(f"error: no images under {split_dir}")
    return torch.from_numpy(np.stack(images)), torch.tensor(labels, dtype=torch.int64), paths, classes


def log(stage, text, log_file=None):
    line = f"[{stage}] {text}"
    # One write per line: print() writes the text and the newline separately, and the ranks
    # share one log, so their lines would interleave mid-line.
    sys.stdout.write(line + "\n")
    sys.stdout.flush()
    if log_file is not None:
        log_file.write(line + "\n")
        log_file.flush()


def save_checkpoint(path, model, classes, epoch):
    torch.save({"model": model.state_dict(), "classes": classes, "epoch": epoch}, path)


def load_checkpoint(path, device="cpu"):
    if not os.path.isfile(path):
        sys.exit(f"error: no checkpoint at {path}")
    state = torch.load(path, map_location=device)
    model = AlexNet(len(state["classes"]))
    model.load_state_dict(state["model"])
    return model.to(device).eval(), state["classes"]


def save_reprod_dict(path, arrays):
    """A reprod_log-style result file: a pickled dict of numpy arrays inside an object .npy."""
    np.save(path, {k: np.asarray(v) for k, v in arrays.items()}, allow_pickle=True)
