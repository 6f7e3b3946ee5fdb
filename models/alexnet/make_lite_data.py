#!/usr/bin/python3
"""Writes lite_data/lite_data.tar: a small, deterministic, synthetic ImageFolder data set
(alexnet/{train,val,test}/<class>/<class>_<n>.ppm, 32x32 binary PPM images of four shape
classes with random colours, positions and noise). Byte-for-byte reproducible: fixed seed,
sorted entries, zeroed times and owners.

Usage: models/alexnet/make_lite_data.py [OUTPUT.tar]"""
import io
import os
import sys
import tarfile

import numpy as np

SIZE = 32
CLASSES = ["circle", "cross", "hstripes", "vstripes"]
COUNTS = {"train": 24, "val": 8, "test": 6}


def draw(kind, rng):
    background = rng.uniform(0.0, 0.35, size=3)
    colour = rng.uniform(0.55, 1.0, size=3)
    image = np.tile(background, (SIZE, SIZE, 1))
    yy, xx = np.mgrid[0:SIZE, 0:SIZE]
    cy, cx = rng.integers(10, 22, size=2)
    if kind == "circle":
        radius = rng.integers(5, 10)
        mask = (yy - cy) ** 2 + (xx - cx) ** 2 <= radius ** 2
    elif kind == "cross":
        width = rng.integers(2, 4)
        mask = (abs(yy - cy) < width) | (abs(xx - cx) < width)
    elif kind == "hstripes":
        period = rng.integers(4, 7)
        mask = (yy // (period // 2)) % 2 == 0
    else:
        period = rng.integers(4, 7)
        mask = (xx // (period // 2)) % 2 == 0
    image[mask] = colour
    image += rng.normal(0.0, 0.05, size=image.shape)
    return (np.clip(image, 0.0, 1.0) * 255).round().astype(np.uint8)


def ppm(image):
    return b"P6\n%d %d\n255\n" % (image.shape[1], image.shape[0]) + image.tobytes()


def add(tar, name, data=None):
    info = tarfile.TarInfo(name)
    info.mtime, info.uid, info.gid, info.uname, info.gname = 0, 0, 0, "", ""
    if data is None:
        info.type, info.mode = tarfile.DIRTYPE, 0o755
        tar.addfile(info)
    else:
        info.size, info.mode = len(data), 0o644
        tar.addfile(info, io.BytesIO(data))


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "../../lite_data/lite_data.tar")
    rng = np.random.default_rng(20261122)
    entries = {}
    for split, count in COUNTS.items():
        for kind in CLASSES:
            for n in range(count):
                entries[f"alexnet/{split}/{kind}/{kind}_{n:03d}.ppm"] = ppm(draw(kind, rng))
    directories = sorted({os.path.dirname(p) for p in entries} | {"alexnet"} |
                         {f"alexnet/{split}" for split in COUNTS})
    with tarfile.open(out, "w", format=tarfile.USTAR_FORMAT) as tar:
        for d in directories:
            add(tar, d)
        for name in sorted(entries):
            add(tar, name, entries[name])
    print(f"wrote {out}: {len(entries)} images, {os.path.getsize(out)} bytes")


if __name__ == "__main__":
    main()
