// --trace-env and the settings' trace_env through the command line (issue 38, item 6): a
// runner that reads $TEST_DIR is traced with the value given, the plan's stages carry it,
// the command line wins over the settings, and what cannot be passed is an error naming
// where it was given.
#include "cli/trace_environment.h"

#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/run_binary.h"
#include "support/temp_dir.h"
#include "support/text_lines.h"

namespace tipc::cli {
namespace {
namespace TIPC_TEST_FILE {
using nlohmann::json;

class TraceEnvironment : public ::testing::Test {
 protected:
  void SetUp() override {
    repo_.write("test_tipc/configs/m/train_infer_python.txt",
                "===========================train_params===========================\nmodel_name:MyModel\n"
                "python:python3.7\ngpu_list:0\ntrainer:norm_train\nnorm_train:tools/train.py\n");
    repo_.write("test_tipc/test_train_inference_python.sh",
                "[ -n \"$TEST_DIR\" ] || { echo 'TEST_DIR is not set' >&2; exit 3; }\n"
                "python3.7 tools/train.py --data=${TEST_DIR}/train > train.log 2>&1\n");
  }
  test::RunResult dry_run(std::vector<std::string> more, std::vector<std::string> env = {}) {
    std::vector<std::string> args = {"test_tipc/configs/m/train_infer_python.txt", "lite_train_lite_infer", "--dry-run",
                                     "--format", "jsonl"};
    args.insert(args.end(), more.begin(), more.end());
    env.push_back("TIPC_TRACE_CACHE=" + cache_.path().string());  // shared by the runs: the key must tell them apart
    return test::run_tipc(repo_.path(), args, env);
  }
  // The train's argv and its TEST_DIR in the plan.
  static std::pair<std::string, json> train_of(const test::RunResult& r) {
    for (const auto& line : test::lines_of(r.out)) {
      if (line.empty()) continue;
      const auto stage = json::parse(line);
      if (stage["kind"] == "train") return {stage["argv"].back(), stage["env"].value("TEST_DIR", json())};
    }
    return {};
  }

  test::TempDir repo_, cache_;
};

TEST_F(TraceEnvironment, ARunnerThatReadsAVariableIsTracedWithTheValueGivenAndTheStagesGetIt) {
  const auto without = dry_run({});
  EXPECT_EQ(without.exit_code, 2);
  EXPECT_NE(without.err.find("TEST_DIR is not set"), std::string::npos) << without.err;

  const auto given = dry_run({"--trace-env", "TEST_DIR=/data/a"});
  ASSERT_EQ(given.exit_code, 0) << given.err;
  EXPECT_EQ(train_of(given), std::make_pair(std::string("--data=/data/a/train"), json("/data/a")));

  const auto inherited = dry_run({"--trace-env", "TEST_DIR"}, {"TEST_DIR=/data/mine"});
  ASSERT_EQ(inherited.exit_code, 0) << inherited.err;
  EXPECT_EQ(train_of(inherited), std::make_pair(std::string("--data=/data/mine/train"), json("/data/mine")));

  repo_.write("test_tipc/tipc-run.yaml", "trace_env:\n  TEST_DIR: /data/settings\n");
  const auto settings = dry_run({});
  ASSERT_EQ(settings.exit_code, 0) << settings.err;
  EXPECT_EQ(train_of(settings).first, "--data=/data/settings/train");
  const auto overridden = dry_run({"--trace-env", "TEST_DIR=/data/cli"});
  ASSERT_EQ(overridden.exit_code, 0) << overridden.err;
  EXPECT_EQ(train_of(overridden).first, "--data=/data/cli/train") << "the command line wins";
}

TEST_F(TraceEnvironment, WhatCannotBePassedIsAnErrorNamingWhereItWasGiven) {
  const auto option = dry_run({"--trace-env", "PATH=/evil", "--trace-env", "UNSET_HERE"});
  EXPECT_EQ(option.exit_code, 2);
  EXPECT_NE(option.err.find("--trace-env PATH=/evil: PATH cannot be passed into the trace"), std::string::npos)
      << option.err;
  EXPECT_NE(option.err.find("--trace-env UNSET_HERE: UNSET_HERE is not set here"), std::string::npos) << option.err;
  EXPECT_TRUE(option.out.empty());

  repo_.write("test_tipc/tipc-run.yaml", "trace_env:\n  TEST_DIR: /x\n  BASH_ENV: /tmp/mine.sh\n");
  const auto settings = dry_run({});
  EXPECT_EQ(settings.exit_code, 2);
  EXPECT_NE(settings.err.find("tipc-run.yaml:3: BASH_ENV cannot be passed into the trace"), std::string::npos)
      << settings.err;

  repo_.write("test_tipc/tipc-run.yaml", "trace_env:\n  HOME_SECRET:\n");
  const auto no_value = dry_run({}, {"HOME_SECRET=s3cr3t"});
  EXPECT_EQ(no_value.exit_code, 2);
  EXPECT_NE(no_value.err.find("give HOME_SECRET a value"), std::string::npos) << no_value.err;
  EXPECT_EQ(no_value.out.find("s3cr3t"), std::string::npos) << "the repository cannot read the caller's variables";
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::cli
