#pragma once
// A scratch repository with the fake-stage config (support/fake_config.h) and tipc-run run
// in it for real, for the tests of whole runs (tests/cli/run_test.cpp, run_faults_test.cpp).
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "support/fake_config.h"
#include "support/run_binary.h"
#include "support/temp_dir.h"

namespace tipc::test {

class FakeRepoTest : public ::testing::Test {
 protected:
  void SetUp() override {
    repo_.write(kPaddleOcrMarker, "");
    repo_.write("eval-ok", "");
    config_ = repo_.write("test_tipc/configs/fake.txt", fake_config());
  }
  // tipc-run test_tipc/configs/fake.txt lite_train_lite_infer --gpus none EXTRA...
  RunResult run(std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {"test_tipc/configs/fake.txt", "lite_train_lite_infer", "--gpus", "none"};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_tipc(repo_.path(), args);
  }
  // tipc-run test_tipc/configs lite_train_lite_infer --gpus none EXTRA...: the folder as a suite.
  RunResult run_folder(std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {"test_tipc/configs", "lite_train_lite_infer", "--gpus", "none"};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_tipc(repo_.path(), args);
  }
  // test_tipc/configs/fake2.txt: the fake config as model fake2, a second valid config.
  void write_second_config() {
    std::string second = fake_config();
    second.replace(second.find("model_name:fake"), 15, "model_name:fake2");
    repo_.write("test_tipc/configs/fake2.txt", second);
  }
  // test_tipc/configs/NAME: the fake config without its line 17 (pact_train), so invalid.
  void write_config_missing_line_17(const std::string& name) {
    std::string config = fake_config();
    config.erase(config.find("pact_train:null\n"), 16);
    repo_.write("test_tipc/configs/" + name, config);
  }
  // The fake chain with an eval that prints `top1: VALUE` (a figure the gate and the history take).
  void eval_prints_top1(const std::string& value) {
    std::string config = fake_config();
    const std::string eval = "eval:eval.py --record rec.txt --fail-if-missing eval-ok";
    config.replace(config.find(eval), eval.size(), "eval:eval.py --print top1:" + value);
    repo_.write("test_tipc/configs/fake.txt", config);
  }
  // Lines the fake stages wrote with --record rec.txt: one per stage that ran to its end.
  int records() const {
    std::ifstream in(repo_.path() / "rec.txt");
    int n = 0;
    for (std::string line; std::getline(in, line);) ++n;
    return n;
  }
  std::filesystem::path output() const { return repo_.path() / "test_tipc/output/fake/lite_train_lite_infer"; }

  TempDir repo_;
  std::string config_;
};

}  // namespace tipc::test
