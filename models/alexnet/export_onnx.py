#!/usr/bin/python3
"""The ONNX chain's converter (the `2onnx:` line of test_tipc/configs/alexnet_paddle2onnx.txt),
with paddle2onnx's flags: exports the checkpoint `<model_dir>/<model_filename>` through
export_model.py into the directory of --save_file, which must be named model.onnx (and gets
classes.txt beside it), and checks the ONNX graph with onnx.checker when asked to."""
import argparse
import os
import sys

import common
import export_model

EXPORTED_OPSET = 11  # the opset export_model.py writes


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--model_dir", required=True, help="directory holding the checkpoint")
    p.add_argument("--model_filename", default=common.CHECKPOINT_NAME)
    p.add_argument("--params_filename", help="unused: the checkpoint holds the weights")
    p.add_argument("--save_file", required=True)
    p.add_argument("--opset_version", type=int, default=EXPORTED_OPSET)
    p.add_argument("--enable_onnx_checker", type=common.str2bool, default=False)
    args = p.parse_args()
    if os.path.basename(args.save_file) != "model.onnx":
        sys.exit(f"error: --save_file must name a model.onnx (the file the export writes), not {args.save_file}")
    if args.opset_version != EXPORTED_OPSET:
        sys.exit(f"error: --opset_version {args.opset_version}: the export writes opset {EXPORTED_OPSET}")
    output_dir = os.path.dirname(args.save_file) or "."
    sys.argv = [sys.argv[0], "--checkpoint", os.path.join(args.model_dir, args.model_filename),
                "--output-dir", output_dir]
    export_model.main()
    if args.enable_onnx_checker:
        import onnx
        onnx.checker.check_model(onnx.load(args.save_file))
        common.log("export", f"onnx.checker: {args.save_file} is a valid ONNX model")


if __name__ == "__main__":
    main()
