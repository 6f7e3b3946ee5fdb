#!/usr/bin/env bash
# The whole test suite again, built with AddressSanitizer + UndefinedBehaviorSanitizer in
# ./build-asan (CI runs it after the plain suite). -O0: at -O1 GCC takes twice as long
# per file, and the suite is bound by its child processes, not by tipc-run's own speed.
# Any sanitizer report fails the test that triggered it.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh build demo test
cmake -S . -B build-asan -G Ninja -DTIPC_WERROR=ON -DTIPC_SANITIZE=ON -DCMAKE_BUILD_TYPE=None \
  -DCMAKE_CXX_FLAGS="-O0" -DTIPC_UNITY=ON >/dev/null
cmake --build build-asan -j "$(nproc)"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
# Left to the plain suite: the corpus traces (TraceConformance: ~900 runner scripts in bash
# with ~15 000 stand-in calls) and DefaultModeConformance (the same runners through ~330 dry
# runs of the binary) exercise bash and the recorded corpus, not memory safety; the
# tracer's own code runs here through its unit tests (Tracer.*). The demo gate's two
# throughput tests (~50 s, run alone) measure the demo's PyTorch over 16 to 48 runs: the
# code they reach in tipc-run (compare --runs, run pools) runs here in CompareCommand.* and
# RunPool.*; and the reproduction flow under PyTorch's plain kernels is the same tipc-run
# work as the flow that runs here natively. A node lost on the local Slurm cluster (~50 s,
# mostly Slurm's SlurmdTimeout) and the 100-config suite over it (~20 s) wait on Slurm: the
# executor's handling of both runs here in SlurmExecutorTest.* and SlurmJobState.*.
# The demo under every instruction set and rank count (138 s here) repeats the demo chain
# that DemoChain.RunsGreenOnCpuWithTwoRanks* runs here, under other PyTorch kernels; the
# serving chain's hundred interrupts (155 s) repeat the executor's interrupt handling that
# ProcessExecutorTest.AHundredTimeoutsAndAHundredInterrupts* runs here. Every demo chain in one
# command (SuiteModesDemo, 33 s plain) runs the chains that DemoChain*, DemoChains.Onnx*,
# DemoChains.ServingChainServes* and DemoCppChain run here, through the suite planning that
# SuiteModes.* runs here. The corpus repositories as directories in every MODE
# (Repositories/SuiteCorpus, 34 s plain) trace the runners that TracedChains traces here, through
# the suite planning of SuiteModes.* and PlanConfigs.*. The corpus replays
# that stay (TracedChains, ResultsLogConformance) take a smaller sample under ASan.
left_out='TraceConformance.*:DefaultModeConformance.*:DemoGate.TheSameCode*:DemoGate.AnInjectedSlowdown*'
left_out+=':ReproductionDemo.TheThresholdsHold*:SlurmMultiNodeFaults.ANodeStopped*:SlurmMultiNodeSuite.*'
left_out+=':DemoChain.GivesTheSameGreenVerdictsUnderEveryInstructionSet*:DemoChains.ServingChainSurvivesAHundredInterrupts*'
left_out+=':SuiteModesDemo.*:Repositories/SuiteCorpus.*'
# One process per shard, not one per test as CTest runs them: a sanitized test binary takes
# seconds to start and exit (CI's machine: 2.0-2.9 s for a test of microseconds, 1287 of
# them), which alone outlasted CI's time. Each shard is one GoogleTest process over every
# nproc-th test; its log is build-asan/asan-shard-K.log, printed when the shard fails.
shards="$(nproc)"
pids=()
for ((k = 0; k < shards; k++)); do
  (cd build-asan && GTEST_TOTAL_SHARDS="$shards" GTEST_SHARD_INDEX="$k" \
    ./tipc-tests --gtest_filter="-$left_out" --gtest_brief=1 >"asan-shard-$k.log" 2>&1) &
  pids+=($!)
done
status=0
for k in "${!pids[@]}"; do
  if wait "${pids[$k]}"; then
    echo "run-sanitizers: shard $k: $(grep -E '^\[  PASSED  \]' "build-asan/asan-shard-$k.log")"
  else
    echo "run-sanitizers: shard $k FAILED; its log:" >&2
    cat "build-asan/asan-shard-$k.log" >&2
    status=1
  fi
done
# The fuzz seeds' own programs (sanitized too).
ctest --test-dir build-asan --output-on-failure -j "$(nproc)" -R '^FuzzSeeds\.' || status=1
exit $status
