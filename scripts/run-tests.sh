#!/usr/bin/env bash
# The test command: installs what is missing, builds, runs every test with CTest; then one
# line with each phase's duration (README.md's figures come from it).
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS
scripts/install-deps.sh build demo test
installed=$SECONDS
scripts/build.sh  # its own install step finds nothing missing now
built=$SECONDS
status=0
ctest --test-dir build --output-on-failure -j "$(nproc)" || status=$?
echo "run-tests: installing $((installed - start)) s, building $((built - installed)) s," \
  "CTest $((SECONDS - built)) s: $((SECONDS - start)) s in all$([ $status -eq 0 ] || echo ", FAILED (exit $status)")"
exit $status
