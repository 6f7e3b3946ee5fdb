#!/usr/bin/env bash
# The main job: builds tipc-run and runs the demo AlexNet chain (train with 2 ranks,
# eval, export, inference matrix) on this machine's CPU and GPUs, and writes the reports
# and the acceptance bundle.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
build/tipc-run test_tipc/configs/alexnet.txt lite_train_lite_infer \
  --bundle test_tipc/output/alexnet/lite_train_lite_infer/acceptance.tar.gz "$@"
