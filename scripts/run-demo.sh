#!/usr/bin/env bash
# The main job: the demo AlexNet chain. Until the executor lands it prints the plan.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
build/tipc-run test_tipc/configs/alexnet.txt lite_train_lite_infer --dry-run "$@"
