#!/usr/bin/env bash
# README command 1: installs what building tipc-run and running the demo need (not what
# only the tests use), builds the tipc-run target alone, and runs the demo repository's
# TIPC as CI would, in one command over test_tipc/configs and its usual CI set (the
# `modes:` of test_tipc/tipc-run.yaml, spelled out here). Each config runs in every one of
# those MODEs its chain takes, all in one schedule:
#   lite_train_lite_infer  the AlexNet train/inference chain: train with 2 ranks, eval,
#                          export, inference matrix (the 2-node config's train needs a Slurm
#                          cluster: UNSUPPORTED here, with the reason)
#   whole_infer            the shipped pretrained checkpoint's inference against its ground truth
#   paddle2onnx_infer      the ONNX chain: conversion, OpenCV DNN inference
#   serving_infer          the serving chain: an HTTP server on port 18093 and its client
#   cpp_infer              the C++ chain, traced from its runner test_tipc/test_inference_cpp.sh:
#                          a program built with CMake against libtorch
# (the ONNX and serving chains natively planned from their positional configs). The
# reports (a verdict per config and MODE) and an acceptance bundle go to test_tipc/output/.
# One line per phase when it starts and when it ends, with its duration.
#
#   scripts/run-demo.sh [TIPC-RUN OPTIONS...]    the options go to the run, e.g. -j 1
#
# Exits non-zero when the build or the run fails (with the run's exit code).
set -euo pipefail
cd "$(dirname "$0")/.."

configs=test_tipc/configs
modes=lite_train_lite_infer,whole_infer,paddle2onnx_infer,serving_infer,cpp_infer
phases=()

# Runs "$@" as the phase named $1, with a line when it starts and one when it ends.
phase() {
  local name="$1"
  shift
  local start=$SECONDS status=0
  echo "run-demo: $name ..."
  "$@" || status=$?
  local line="$name: $((SECONDS - start)) s$([ $status -eq 0 ] || echo ", FAILED (exit $status)")"
  echo "run-demo: $line"
  phases+=("$line")
  return $status
}

# (`&&`: set -e does not apply inside a function called from `phase`'s `||`.)
configure_and_build() {
  # Tests are off: they need packages that only README command 2 installs. The man page is
  # built, so that `cmake --install build` afterwards installs tipc-run with it.
  scripts/configure.sh -DTIPC_TESTS=OFF -DTIPC_MAN=ON &&
    cmake --build build -j "$(nproc)" --target tipc-run tipc-man
}

phase "installing packages" scripts/install-deps.sh build demo
phase "building tipc-run" configure_and_build

status=0
phase "running $configs in $modes" \
  build/tipc-run "$configs" "$modes" --bundle test_tipc/output/acceptance.tar.gz "$@" || status=$?

echo "run-demo: phases:"
printf '  %s\n' "${phases[@]}"
echo "run-demo: tipc-run is build/tipc-run; 'cmake --install build' puts it on the PATH (/usr/local/bin) with its man page"
exit $status
