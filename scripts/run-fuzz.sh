#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz, see docs/fuzzing.md) with clang under ASan and
# UBSan in build-fuzz/, and runs each for SECONDS seconds, one after the other.
#
#   scripts/run-fuzz.sh SECONDS [TARGET...]     targets: npy npz pickle config extract trace_log (default: all)
#
# Each target starts from its seeds in tests/fuzz/corpus/<target>/ plus what earlier runs
# found (build-fuzz/fuzz-corpus/<target>/, kept between runs). An input that crashes, leaks,
# trips a sanitizer or a check, exceeds the per-input timeout or the memory limit is saved
# in the artifacts directory (build-fuzz/fuzz-artifacts/<target>/, or $TIPC_FUZZ_ARTIFACTS)
# and the script exits 1 once every target has run. Logs: build-fuzz/fuzz-logs/<target>.log.
# Environment: TIPC_FUZZ_JOBS (build parallelism, default nproc), TIPC_FUZZ_TIMEOUT
# (seconds per input, default 10), TIPC_FUZZ_RSS_MB (default 2048).
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"

usage() {
  echo "usage: scripts/run-fuzz.sh SECONDS [npy|npz|pickle|config|extract|trace_log ...]" >&2
  exit 2
}
[ $# -ge 1 ] || usage
seconds="$1"
shift
[[ "$seconds" =~ ^[1-9][0-9]*$ ]] || usage
all_targets=(npy npz pickle config extract trace_log)
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${all_targets[@]}")
for t in "${targets[@]}"; do
  [[ " ${all_targets[*]} " == *" $t "* ]] || { echo "run-fuzz: unknown target '$t'" >&2; usage; }
done

scripts/install-deps.sh build demo test
build="$root/build-fuzz"
cmake -S . -B "$build" -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DTIPC_FUZZ=ON >/dev/null
cmake --build "$build" -j "${TIPC_FUZZ_JOBS:-$(nproc)}" --target "${targets[@]/%/_fuzz}"

artifacts="${TIPC_FUZZ_ARTIFACTS:-$build/fuzz-artifacts}"
case "$artifacts" in /*) ;; *) artifacts="$root/$artifacts" ;; esac
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1}"

# The extraction target unpacks every input in a sandbox under $TMPDIR: tmpfs is several
# times faster than a disk, and a sandbox left behind by a crash goes with this directory.
scratch_parent=/dev/shm
[ -d "$scratch_parent" ] && [ -w "$scratch_parent" ] || scratch_parent="${TMPDIR:-/tmp}"
scratch="$(mktemp -d "$scratch_parent/tipc-run-fuzz.XXXXXX")"
trap 'rm -rf "$scratch"' EXIT

# One target: fuzzes for the time given, prints its last status, leaves its verdict in
# $build/fuzz-logs/<target>.status (0 = no finding).
fuzz_one() {
  local t="$1" corpus="$build/fuzz-corpus/$1" out="$artifacts/$1" log="$build/fuzz-logs/$1.log"
  mkdir -p "$corpus" "$build/fuzz-logs"
  rm -rf "$out"
  mkdir -p "$out"
  local dict=()
  [ -f "tests/fuzz/$t.dict" ] && dict=(-dict="$root/tests/fuzz/$t.dict")
  local status=0
  # The first corpus directory receives new inputs; the seeds in the tree stay untouched.
  TMPDIR="$scratch" "$build/${t}_fuzz" -max_total_time="$seconds" -timeout="${TIPC_FUZZ_TIMEOUT:-10}" \
    -rss_limit_mb="${TIPC_FUZZ_RSS_MB:-2048}" -artifact_prefix="$out/" -print_final_stats=1 \
    "${dict[@]}" "$corpus" "$root/tests/fuzz/corpus/$t" >"$log" 2>&1 || status=$?
  # The last status line (execs, cov, ft, corpus) and the final execution count.
  grep -E '^#[0-9]+' "$log" | tail -n 1 | sed "s/^/run-fuzz: $t: /" || true
  grep -E '^stat::number_of_executed_units' "$log" | sed "s/^/run-fuzz: $t: /" || true
  local found
  found=$(find "$out" -type f ! -name 'slow-unit-*' | sort)
  if [ "$status" -ne 0 ] || [ -n "$found" ]; then
    echo "run-fuzz: $t FOUND A PROBLEM (exit $status); the end of $log:" >&2
    tail -n 60 "$log" >&2
    [ -n "$found" ] && echo "run-fuzz: $t: inputs saved: $found" >&2
    echo 1 >"$build/fuzz-logs/$t.status"
  else
    rmdir "$out" 2>/dev/null || true
    echo 0 >"$build/fuzz-logs/$t.status"
  fi
}

# One target per core at a time: each fuzzer is single-threaded.
parallel="${TIPC_FUZZ_PARALLEL:-$(nproc)}"
for t in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$parallel" ]; do wait -n || true; done
  echo "run-fuzz: $t for ${seconds}s"
  fuzz_one "$t" &
done
wait

failed=()
for t in "${targets[@]}"; do
  [ "$(cat "$build/fuzz-logs/$t.status" 2>/dev/null || echo 1)" = 0 ] || failed+=("$t")
done

if [ ${#failed[@]} -gt 0 ]; then
  echo "run-fuzz: findings in: ${failed[*]} (inputs in $artifacts)" >&2
  exit 1
fi
echo "run-fuzz: no findings in ${targets[*]} (${seconds}s each)"
