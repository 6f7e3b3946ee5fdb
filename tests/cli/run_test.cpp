// tipc-run running real stages (the fake stage program as the interpreter):
// results, exit codes, the output layout, resume, interrupts, data preparation.
#include <signal.h>
#include <sys/wait.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <thread>

#include <sys/resource.h>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "run/journal.h"
#include "support/fake_config.h"
#include "support/fake_repo_run.h"
#include "support/run_binary.h"
#include "support/sanitizers.h"

namespace tipc::cli {
namespace {
namespace TIPC_TEST_FILE {
namespace fs = std::filesystem;
using test::fake_config;
using test::run_tipc;

class RunTest : public test::FakeRepoTest {};

TEST_F(RunTest, EveryCpuStagePassesAndGpuStagesAreUnsupported) {
  const auto r = run({"-j", "2"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(records(), 5);  // train, eval, export, 2 cpu inferences
  EXPECT_NE(r.out.find("tipc-run: 2 stages could not run here:\n"
                       "  2 stages (needs 1 GPU; none available (--gpus)): "
                       "norm_train/gpus_-1/autocast_null/infer/gpu_trt_False_fp32_bs1, "),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("tipc-run: 5 passed, 0 failed, 0 timed out, 2 unsupported"), std::string::npos) << r.out;
  EXPECT_NE(test::slurp(output() / "norm_train_gpus_-1_autocast_null.log").find("train-done"), std::string::npos);
  const std::string results = test::slurp(output() / "results_python.log");
  EXPECT_EQ(std::count(results.begin(), results.end(), '\n'), 5);
  EXPECT_NE(results.find(" Run successfully with command - fake - "), std::string::npos) << results;
  EXPECT_EQ(results.find('\x1b'), std::string::npos);  // plain text by default (D17 in docs/reference-runner.md)
  EXPECT_EQ(run({"--strict"}).exit_code, 1);
}

TEST_F(RunTest, AFailedTrainFailsTheRunAndSkipsItsDependents) {
  repo_.write("test_tipc/configs/fake.txt", fake_config("train.py --stderr boom --exit 3"));
  const auto r = run();
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("FAIL        norm_train/gpus_-1/autocast_null/train"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("exit code 3"), std::string::npos);
  EXPECT_NE(r.out.find("    last 30 log lines:"), std::string::npos);
  EXPECT_NE(r.out.find("boom"), std::string::npos);
  EXPECT_NE(r.out.find("dependency norm_train/gpus_-1/autocast_null/train FAIL"), std::string::npos);
  EXPECT_NE(test::slurp(output() / "results_python.log").find(" Run failed with command"), std::string::npos);
}

TEST_F(RunTest, ATracebackInATrainThatExitsZeroIsAFailure) {
  repo_.write("test_tipc/configs/fake.txt", fake_config("train.py --print Traceback_(most_recent_call_last): --stderr "
                                                        "'Traceback (most recent call last):'"));
  const auto r = run();
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("log check: python traceback at line 3"), std::string::npos) << r.out;
}

TEST_F(RunTest, ResumeSkipsWhatPassedAndRerunsTheRest) {
  fs::remove(repo_.path() / "eval-ok");
  EXPECT_EQ(run().exit_code, 1);  // eval fails
  EXPECT_EQ(records(), 5);        // eval failed, but export and inference depend only on the train
  repo_.write("eval-ok", "");
  fs::remove(repo_.path() / "rec.txt");
  const auto r = run({"--resume"});
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(records(), 1);  // only the eval ran again
  EXPECT_NE(r.out.find("passed in an earlier run (--resume)"), std::string::npos);
}

TEST_F(RunTest, OnlyAndPatternSelectStages) {
  const auto r = run({"--only", "train,export"});
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(records(), 2);
  fs::remove(repo_.path() / "rec.txt");
  EXPECT_EQ(run({"-k", "*cpu_*bs2"}).exit_code, 0);
  EXPECT_EQ(records(), 1);
  fs::remove(repo_.path() / "rec.txt");
  const auto nothing = run({"--only", "eval", "-k", "*bs2"});
  EXPECT_EQ(nothing.exit_code, 2) << "a selection of nothing must not pass";
  EXPECT_NE(nothing.err.find("--only eval -k '*bs2' selects none of the 7 planned stages (one is "), std::string::npos)
      << nothing.err;
  EXPECT_EQ(records(), 0);
}

TEST_F(RunTest, InterruptStopsTheRunWithExitCode130AndLeavesNoProcess) {
  repo_.write("test_tipc/configs/fake.txt",
              fake_config("train.py --children kids.txt --fork-ignoring-term 1 --sleep 60"));
  const pid_t pid =
      test::start_tipc(repo_.path(), {"test_tipc/configs/fake.txt", "lite_train_lite_infer", "--gpus", "none"});
  // The grandchild's pid once it is written whole (the file exists a moment before its line).
  auto kid_line_written = [&] {
    const std::string text = test::slurp((repo_.path() / "kids.txt").string());
    return !text.empty() && text.back() == '\n';
  };
  for (int i = 0; i < 200 && !kid_line_written(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  ASSERT_TRUE(kid_line_written());
  kill(pid, SIGINT);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 130);
  std::ifstream kids(repo_.path() / "kids.txt");
  pid_t kid = 0;
  ASSERT_TRUE(kids >> kid);
  for (int i = 0; i < 50 && kill(kid, 0) == 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_NE(kill(kid, 0), 0) << "a grandchild outlived tipc-run";
}

TEST_F(RunTest, SettingsDeclareTimeoutsAndDataAndBadSettingsAreErrors) {
  repo_.write("test_tipc/tipc-run.yaml", "timeouts: {train: 0.5, grace: 0.2}\n");
  repo_.write("test_tipc/configs/fake.txt", fake_config("train.py --sleep 30"));
  const auto r = run();
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("TIMEOUT     norm_train/gpus_-1/autocast_null/train"), std::string::npos) << r.out;
  repo_.write("test_tipc/tipc-run.yaml", "timeouts: {train: 1}\nlog_checks:\n  - {name: x, pattern: \"(\"}\n");
  const auto bad = run();
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("tipc-run.yaml:3: key 'pattern': not a valid regular expression"), std::string::npos)
      << bad.err;
  repo_.write("test_tipc/tipc-run.yaml", "data:\n  all:\n    - {archive: missing.tar, destination: d, creates: x}\n");
  const auto missing = run();
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("missing.tar"), std::string::npos) << missing.err;
}

// --retries: a train that fails once and then passes is FLAKY in every report, and the log of
// its failed try is kept beside its own.
TEST_F(RunTest, ARetriedStageThatPassesIsFlakyInEveryReportAndItsFailedTrysLogIsKept) {
  repo_.write("test_tipc/configs/fake.txt",
              fake_config("train.py --print try --fail-if-missing tried --write tried --record rec.txt"));
  const auto r = run({"--retries", "2"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(records(), 6) << "the train twice";
  EXPECT_NE(r.out.find("FLAKY       norm_train/gpus_-1/autocast_null/train"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("could not run; 1 flaky)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("tipc-run: 4 passed, 1 flaky, 0 failed, 0 timed out, 2 unsupported"), std::string::npos)
      << r.out;
  const fs::path first_try = output() / "norm_train_gpus_-1_autocast_null.attempt1.log";
  EXPECT_NE(test::slurp(first_try).find("try"), std::string::npos);
  EXPECT_NE(test::slurp(output() / "norm_train_gpus_-1_autocast_null.log").find("try"), std::string::npos);

  const auto json = nlohmann::json::parse(test::slurp(output() / "report.json"));
  EXPECT_EQ(json["counts"]["FLAKY"], 1);
  const auto& train = json["plans"][0]["stages"][0];
  EXPECT_EQ(train["result"], "FLAKY");
  ASSERT_EQ(train["attempts"].size(), 1u);
  EXPECT_EQ(train["attempts"][0]["result"], "FAIL");
  EXPECT_EQ(train["attempts"][0]["log"], first_try.string());
  const std::string junit = test::slurp(output() / "junit.xml");
  EXPECT_NE(junit.find("<flakyFailure message=\"exit code 1\" type=\"FAIL\">"), std::string::npos) << junit;
  EXPECT_NE(test::slurp(output() / "summary.md").find("FLAKY"), std::string::npos);
  EXPECT_NE(test::slurp(output() / "report.html").find("result flaky"), std::string::npos);
}

TEST_F(RunTest, FailFastStartsNoStageOfTheSuiteAfterTheFirstFailure) {
  repo_.write("test_tipc/configs/fake.txt", fake_config("train.py --exit 3"));
  write_second_config();
  const auto r = run_folder({"-j", "1", "--fail-fast"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_EQ(records(), 0) << "fake2's stages never started";
  const auto json = nlohmann::json::parse(test::slurp(repo_.path() / "test_tipc/output/report.json"));
  const auto& train = json["plans"][1]["stages"][0];
  EXPECT_EQ(train["result"], "SKIPPED");
  EXPECT_EQ(train["reason"], "not started: --fail-fast after norm_train/gpus_-1/autocast_null/train failed");
}

TEST_F(RunTest, ADirectoryOfConfigsRunsAsOneSuite) {
  repo_.write("test_tipc/configs/second.txt", fake_config());
  repo_.write("test_tipc/configs/notes.txt", "not a config\n");
  const auto r = run_tipc(repo_.path(), {"test_tipc/configs", "lite_train_lite_infer", "--gpus", "none", "-j", "4"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(records(), 10);
  EXPECT_NE(r.out.find("tipc-run: 14 stages"), std::string::npos) << r.out;
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::cli

namespace tipc::cli {
namespace {
namespace TIPC_TEST_FILE {

// One GPU, two trains: the quick one is first in plan order, so it starts first; the
// next run has the journal's times and starts the slow one first.
TEST_F(RunTest, TheNextRunStartsTheStageThatTookLongestFirst) {
  fs::remove(config_);
  auto model_config = [](const std::string& model, const std::string& sleep) {
    std::string text = fake_config("train.py --sleep " + sleep, "0");
    text.replace(text.find("model_name:fake"), 15, "model_name:" + model);
    return text;
  };
  repo_.write("test_tipc/configs/a_quick.txt", model_config("quick", "0.05"));
  repo_.write("test_tipc/configs/b_slow.txt", model_config("slow", "0.6"));
  auto train_start = [&](const std::string& model) {  // of the last run: the journal keeps earlier runs' lines
    std::optional<double> started;
    const auto journal = run::Journal::load(
        (repo_.path() / "test_tipc/output" / model / "lite_train_lite_infer" / run::kJournalFileName).string());
    for (const run::JournalEntry& entry : journal ? journal->entries : std::vector<run::JournalEntry>{}) {
      if (entry.stage.starts_with("norm_train")) started = entry.started.value_or(0.0);
    }
    if (!started) ADD_FAILURE() << "no train in " << model << "'s journal";
    return started.value_or(0.0);
  };
  const std::vector<std::string> args = {
      "test_tipc/configs", "lite_train_lite_infer", "--gpus", "0", "-j", "2", "--only", "train"};
  const auto first = run_tipc(repo_.path(), args);
  ASSERT_EQ(first.exit_code, 0) << first.out << first.err;
  EXPECT_LT(train_start("quick"), train_start("slow")) << "no times yet: plan order";
  EXPECT_EQ(first.err.find("start order"), std::string::npos)
      << "the debug log is off without --verbose: " << first.err;
  auto verbose = args;
  verbose.push_back("--verbose");
  const auto second = run_tipc(repo_.path(), verbose);
  ASSERT_EQ(second.exit_code, 0) << second.out << second.err;
  EXPECT_LT(train_start("slow"), train_start("quick")) << "the slow train's 0.6 s from the first run put it first";
  // The estimate is the first run's measured time: at least the 0.6 s it slept, more on a loaded machine.
  const std::string first_line = "   1. test_tipc/configs/b_slow.txt#norm_train/gpus_0/autocast_null/train  ";
  const auto slow = second.err.find(first_line);
  ASSERT_NE(slow, std::string::npos) << second.err;
  EXPECT_GE(std::stod(second.err.substr(slow + first_line.size())), 0.6) << second.err;
  EXPECT_NE(second.err.find("(its last run), 1 GPU", slow), std::string::npos) << second.err;
  EXPECT_NE(second.err.find("   2. test_tipc/configs/a_quick.txt#"), std::string::npos) << second.err;
  EXPECT_NE(
      second.err.find("tipc-run: start test_tipc/configs/b_slow.txt#norm_train/gpus_0/autocast_null/train on GPU 0"),
      std::string::npos)
      << second.err;
}

TEST_F(RunTest, PeakMemoryStaysUnder50MbWithAGigabyteOfOutput) {
  TIPC_SKIP_MEMORY_MEASUREMENT_UNDER_SANITIZERS();
  repo_.write("test_tipc/configs/fake.txt", fake_config("train.py --print-mb 1024"));
  const pid_t pid = test::start_tipc(
      repo_.path(), {"test_tipc/configs/fake.txt", "lite_train_lite_infer", "--gpus", "none", "--only", "train"});
  int status = 0;
  rusage usage{};
  wait4(pid, &status, 0, &usage);
  EXPECT_EQ(WEXITSTATUS(status), 0);
  EXPECT_GE(fs::file_size(output() / "norm_train_gpus_-1_autocast_null.log"), 1024ull << 20);
  std::cout << "tipc-run peak RSS with 1 GiB of stage output: " << usage.ru_maxrss / 1024 << " MiB\n";
  EXPECT_LT(usage.ru_maxrss, 50 * 1024);
}

// Real processes on a fake 4-GPU spec: the recorded time windows never share a GPU.
TEST_F(RunTest, NoGpuIsUsedByTwoStagesAtOnce) {
  repo_.write("gpus.yaml", "gpus: [0, 1, 2, 3]\n");
  fs::remove(config_);
  const char* lists[] = {"0", "0,1", "1", "0|2,3", "3"};
  for (int i = 0; i < 5; ++i) {
    repo_.write(fmt::format("test_tipc/configs/c{}.txt", i),
                fake_config("train.py --sleep 0.3 --record rec.txt", lists[i]));
  }
  const auto r = run_tipc(repo_.path(), {"test_tipc/configs", "lite_train_lite_infer", "--resource-spec", "gpus.yaml",
                                         "-j", "8", "--only", "train"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  struct Window {
    double start, end;
    std::vector<std::string> gpus;
  };
  std::vector<Window> windows;
  std::ifstream in(repo_.path() / "rec.txt");
  for (std::string line; std::getline(in, line);) {
    std::istringstream s(line);
    std::string pid, pgid, cvd;
    Window w{};
    s >> pid >> pgid >> w.start >> w.end >> cvd;
    for (std::size_t a = 0, b; a <= cvd.size(); a = b + 1) {
      b = std::min(cvd.find(',', a), cvd.size());
      w.gpus.push_back(cvd.substr(a, b - a));
    }
    windows.push_back(w);
  }
  ASSERT_EQ(windows.size(), 6u) << test::slurp((repo_.path() / "rec.txt").string()) << r.out;
  int overlapping_pairs = 0;
  for (std::size_t i = 0; i < windows.size(); ++i) {
    for (std::size_t j = i + 1; j < windows.size(); ++j) {
      if (windows[i].end <= windows[j].start || windows[j].end <= windows[i].start) continue;
      ++overlapping_pairs;
      for (const auto& g : windows[i].gpus) {
        EXPECT_EQ(std::count(windows[j].gpus.begin(), windows[j].gpus.end(), g), 0) << "GPU " << g << " shared";
      }
    }
  }
  EXPECT_GT(overlapping_pairs, 0);  // the suite did run in parallel
}

TEST_F(RunTest, DataStepsUnpackOnceAndThePrepareScriptRuns) {
  repo_.write("src/alexnet/train/a.txt", "a");
  ASSERT_EQ(std::system(("tar -C " + test::shell_quote((repo_.path() / "src").string()) + " -cf " +
                         test::shell_quote((repo_.path() / "lite.tar").string()) + " alexnet")
                            .c_str()),
            0);
  repo_.write("test_tipc/tipc-run.yaml",
              "data:\n  lite_train_lite_infer:\n    - {archive: lite.tar, destination: lite_data, creates: alexnet}\n");
  repo_.write("test_tipc/prepare.sh", "echo prepared \"$1\" \"$2\" > prepared.txt\n");
  auto r = run({"--only", "train", "--prepare-script"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(test::slurp((repo_.path() / "lite_data/alexnet/train/a.txt").string()), "a");
  EXPECT_NE(r.out.find("data lite.tar -> lite_data/alexnet: extracted"), std::string::npos) << r.out;
  EXPECT_NE(test::slurp((repo_.path() / "prepared.txt").string()).find("fake.txt lite_train_lite_infer"),
            std::string::npos);
  r = run({"--only", "train"});
  EXPECT_NE(r.out.find("lite_data/alexnet: up to date"), std::string::npos) << r.out;
  repo_.write("test_tipc/prepare.sh", "exit 4\n");
  r = run({"--only", "train", "--prepare-script"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("test_tipc/prepare.sh failed (exit code 4)"), std::string::npos) << r.err;
}

TEST_F(RunTest, CompatModeWritesTheReferenceFormatAndExitsZero) {
  fs::remove(repo_.path() / "eval-ok");
  const auto r = run({"--compat"});
  EXPECT_EQ(r.exit_code, 0);  // the reference always exits 0 (D1 in docs/reference-runner.md)
  const std::string results = test::slurp(output() / "results_python.log");
  EXPECT_NE(results.find("\x1b[33m Run failed with command - fake - "), std::string::npos) << results;
  // The OCR train status is the trainer's own train.log being there (D2 in docs/reference-runner.md): the fake wrote none.
  EXPECT_NE(results.find("\x1b[33m Run failed with command - fake - " + test::fake_stage_binary() + " train.py"),
            std::string::npos);
  run({"--compat"});
  const std::string twice = test::slurp(output() / "results_python.log");
  EXPECT_EQ(twice.size(), 2 * results.size());  // append-only (D12 in docs/reference-runner.md)
}

// A benchmark_train run of a train that logs 6 steps: beside the reports, the record Paddle's
// benchmark database reads, with the mean ips after the 2 warm-up steps and the last loss.
TEST_F(RunTest, ABenchmarkTrainRunWritesTheTipcBenchmarkRecord) {
  std::string train = "train.py";
  for (int step = 1; step <= 6; ++step) {
    train += fmt::format(" --print 'epoch: [1/1], global_step: {}, loss: {}, ips: {} samples/s'", step, 4 - 0.5 * step,
                         step <= 2 ? 1 : 4 + 2 * step);
  }
  std::string config = fake_config(train);
  config.replace(config.find("--batch-size:"), 13, "--batch-size:benchmark_train=8|");
  repo_.write("test_tipc/configs/fake.txt", config);
  const auto r = run_tipc(repo_.path(), {"test_tipc/configs/fake.txt", "benchmark_train", "--gpus", "none"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  const fs::path index = repo_.path() / "test_tipc/output/fake/benchmark_train/index";
  const std::string name = repo_.path().filename().string() + "_fake_bs8_fp32_DP_N1C1_speed";
  ASSERT_TRUE(fs::exists(index / name)) << r.out;
  const auto record = nlohmann::json::parse(test::slurp((index / name).string()));
  EXPECT_DOUBLE_EQ(record["ips"].get<double>(), 13.0);  // 10, 12, 14, 16
  EXPECT_EQ(record["convergence_value"], "1");
  EXPECT_EQ(record["run_process_type"], "SingleP");
  EXPECT_EQ(record["batch_size"], 8);
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::cli
