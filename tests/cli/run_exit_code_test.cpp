// cli/run_exit_code: the exit codes of a run as `git bisect run` reads them (--bisect);
// tests/history/run_recording_test.cpp runs a bisection through tipc-run.
#include "cli/run_exit_code.h"

#include <sstream>

#include <gtest/gtest.h>

#include "core/error.h"

namespace tipc::cli {
namespace {
namespace TIPC_TEST_FILE {

TEST(BisectExitCode, GoodBadAndSkipAsGitBisectRunReadsThem) {
  EXPECT_EQ(bisect_exit_code(kExitPassed), 0);
  EXPECT_EQ(bisect_exit_code(kExitFailed), 1);
  EXPECT_EQ(bisect_exit_code(kExitRegressed), 1);
  EXPECT_EQ(bisect_exit_code(kExitNothingRan), 125);
  EXPECT_EQ(bisect_exit_code(kExitUsage), 125);
  EXPECT_EQ(bisect_exit_code(kExitInterrupted), 130);  // stops the bisection
}

TEST(GatedExitCode, APassedRunThatRegressedExitsWithTheGatesCodeAndSaysWhy) {
  std::ostringstream out;
  EXPECT_EQ(gated_exit_code(kExitPassed, kExitRegressed, out), kExitRegressed);
  EXPECT_NE(out.str().find("the run passed, and regressed against its baseline"), std::string::npos) << out.str();
  std::ostringstream quiet;
  EXPECT_EQ(gated_exit_code(kExitFailed, kExitRegressed, quiet), kExitFailed);  // the failure says more
  EXPECT_EQ(gated_exit_code(kExitPassed, kExitPassed, quiet), kExitPassed);
  EXPECT_EQ(quiet.str(), "");
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::cli
