// The gate on the demo for real (issue 27 item 6): the demo's benchmark_train, its CPU train
// (one process: 2 epochs of 12 steps, 22 ips samples after warm-up) and eval stages, run
// into one history. Throughput is compared over 8 runs a side, interleaved, one median per
// run (`compare --runs`): the steps of one run share its machine state, and two single runs
// of the same code differ by more than the gate's 5 % on a 2-core machine (bench/RESULTS.md,
// "The gate on the demo"). The same code is UNCHANGED; a slowdown injected into every step
// (TIPC_DEMO_SLOWDOWN) regresses ips with a p-value; an injected accuracy drop
// (TIPC_DEMO_ACCURACY_DROP: training with learning rate 0) regresses the evaluation's top1
// and fails `--baseline` with exit 6. CTest runs these tests alone (RUN_SERIAL,
// CMakeLists.txt). Only classifications are asserted, never a figure a training measured.
#include <cstdlib>
#include <filesystem>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/demo_repo.h"
#include "support/run_binary.h"

namespace tipc::demo {
namespace {
namespace TIPC_TEST_FILE {
namespace fs = std::filesystem;

const std::string kTrainStage = "norm_train/gpus_-1/autocast_null/train";
const std::string kEvalStage = "norm_train/gpus_-1/autocast_null/eval";
constexpr double kAlpha = 0.05;  // the default gate's significance level (docs/cli.md)
// Runs a side (bench/RESULTS.md, "The gate on the demo"): with 5, a slowed run on one side
// kept p at 0.056 to 0.095 in 3 of 20 pairs; 8 leave room for such a run on each side.
constexpr int kRunsPerSide = 8;
constexpr int kDetectionRounds = 3;  // up to 24 runs a side for the slowdown

// "load average 1.52 0.98 0.61": whether the machine was busy, for a failure's message.
std::string load_average() {
  double load[3] = {0, 0, 0};
  if (getloadavg(load, 3) != 3) return "load average unknown";
  return fmt::format("load average {:.2f} {:.2f} {:.2f}", load[0], load[1], load[2]);
}

// Stage id -> figure name -> the figure's row, from `tipc-run compare --json`.
std::map<std::string, std::map<std::string, nlohmann::json>> figure_rows(const nlohmann::json& comparison) {
  std::map<std::string, std::map<std::string, nlohmann::json>> rows;
  for (const auto& stage : comparison["stages"]) {
    for (const auto& figure : stage["figures"]) rows[stage["stage"]][figure["name"]] = figure;
  }
  return rows;
}

// The p-value printed on the console's REGRESSED row of `figure` in `stage`, or -1.
double printed_p_value(const std::string& console, const std::string& stage, const std::string& figure) {
  const std::regex row("REGRESSED +" + stage + " +" + figure + " .* p=([0-9.e+-]+) ");
  std::smatch m;
  return std::regex_search(console, m, row) ? std::stod(m[1].str()) : -1;
}

class DemoGate : public ::testing::Test {
 protected:
  void SetUp() override {
    test::require_demo_python("the demo's gate");
    if (IsSkipped() || HasFatalFailure()) return;
    test::copy_demo_parts(repo_, {"test_tipc/configs/alexnet.txt"});
  }

  // One run of the train and eval stages into the scratch history; `more` are options and
  // `env` NAME=VALUE words for the demo's switches.
  test::RunResult train_and_eval(const std::vector<std::string>& more = {}, const std::vector<std::string>& env = {}) {
    std::vector<std::string> args{"test_tipc/configs/alexnet.txt",
                                  "benchmark_train",
                                  "--gpus",
                                  "none",
                                  "--only=train,eval",
                                  "--history",
                                  history()};
    args.insert(args.end(), more.begin(), more.end());
    return test::run_tipc(repo_.path(), args, env);
  }
  std::string history() const { return (repo_.path() / "history.sqlite").string(); }

  // The train stage alone (the benchmark's figures), recorded in the scratch history.
  test::RunResult train(const std::vector<std::string>& env) {
    return test::run_tipc(repo_.path(),
                          {"test_tipc/configs/alexnet.txt", "benchmark_train", "--gpus", "none", "--only=train", "-k",
                           "gpus_-1", "--history", history(), "-q"},
                          env);
  }
  void git(const std::string& command) {
    const std::string line = "cd " + test::shell_quote(repo_.path()) + " && " + command + " >/dev/null 2>&1";
    ASSERT_EQ(std::system(line.c_str()), 0) << line;
  }
  // A git repository of the demo with a branch per side, each at a commit of its own with
  // the same files: the runs record their branch, which `compare --runs` pools.
  void make_branches(const std::vector<std::string>& branches) {
    const std::string commit = "git -c user.name=gate -c user.email=gate@localhost commit -q ";
    git("git init -q -b " + branches.front() + " && git add -A && " + commit + "-m demo");
    for (std::size_t i = 1; i < branches.size(); ++i) {
      git("git checkout -q -b " + branches[i] + " && " + commit + "--allow-empty -m " + branches[i]);
    }
  }
  // kRunsPerSide runs of each branch, alternating (the i-th run of every branch, then the
  // next), so that the machine's drift falls on every side alike; `switches`: a branch's
  // NAME=VALUE word.
  void interleaved_runs(const std::vector<std::string>& branches, const std::map<std::string, std::string>& switches) {
    for (int round = 0; round < kRunsPerSide; ++round) {
      for (const auto& branch : branches) {
        git("git checkout -q " + branch);
        const auto it = switches.find(branch);
        const auto r = train(it == switches.end() ? std::vector<std::string>{} : std::vector{it->second});
        ASSERT_EQ(r.exit_code, 0) << branch << " round " << round << "\n" << r.out << r.err;
      }
    }
  }
  // `tipc-run compare BASE NEW --runs N`: its exit code and its JSON; the console is kept.
  std::pair<int, nlohmann::json> compare_pools(const std::string& base, const std::string& changed,
                                               int runs = kRunsPerSide) {
    const std::string json = (repo_.path() / "compare.json").string();
    const auto r = test::run_tipc(repo_.path(), {"compare", base, changed, "--runs", std::to_string(runs), "--history",
                                                 history(), "--json", json, "--all"});
    std::cout << r.out;
    console_ = r.out;
    return {r.exit_code, nlohmann::json::parse(test::slurp(json))};
  }

  // A run as the demo is, then one with the switch `assignment` (NAME=VALUE) compared with it
  // by `--baseline 1`, which must fail it: exit 6.
  test::RunResult regressed_against_a_baseline(const std::string& assignment) {
    const auto baseline = train_and_eval();
    EXPECT_EQ(baseline.exit_code, 0) << baseline.out << baseline.err;
    auto r = train_and_eval({"--baseline", "1"}, {assignment});
    std::cout << r.out;
    EXPECT_EQ(r.exit_code, 6) << r.out << r.err << load_average();
    EXPECT_NE(r.out.find("exit 6: the run passed, and regressed against its baseline"), std::string::npos);
    return r;
  }

  test::TempDir repo_;
  std::string console_;  // of the last compare
};

// The same code on two branches: each side's ips is its 8 runs' medians (`--runs`), and the
// test over runs sees how far runs of one code spread, which the steps of one run cannot show.
TEST_F(DemoGate, TheSameCodeRunEightTimesOnEachSideIsUnchanged) {
  make_branches({"base", "same"});
  interleaved_runs({"base", "same"}, {});
  if (HasFatalFailure()) return;
  const auto [code, comparison] = compare_pools("base", "same");
  EXPECT_EQ(code, 0) << comparison.dump(2) << load_average();
  EXPECT_EQ(comparison["counts"]["REGRESSED"], 0) << load_average();
  EXPECT_EQ(comparison["counts"]["IMPROVED"], 0) << load_average();
  auto rows = figure_rows(comparison);
  const auto& ips = rows[kTrainStage]["ips"];
  ASSERT_TRUE(ips.is_object()) << comparison.dump(2);
  EXPECT_EQ(ips["class"], "UNCHANGED") << ips["why"] << "; " << load_average();
  EXPECT_EQ(ips["baseline_samples"], kRunsPerSide) << "a median per run";
  EXPECT_EQ(ips["new_samples"], kRunsPerSide);
}

// Every step of branch `slower` busy-waits a fifth of its compute time (ips -16.7 %): over
// 8 runs a side ips is REGRESSED, with the p-value of the test over runs on the console. The
// machine slows some whole runs of either side now and then (another VM on the host), which
// can mix the two sides' runs; one comparison of 8 runs a side then misses the slowdown (3 to
// 8 in 20 in bench/RESULTS.md), so the test adds 8 runs a side and compares again, over all
// of them, up to kDetectionRounds times; the gate must find it in one of these comparisons.
TEST_F(DemoGate, AnInjectedSlowdownRegressesIpsWithItsPValue) {
  make_branches({"base", "slower"});
  std::string missed;
  for (int round = 1; round <= kDetectionRounds; ++round) {
    interleaved_runs({"base", "slower"}, {{"slower", "TIPC_DEMO_SLOWDOWN=0.2"}});
    if (HasFatalFailure()) return;
    const auto [code, comparison] = compare_pools("base", "slower", round * kRunsPerSide);
    auto rows = figure_rows(comparison);
    const auto& ips = rows[kTrainStage]["ips"];
    ASSERT_TRUE(ips.is_object()) << comparison.dump(2);
    if (ips["class"] != "REGRESSED") {
      missed +=
          fmt::format("{} runs a side: {} ({}); ", round * kRunsPerSide, ips["why"].get<std::string>(), load_average());
      continue;
    }
    EXPECT_EQ(code, 6) << comparison.dump(2);
    EXPECT_EQ(ips["baseline_samples"], round * kRunsPerSide) << "a median per run";
    ASSERT_TRUE(ips["p_value"].is_number()) << ips.dump();
    EXPECT_LT(ips["p_value"].get<double>(), kAlpha);
    EXPECT_LT(ips["relative_change"].get<double>(), -0.05);
    EXPECT_GT(printed_p_value(console_, kTrainStage, "ips"), 0) << "the console's REGRESSED row gives the p-value";
    if (!missed.empty()) std::cout << "missed first: " << missed << '\n';
    return;
  }
  ADD_FAILURE() << "the slowdown was not REGRESSED over up to " << kDetectionRounds * kRunsPerSide
                << " runs a side: " << missed;
}

// A training that learns nothing regresses the evaluation, whatever the throughput did: the
// eval figures of one CPU are exact, so this holds on any machine.
TEST_F(DemoGate, AnInjectedAccuracyDropRegressesTheEvalMetric) {
  const auto worse = regressed_against_a_baseline("TIPC_DEMO_ACCURACY_DROP=1");
  EXPECT_TRUE(std::regex_search(worse.out, std::regex("REGRESSED +" + kEvalStage + " +eval:top1 "))) << worse.out;
  EXPECT_TRUE(std::regex_search(worse.out, std::regex("REGRESSED +" + kEvalStage + " +eval:loss "))) << worse.out;
}

TEST_F(DemoGate, ASwitchThatIsNoNumberStopsTheTrainingNamingIt) {
  const auto r = train_and_eval({"-k", "gpus_-1"}, {"TIPC_DEMO_SLOWDOWN=fast"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("error: TIPC_DEMO_SLOWDOWN='fast': expected a non-negative number"), std::string::npos) << r.out;
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::demo
