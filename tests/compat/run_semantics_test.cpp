// The one choice of a run's semantics: everything --compat changes, and nothing without it.
#include "compat/run_semantics.h"

#include <gtest/gtest.h>

#include "compat/reference_status_log.h"
#include "report/results_log_reporter.h"

namespace tipc::compat {
namespace {
namespace TIPC_TEST_FILE {

TEST(RunSemantics, TheReferenceAppendsTrainLogsStartsMultiNodeCommandsHereAndSaysNoVerdict) {
  const RunSemantics reference = run_semantics(true, "/repo", false);
  EXPECT_EQ(reference.appended_logs, std::set<plan::StageKind>{plan::StageKind::kTrain});
  EXPECT_TRUE(reference.multi_node_here);
  EXPECT_FALSE(reference.says_verdict);
  EXPECT_NE(dynamic_cast<const ReferenceStatusLog*>(reference.results_log.get()), nullptr);
}

TEST(RunSemantics, TipcRunsOwnTruncatesEveryLogKeepsMultiNodeCommandsOffThisMachineAndSaysItsVerdict) {
  const RunSemantics own = run_semantics(false, "/repo", false);
  EXPECT_TRUE(own.appended_logs.empty());
  EXPECT_FALSE(own.multi_node_here);
  EXPECT_TRUE(own.says_verdict);
  EXPECT_NE(dynamic_cast<const report::ResultsLogReporter*>(own.results_log.get()), nullptr);
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::compat
