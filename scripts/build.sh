#!/usr/bin/env bash
# Configures and builds tipc-run in ./build (warnings are errors, as in CI).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build -G Ninja -DTIPC_WERROR=ON >/dev/null
cmake --build build -j "$(nproc)"
