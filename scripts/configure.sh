#!/usr/bin/env bash
# Configures ./build the one way the scripts share: Ninja, warnings as errors (as in CI),
# -O1 without debug information, and the diff kernels at -O3 (CMakeLists.txt): -O1 takes a
# third less compile time than -O2 on CI's 2 cores (tipc-run alone: 141 against 212 CPU
# seconds), and tipc-run's own time goes to starting processes and to those kernels, so
# bench/ measured no difference (bench/RESULTS.md). Configure a build directory of your own
# with -DCMAKE_BUILD_TYPE=RelWithDebInfo to debug. And the
# library as a unity build (TIPC_UNITY: about half the CPU time of a build from scratch;
# a developer's own build directory leaves it off, so an edit recompiles one file).
#
#   scripts/configure.sh [-DOPTION=VALUE...]    e.g. -DTIPC_TESTS=OFF -DTIPC_MAN=OFF
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -G Ninja -DTIPC_WERROR=ON -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG" \
  -DTIPC_UNITY=ON "$@" >/dev/null
