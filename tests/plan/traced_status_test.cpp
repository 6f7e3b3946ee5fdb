// A traced runner's status lines: which call each belongs to, and whose exit status each
// reports, found by the status probes on a real trace (a runner written by the test, with
// PaddleClas' test_paddle2onnx.sh's `status_check $last_status` after a second call).
#include "plan/traced_status.h"

#include <gtest/gtest.h>

#include "support/temp_dir.h"
#include "trace/tracer.h"

namespace tipc::plan {
namespace {
namespace TIPC_TEST_FILE {

// A line no call claims does not shift the others: a later call still gets its own line,
// and an earlier call without a line never takes a line that a later call claims.
TEST(TracedStatus, ALineOfACommandNeverStartedIsPassedOverNotShiftingTheOthers) {
  EXPECT_EQ(assign_status_lines({"ok - python export.py", "ok - python infer.py --gpu", "ok - python infer.py --cpu"},
                                {"python infer.py --gpu > a.log", "python infer.py --cpu > b.log"}),
            (std::vector<std::optional<std::size_t>>{1, 2}));
  EXPECT_EQ(assign_status_lines({"ok - python eval.py b", "ok - python train.py a"},
                                {"python train.py a", "python eval.py b"}),
            (std::vector<std::optional<std::size_t>>{std::nullopt, 0}));
}

// Line 2 reports the conversion's `$last_status` (set before the inference, never after),
// line 3 its own call's `$?`, line 4 a fixed 0 (an export the runner does not run).
const char* const kRunner = R"(status_check() {
  if [ "$1" -eq 0 ]; then w="Run successfully"; else w="Run failed"; fi
  echo -e "\033[33m $w with command - m - $2 - out/x.log ! \033[0m" >> out/results_python.log
}
mkdir -p out
python3.7 convert.py
last_status=$?
status_check $last_status "python3.7 convert.py"
python3.7 infer.py --model=out/model.onnx
status_check $last_status "python3.7 infer.py --model=out/model.onnx"
python3.7 eval.py
status_check $? "python3.7 eval.py"
echo "python3.7 export.py"
status_check 0 "python3.7 export.py"
)";

TEST(StatusSources, TheProbesFindTheCallWhoseExitStatusEachLineReports) {
  test::TempDir repo;
  repo.write("test_tipc/test_paddle2onnx.sh", kRunner);
  repo.write("test_tipc/configs/m.txt", "===========================paddle2onnx_params===========================\n");
  trace::TraceRequest request;
  request.repo_root = repo.path().string();
  request.runner = "test_tipc/test_paddle2onnx.sh";
  request.config_arg = "test_tipc/configs/m.txt";
  request.mode = "paddle2onnx_infer";
  request.interpreter = "python3.7";
  request.timeout_seconds = 20;
  const auto trace = trace::trace_runner(request);
  ASSERT_TRUE(trace) << trace.error().str();
  ASSERT_EQ(trace->calls.size(), 3u);
  const auto probes = trace::trace_each_call_failing(request, trace->calls.size(), 2);
  ASSERT_EQ(probes.size(), 3u);
  for (const auto& probe : probes) ASSERT_TRUE(probe) << probe.error().str();
  EXPECT_EQ(status_sources(*trace, probes), (std::vector<std::optional<std::size_t>>{0, 0, 2, std::nullopt}));

  // A probe that took another path (fewer calls) tells nothing: its call is no line's source.
  auto shorter = probes;
  shorter[0]->calls.pop_back();
  EXPECT_EQ(status_sources(*trace, shorter),
            (std::vector<std::optional<std::size_t>>{std::nullopt, std::nullopt, 2, std::nullopt}));
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::plan
