#!/usr/bin/env bash
# README command 1: installs what building tipc-run and running the demo need (not what
# only the tests use), builds the tipc-run target alone, and runs the demo AlexNet chain
# twice: lite_train_lite_infer (train with 2 ranks, eval, export, inference matrix) and
# whole_infer (inference of the shipped pretrained checkpoint against its ground truth);
# then its two other chains, natively planned from their positional configs: ONNX
# (paddle2onnx_infer: conversion, OpenCV DNN inference) and serving (serving_infer: an HTTP
# server on port 18093 and its client), both held to the same ground truth; and its C++
# chain (cpp_infer), traced from its runner test_tipc/test_inference_cpp.sh: the program
# built with CMake against libtorch, its inference matrix held to the same ground truth.
# Each writes its reports and an acceptance bundle under test_tipc/output/alexnet/<mode>/.
# One line per phase when it starts and when it ends, with its duration.
#
#   scripts/run-demo.sh [TIPC-RUN OPTIONS...]    the options go to both runs, e.g. -j 1
#
# Exits non-zero when any run fails (with the first failing run's exit code).
set -euo pipefail
cd "$(dirname "$0")/.."

config=test_tipc/configs/alexnet.txt
output=test_tipc/output/alexnet
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
# Runs CONFIG in MODE as a phase; the first failing run's exit code becomes the script's.
run_chain() {
  local chain_config="$1" mode="$2" run_status=0
  shift 2
  phase "running the chain $chain_config $mode" \
    build/tipc-run "$chain_config" "$mode" --bundle "$output/$mode/acceptance.tar.gz" "$@" || run_status=$?
  [ $status -ne 0 ] || status=$run_status
}
run_chain "$config" lite_train_lite_infer "$@"
run_chain "$config" whole_infer "$@"
run_chain test_tipc/configs/alexnet_paddle2onnx.txt paddle2onnx_infer "$@"
run_chain test_tipc/configs/alexnet_serving.txt serving_infer "$@"
run_chain test_tipc/configs/alexnet_cpp.txt cpp_infer "$@"

echo "run-demo: phases:"
printf '  %s\n' "${phases[@]}"
echo "run-demo: tipc-run is build/tipc-run; 'cmake --install build' puts it on the PATH (/usr/local/bin) with its man page"
exit $status
