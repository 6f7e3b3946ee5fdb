#!/usr/bin/python3
"""The serving chain's conversion (the `trans_model:` line of test_tipc/configs/alexnet_serving.txt),
with paddle_serving_client.convert's flags: exports the checkpoint `<dirname>/<model_filename>`
through export_model.py into --serving_server (TorchScript model.pt, which serve.py serves, and
classes.txt), and puts the class names, all a client needs, into --serving_client."""
import argparse
import os
import shutil
import sys

import common
import export_model


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--dirname", required=True, help="directory holding the checkpoint")
    p.add_argument("--model_filename", default=common.CHECKPOINT_NAME)
    p.add_argument("--params_filename", help="unused: the checkpoint holds the weights")
    p.add_argument("--serving_server", required=True)
    p.add_argument("--serving_client", required=True)
    args = p.parse_args()
    sys.argv = [sys.argv[0], "--checkpoint", os.path.join(args.dirname, args.model_filename),
                "--output-dir", args.serving_server]
    export_model.main()
    os.makedirs(args.serving_client, exist_ok=True)
    shutil.copy(os.path.join(args.serving_server, "classes.txt"), args.serving_client)
    common.log("export", f"serving model in {args.serving_server}, client files in {args.serving_client}")


if __name__ == "__main__":
    main()
