// Default mode keeps data steps and the output tree inside the repository; --compat takes
// the paths as the reference does.
#include "run/confinement.h"

#include <filesystem>

#include <gtest/gtest.h>

#include "support/fake_config.h"
#include "support/run_binary.h"
#include "support/temp_dir.h"

namespace tipc::run {
namespace {
namespace TIPC_TEST_FILE {
namespace fs = std::filesystem;
using test::run_tipc;

config::ConfigText config_with_model_name(const std::string& model_name) {
  const std::string text =
      "===========================train_params===========================\nmodel_name:" + model_name +
      "\npython:python3\n";
  return *config::parse_config_text(text, "configs/m.txt");
}

TEST(Confinement, AModelNameThatLeavesTheOutputTreeIsNamedAtItsLine) {
  for (const std::string name : {"../..", "/tmp/elsewhere", "a/../../b", ".."}) {
    const auto problem = unconfined_model_name(config_with_model_name(name));
    ASSERT_TRUE(problem) << name;
    EXPECT_EQ(problem->file, "configs/m.txt");
    EXPECT_EQ(problem->line, 2);
    EXPECT_EQ(problem->key, "model_name");
    EXPECT_NE(problem->message.find("model_name '" + name + "'"), std::string::npos) << problem->message;
  }
  for (const std::string name : {"alexnet", "ppyolo/ppyolo_mbv3", "PP-OCRv3_det..v2", "中文模型"}) {
    EXPECT_FALSE(unconfined_model_name(config_with_model_name(name))) << name;
  }
}

TEST(Confinement, APlanOutputDirectoryOutsideTheRepositoryIsNamedAtTheModelNameLine) {
  const auto text = config_with_model_name("m");
  plan::Plan plan;
  for (const std::string inside : {"test_tipc/output/m/lite", "/repo/test_tipc/output/m", "./log/m", "."}) {
    plan.output_dir = inside;
    EXPECT_FALSE(output_outside_repository(plan, text, "/repo")) << inside;
  }
  for (const std::string outside : {"test_tipc/output/../../..", "/elsewhere/out", "/repository/out"}) {
    plan.output_dir = outside;
    const auto problem = output_outside_repository(plan, text, "/repo");
    ASSERT_TRUE(problem) << outside;
    EXPECT_EQ(problem->line, 2);
    EXPECT_EQ(problem->key, "model_name");
  }
  plan.output_dir = "output";
  plan.run_dir = "../..";
  EXPECT_TRUE(output_outside_repository(plan, text, "/repo/sub"));
}

class ConfinementRun : public ::testing::Test {
 protected:
  void SetUp() override {
    repo_.write(test::kPaddleOcrMarker, "");
    repo_.write("lite_data/lite.tar", "");
    config_ = test::slurp(test::source_dir() + "/test_tipc/configs/alexnet.txt");
  }
  void use_model_name(const std::string& name) {
    std::string text = config_;
    text.replace(text.find("model_name:alexnet"), 18, "model_name:" + name);
    repo_.write("test_tipc/configs/alexnet.txt", text);
  }
  test::RunResult dry_run(std::vector<std::string> extra = {}) const {
    std::vector<std::string> args = {"test_tipc/configs/alexnet.txt", "lite_train_lite_infer", "--dry-run"};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_tipc(repo_.path(), args);
  }

  test::TempDir repo_;
  std::string config_;
};

TEST_F(ConfinementRun, AModelNameOutsideTheOutputTreeStopsTheDryRunUnlessCompat) {
  for (const std::string name : {"../..", "/tmp/elsewhere"}) {
    use_model_name(name);
    const auto r = dry_run();
    EXPECT_EQ(r.exit_code, 2) << name << r.out << r.err;
    EXPECT_NE(r.err.find("test_tipc/configs/alexnet.txt:2: model_name '" + name + "'"), std::string::npos) << r.err;
    EXPECT_EQ(dry_run({"--compat"}).exit_code, 0) << name;
  }
  use_model_name("alexnet_v2");
  EXPECT_EQ(dry_run().exit_code, 0);
}

TEST_F(ConfinementRun, DataStepPathsOutsideTheRepositoryStopTheDryRunAtTheirSettingsLineUnlessCompat) {
  use_model_name("alexnet");
  for (const auto& [step, key] :
       {std::pair{"{archive: lite_data/lite.tar, destination: ../../X, creates: a}", "destination '../../X'"},
        {"{archive: lite_data/lite.tar, destination: /tmp/X, creates: a}", "destination '/tmp/X'"},
        {"{archive: lite_data/../lite_data/lite.tar, destination: d, creates: a}",
         "archive 'lite_data/../lite_data/lite.tar'"}}) {
    repo_.write("test_tipc/tipc-run.yaml", std::string("jobs: 1\ndata:\n  all:\n    - ") + step + "\n");
    const auto r = dry_run();
    EXPECT_EQ(r.exit_code, 2) << step << r.out << r.err;
    EXPECT_NE(r.err.find("test_tipc/tipc-run.yaml:4: the data step's " + std::string(key)), std::string::npos) << r.err;
    EXPECT_EQ(dry_run({"--compat"}).exit_code, 0) << step;
  }
  repo_.write("test_tipc/tipc-run.yaml",
              "data:\n  all:\n    - {archive: lite_data/lite.tar, destination: ., creates: a}\n");
  EXPECT_EQ(dry_run().exit_code, 0);
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::run
