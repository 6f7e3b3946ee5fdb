// Each warning once per suite, with the number of configs it applies to (issue 38, item 2):
// a directory suite of configs of one layout printed the same warnings once per config. -q
// leaves only errors and the verdict.
#include "report/plan_warnings.h"

#include <sstream>

#include <gtest/gtest.h>

#include "support/fake_config.h"
#include "support/run_binary.h"
#include "support/temp_dir.h"

namespace tipc::report {
namespace {
namespace TIPC_TEST_FILE {

plan::Plan plan_warning(const std::vector<Diagnostic>& warnings) {
  plan::Plan plan;
  plan.warnings = warnings;
  return plan;
}

TEST(PlanWarnings, TheSameFindingAtTheSameLineOfManyConfigsIsOneWarningWithTheirNumber) {
  std::vector<plan::Plan> plans;
  for (const char* config : {"a.txt", "b.txt", "c.txt"}) {
    plans.push_back(plan_warning({{config, 16, "--epochs", "mode 'x' is not listed"},
                                  {"test_tipc/run.sh", 0, "", "the runner reported errors"},
                                  {"test_tipc/run.sh", 0, "", "the runner reported errors"}}));
  }
  plans.push_back(plan_warning({{"d.txt", 17, "--epochs", "mode 'x' is not listed"}}));
  std::ostringstream out;
  print_plan_warnings(plans, out);
  EXPECT_EQ(out.str(),
            "tipc-run: warning: 3 configs, e.g. a.txt:16: mode 'x' is not listed\n"
            "tipc-run: warning: test_tipc/run.sh: the runner reported errors (3 configs)\n"
            "tipc-run: warning: d.txt:17: mode 'x' is not listed\n");
}

TEST(PlanWarnings, ASuiteOfConfigsWithOneFindingWarnsOnceAndQuietNever) {
  test::TempDir repo;
  repo.write(test::kPaddleOcrMarker, "");
  std::string crlf;
  for (const char c : test::fake_config()) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  for (const char* name : {"a", "b", "c"}) repo.write(std::string("test_tipc/configs/suite/") + name + ".txt", crlf);
  const auto args = [](std::vector<std::string> extra) {
    std::vector<std::string> all = {"test_tipc/configs/suite", "lite_train_lite_infer", "--gpus", "none", "--dry-run"};
    all.insert(all.end(), extra.begin(), extra.end());
    return all;
  };
  const auto dry = test::run_tipc(repo.path().string(), args({}));
  ASSERT_EQ(dry.exit_code, 0) << dry.err;
  std::size_t warnings = 0;
  for (std::size_t at = dry.err.find("warning:"); at != std::string::npos; at = dry.err.find("warning:", at + 1)) {
    ++warnings;
  }
  EXPECT_EQ(warnings, 1u) << dry.err;
  EXPECT_NE(dry.err.find("tipc-run: warning: 3 configs, e.g. test_tipc/configs/suite/a.txt: "), std::string::npos)
      << dry.err;
  EXPECT_NE(dry.err.find("lines end in CR LF"), std::string::npos) << dry.err;

  const auto quiet = test::run_tipc(repo.path().string(), args({"-q"}));
  ASSERT_EQ(quiet.exit_code, 0) << quiet.err;
  EXPECT_EQ(quiet.err, "") << quiet.err;
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::report
