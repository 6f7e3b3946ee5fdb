#!/usr/bin/python3
"""The serving chain's server (the `web_service:` line of test_tipc/configs/alexnet_serving.txt):
a small HTTP inference server in Python's standard library, serving the TorchScript model.pt
of --model_dir (trans_serving.py) on 127.0.0.1:--port. It listens only once the model is
loaded, so an open port means ready.

  POST /predict   body: one binary PPM image; header X-Image-Name: its name (for errors)
  -> 200 {"class_id": 0, "label": "circle", "score": 0.584008}   (400 for a bad image)

The scores are infer.py's (softmax of the fp32 logits, batch 1), so they match the ground
truth of test_tipc/results/. SIGTERM ends it at once (the default action, restored in case
the parent ignored it)."""
import signal

signal.signal(signal.SIGTERM, signal.SIG_DFL)

import argparse  # noqa: E402 (the signal first: loading torch takes a while)
import json  # noqa: E402
import os  # noqa: E402
import sys  # noqa: E402
from http.server import BaseHTTPRequestHandler, HTTPServer  # noqa: E402

import numpy as np  # noqa: E402
import torch  # noqa: E402

import common  # noqa: E402


def handler_for(model, classes, device):
    class Predict(BaseHTTPRequestHandler):
        def do_POST(self):
            if self.path != "/predict":
                self.send_error(404, "POST /predict")
                return
            data = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            try:
                image = common.decode_ppm(data, self.headers.get("X-Image-Name", "the posted image"))
            except (ValueError, IndexError) as e:
                self.send_error(400, str(e))
                return
            with torch.no_grad():
                logits = model(torch.from_numpy(image.transpose(2, 0, 1)[None]).to(device)).float().cpu().numpy()
            e = np.exp(logits - logits.max(axis=1, keepdims=True))
            p = (e / e.sum(axis=1, keepdims=True))[0]
            k = int(p.argmax())
            body = json.dumps({"class_id": k, "label": classes[k], "score": float(p[k])}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
    return Predict


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--model_dir", required=True, help="holds model.pt and classes.txt (trans_serving.py)")
    p.add_argument("--use_gpu", default="", help="empty: CPU; GPU ids: CUDA")
    args = p.parse_args()
    torch.set_num_threads(1)
    device = common.pick_device(args.use_gpu not in ("", "null"))
    model = torch.jit.load(os.path.join(args.model_dir, "model.pt"), map_location=device).eval()
    classes = open(os.path.join(args.model_dir, "classes.txt")).read().split()
    server = HTTPServer(("127.0.0.1", args.port), handler_for(model, classes, device))
    common.log("serve", f"serving {args.model_dir}/model.pt on 127.0.0.1:{args.port}")
    sys.stdout.flush()
    server.serve_forever()


if __name__ == "__main__":
    main()
