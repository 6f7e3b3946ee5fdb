#!/usr/bin/env bash
# The demo's chains on a lent GPU machine (bench/RESULTS.md, "The demo on a GPU"), in two steps:
#
#   scripts/gpu-demo-check.sh pack     here: copies build/tipc-run and the shared libraries it
#                                      needs beyond glibc into .gpu-check/ (RUNPATH $ORIGIN/lib,
#                                      so the stages it starts inherit no library path;
#                                      .gitignore lists .gpu-check/: name it in the device's carry)
#   scripts/gpu-demo-check.sh run [LABEL...]
#                                      there, in the repository root, with .gpu-check/ carried:
#                                      runs each chain (or those named: lite whole whole_default
#                                      onnx serving) with that machine's python3, prints each
#                                      verdict and the stages that failed; logs under $OUT if set;
#                                      then (issue 40) the lite chain with GPU 0's UUID in
#                                      CUDA_VISIBLE_DEVICES, the GPU figures each report holds,
#                                      and a GPU train that hangs (--idle-timeout) with its stack
#
# The GPU machine has its own PyTorch and no Debian packages, and cannot build tipc-run.
# Exits non-zero when a chain does not pass.
set -uo pipefail
cd "$(dirname "$0")/.."
pack=.gpu-check

pack() {
  command -v patchelf >/dev/null || apt-get install -y patchelf >/dev/null
  rm -rf "$pack" && mkdir -p "$pack/lib" || exit 1
  cp build/tipc-run "$pack/" || exit 1
  ldd build/tipc-run | awk '$3 ~ /^\// {print $3}' | while read -r lib; do
    case "${lib##*/}" in libc.so*|libm.so*|ld-linux*) ;; *) cp -L "$lib" "$pack/lib/" ;; esac
  done
  patchelf --set-rpath '$ORIGIN/lib' "$pack/tipc-run"
  du -sh "$pack"
}

# LABEL MODE CONFIG: one chain with this machine's python3, unless LABEL is not among those
# asked for; its verdict and failures.
chain() {
  local label=$1 mode=$2 config=$3 log=${OUT:-/tmp}/gpu-check-$1.log status
  [ ${#asked[@]} -eq 0 ] || [[ " ${asked[*]} " == *" $label "* ]] || return 0
  rm -rf "test_tipc/output/alexnet/$mode"
  timeout 300 "$pack/tipc-run" "$config" "$mode" --python "$(command -v python3)" >"$log" 2>&1
  status=$?
  echo "== $label (ATEN_CPU_CAPABILITY=${ATEN_CPU_CAPABILITY:-unset}): exit $status"
  grep -E '^\[[0-9]+/[0-9]+\] (FAIL|TIMEOUT) ' "$log" | cut -c1-300 | head -5
  grep -E '^tipc-run: ([0-9]+ passed|PASS|FAIL|NOTHING)' "$log"
  return $status
}

# The lite chain again with GPU 0 named by its UUID: the same verdict as by index.
by_uuid() {
  local uuid
  uuid=$(nvidia-smi --query-gpu=uuid --format=csv,noheader | head -1)
  CUDA_VISIBLE_DEVICES=$uuid chain uuid lite_train_lite_infer test_tipc/configs/alexnet.txt
}

# The GPU figures of the last lite run, in report.json, junit.xml and summary.md.
gpu_figures() {
  local dir=test_tipc/output/alexnet/lite_train_lite_infer
  echo "== GPU figures"
  grep -o '"memory_peak_mib": [0-9.]*' "$dir/report.json" | sort | uniq -c | head -5
  grep -c 'gpu_memory_peak_mib' "$dir/junit.xml"
  grep -o '"gpu_devices": \[[^]]*\]' "$dir/report.json" | cut -c1-300
}

# A train that holds the GPU and hangs: TIMEOUT after 20 s of silence, its stack in its log.
hang() {
  local wrapper=$PWD/$pack/hang-python log=${OUT:-/tmp}/gpu-check-hang.log
  printf '#!/bin/sh\nexec python3 -c "import torch, time; x = torch.ones(1, device=\\"cuda\\"); print(x, flush=True); time.sleep(100000)"\n' >"$wrapper"
  chmod +x "$wrapper"
  rm -rf test_tipc/output/alexnet/lite_train_lite_infer
  timeout 300 "$pack/tipc-run" test_tipc/configs/alexnet.txt lite_train_lite_infer --python "$wrapper" \
    --idle-timeout 20 --only train >"$log" 2>&1
  echo "== hang: exit $? (1 expected)"
  grep -m3 -E 'TIMEOUT|no output for' "$log"
  grep -h -A4 'most recent call first' test_tipc/output/alexnet/lite_train_lite_infer/*.log | head -12
}

run() {
  asked=("$@")
  export TIPC_DIALECT_DIR=$PWD/configs/dialects
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  grep -o -m1 ' avx512f' /proc/cpuinfo || echo "no avx512f"
  local failed=0
  chain lite lite_train_lite_infer test_tipc/configs/alexnet.txt || failed=1
  chain whole whole_infer test_tipc/configs/alexnet.txt || failed=1
  ATEN_CPU_CAPABILITY=default chain whole_default whole_infer test_tipc/configs/alexnet.txt || failed=1
  chain onnx paddle2onnx_infer test_tipc/configs/alexnet_paddle2onnx.txt || failed=1
  chain serving serving_infer test_tipc/configs/alexnet_serving.txt || failed=1
  if [ ${#asked[@]} -eq 0 ]; then
    gpu_figures
    by_uuid || failed=1
    hang
  fi
  return $failed
}

case "${1:-}" in
  pack) pack ;;
  run) shift; run "$@" ;;
  *) echo "usage: scripts/gpu-demo-check.sh pack|run" >&2; exit 2 ;;
esac
