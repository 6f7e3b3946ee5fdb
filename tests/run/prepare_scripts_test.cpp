// run/prepare_scripts: each config's test_tipc/prepare.sh, one after the other, through the
// scheduler and a fake executor: what it starts, and how a failure and an interrupt end it.
#include "run/prepare_scripts.h"

#include <gtest/gtest.h>

#include "support/fake_executor.h"
#include "support/temp_dir.h"

namespace tipc::run {
namespace {
namespace TIPC_TEST_FILE {

std::vector<plan::Plan> two_configs() {
  std::vector<plan::Plan> plans(2);
  plans[0].config_path = "test_tipc/configs/a.txt";
  plans[0].mode = "lite_train_lite_infer";
  plans[1].config_path = "test_tipc/configs/b.txt";
  plans[1].mode = "whole_infer";
  return plans;
}

class PrepareScripts : public ::testing::Test {
 protected:
  test::TempDir repo_;
  FakeExecutor fake_;

  Result<void> run(const std::vector<plan::Plan>& plans) {
    SchedulerOptions options;
    options.repo_root = repo_.path().string();
    return run_prepare_scripts(plans, fake_, options, [this] { return fake_.interrupt_fired(); });
  }
};

TEST_F(PrepareScripts, EachConfigsScriptRunsInTurnWithItsConfigAndMode) {
  ASSERT_TRUE(run(two_configs()));
  ASSERT_EQ(fake_.records.size(), 2u);
  const Launch& first = fake_.records[0].launch;
  EXPECT_EQ(first.argv.at(0), "bash");
  EXPECT_EQ(first.argv.at(1), "test_tipc/prepare.sh");
  EXPECT_TRUE(first.argv.at(2).ends_with("test_tipc/configs/a.txt")) << first.argv.at(2);
  EXPECT_EQ(first.argv.at(3), "lite_train_lite_infer");
  EXPECT_EQ(fake_.records[1].launch.argv.at(3), "whole_infer");
  EXPECT_GE(fake_.records[1].start, fake_.records[0].end);  // one after the other
}

TEST_F(PrepareScripts, AFailedScriptStopsTheRestAndNamesItsConfigAndLog) {
  fake_.default_script.exit_code = 3;
  const auto result = run(two_configs());
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().exit_code, kExitFailed);
  const std::string message = result.error().str();
  EXPECT_EQ(message.rfind("test_tipc/configs/a.txt: test_tipc/prepare.sh failed (", 0), 0u) << message;
  EXPECT_NE(message.find("prepare.log"), std::string::npos) << message;
  EXPECT_EQ(fake_.records.size(), 1u);
}

TEST_F(PrepareScripts, AnInterruptEndsItWithExitCode130) {
  fake_.default_script.seconds = 10;
  fake_.interrupt_at = 2;
  const auto result = run(two_configs());
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().exit_code, kExitInterrupted);
  EXPECT_NE(result.error().str().find("interrupted during test_tipc/prepare.sh"), std::string::npos);
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::run
