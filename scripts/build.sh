#!/usr/bin/env bash
# Installs what building and testing need, then configures and builds everything in ./build:
# the tool, the tests, the man page.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh build demo test
scripts/configure.sh -DTIPC_TESTS=ON -DTIPC_MAN=ON
cmake --build build -j "$(nproc)"
