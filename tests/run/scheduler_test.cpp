// The scheduler against the fake executor: virtual time, so every test runs in
// milliseconds and every timing is exact.
#include "run/scheduler.h"

#include <cerrno>
#include <csignal>

#include <gtest/gtest.h>

#include "config/train_infer_config.h"
#include "core/split_list.h"
#include "support/fake_executor.h"
#include "support/run_binary.h"
#include "support/temp_dir.h"

namespace tipc::run {
namespace {
namespace TIPC_TEST_FILE {

using plan::StageKind;

plan::Stage make_stage(const std::string& id, StageKind kind, int gpus, std::vector<std::string> deps = {}) {
  plan::Stage s;
  s.id = id;
  s.kind = kind;
  s.argv = {"python", id};
  s.cwd = ".";
  s.log = "logs/" + id + ".log";
  s.needs.gpus = gpus;
  s.deps = std::move(deps);
  if (gpus > 0) s.env["CUDA_VISIBLE_DEVICES"] = gpus == 1 ? "0" : "0,1";
  return s;
}

plan::Plan make_plan(std::vector<plan::Stage> stages, const std::string& name = "c.txt") {
  plan::Plan p;
  p.config_path = name;
  p.stages = std::move(stages);
  return p;
}

struct Recorder : Listener {
  std::vector<std::string> started, finished;
  std::vector<double> ticks;
  void stage_started(const StageRecord& r) override { started.push_back(r.stage->id); }
  void stage_finished(const StageRecord& r) override { finished.push_back(r.stage->id); }
  void tick(double run_seconds) override { ticks.push_back(run_seconds); }
};

class SchedulerTest : public ::testing::Test {
 protected:
  RunSummary run(const std::vector<const plan::Plan*>& plans, int jobs, int gpus) {
    options_.jobs = jobs;
    options_.resources.gpus.clear();
    for (int i = 0; i < gpus; ++i) options_.resources.gpus.push_back({std::to_string(i), 1});
    options_.resources.source = "test";
    options_.repo_root = "/repo";
    return run_stages(plans, fake_, recorder_, options_, [this] { return fake_.interrupt_fired(); });
  }
  const StageRecord& record(const RunSummary& s, const std::string& id) {
    for (const auto& r : s.stages) {
      if (r.stage->id == id) return r;
    }
    throw std::runtime_error(id);
  }
  const FakeExecutor::Record& started(const std::string& id) {
    for (const auto& r : fake_.records) {
      if (r.id == "c.txt#" + id) return r;
    }
    throw std::runtime_error(id);
  }

  FakeExecutor fake_;
  Recorder recorder_;
  SchedulerOptions options_;
};

TEST_F(SchedulerTest, SerialOrderWithOneJobIsThePlanOrder) {
  const auto p = make_plan(
      {make_stage("train", StageKind::kTrain, 0), make_stage("eval", StageKind::kEval, 0, {"train"}),
       make_stage("export", StageKind::kExport, 0, {"train"}), make_stage("infer", StageKind::kInfer, 0, {"export"})});
  const auto s = run({&p}, 1, 0);
  EXPECT_EQ(recorder_.started, (std::vector<std::string>{"train", "eval", "export", "infer"}));
  EXPECT_EQ(s.verdict().exit_code({false}), 0);
  EXPECT_DOUBLE_EQ(s.seconds, 4.0);
  EXPECT_EQ(record(s, "infer").log_path, "/repo/logs/infer.log");
}

TEST_F(SchedulerTest, WithOneJobPlanOrderStaysWhateverTheLastRunTook) {
  const auto p = make_plan({make_stage("a", StageKind::kTrain, 0), make_stage("b", StageKind::kTrain, 0)});
  options_.history = {{"c.txt#a", 1}, {"c.txt#b", 50}};
  run({&p}, 1, 0);
  EXPECT_EQ(recorder_.started, (std::vector<std::string>{"a", "b"}));
}

// Two GPUs, three 1-GPU stages of 1, 1 and 3 s. In plan order the 3 s stage starts
// last and the run takes 4 s; with the last run's times it starts first: 3 s.
class StartOrderTest : public SchedulerTest {
 protected:
  RunSummary run_three() {
    fake_.scripts["c.txt#long"].seconds = 3;
    return run({&plan_}, 4, 2);
  }
  const plan::Plan plan_ =
      make_plan({make_stage("short1", StageKind::kTrain, 1), make_stage("short2", StageKind::kTrain, 1),
                 make_stage("long", StageKind::kTrain, 1)});
};

TEST_F(StartOrderTest, WithoutTimesOfALastRunEqualStagesStartInPlanOrder) {
  EXPECT_DOUBLE_EQ(run_three().seconds, 4.0);
  EXPECT_EQ(recorder_.started, (std::vector<std::string>{"short1", "short2", "long"}));
}

TEST_F(StartOrderTest, TheLastRunsTimesPutTheLongestChainFirst) {
  options_.history = {{"c.txt#short1", 1}, {"c.txt#short2", 1}, {"c.txt#long", 3}};
  EXPECT_DOUBLE_EQ(run_three().seconds, 3.0);
  EXPECT_EQ(recorder_.started, (std::vector<std::string>{"long", "short1", "short2"}));
  EXPECT_DOUBLE_EQ(started("long").start, 0.0);
}

TEST_F(SchedulerTest, IndependentStagesRunInParallelAfterTheirDependency) {
  const auto p =
      make_plan({make_stage("train", StageKind::kTrain, 0), make_stage("eval", StageKind::kEval, 0, {"train"}),
                 make_stage("export", StageKind::kExport, 0, {"train"})});
  const auto s = run({&p}, 4, 0);
  EXPECT_DOUBLE_EQ(started("eval").start, 1.0);
  EXPECT_DOUBLE_EQ(started("export").start, 1.0);
  EXPECT_DOUBLE_EQ(s.seconds, 2.0);
}

TEST_F(SchedulerTest, AFailedStageSkipsItsDependentsTransitively) {
  fake_.scripts["c.txt#train"].exit_code = 2;
  const auto p =
      make_plan({make_stage("train", StageKind::kTrain, 0), make_stage("export", StageKind::kExport, 0, {"train"}),
                 make_stage("infer", StageKind::kInfer, 0, {"export"}), make_stage("other", StageKind::kTrain, 0)});
  const auto s = run({&p}, 1, 0);
  EXPECT_EQ(record(s, "train").verdict.result, Status::kFail);
  EXPECT_EQ(record(s, "train").verdict.reason, "exit code 2");
  EXPECT_EQ(record(s, "export").verdict.result, Status::kSkipped);
  EXPECT_EQ(record(s, "export").verdict.reason, "dependency train FAIL");
  EXPECT_EQ(record(s, "infer").verdict.reason, "dependency export SKIPPED");
  EXPECT_EQ(record(s, "other").verdict.result, Status::kPass);
  EXPECT_EQ(s.verdict().exit_code({false}), 1);
}

// Two trains that write one output (plan::order_shared_outputs): the second starts once the
// first and the eval that reads its output have ended, never beside them, whatever their
// results, as the runner runs one after the other; it reads nothing of theirs, so a failure
// there skips nothing of it.
plan::Plan trains_of_one_output() {
  plan::Stage second = make_stage("t2", StageKind::kTrain, 0);
  second.after = {"t1", "e1"};
  return make_plan({make_stage("t1", StageKind::kTrain, 0), make_stage("e1", StageKind::kEval, 0, {"t1"}), second,
                    make_stage("e2", StageKind::kEval, 0, {"t2"})});
}

TEST_F(SchedulerTest, AStageAfterOthersStartsOnceTheyHaveEndedNeverBesideThem) {
  const auto p = trains_of_one_output();
  const auto s = run({&p}, 4, 0);
  EXPECT_DOUBLE_EQ(started("t2").start, 2.0) << "after e1, which ran 1.0 to 2.0, although four jobs were free";
  EXPECT_DOUBLE_EQ(started("e2").start, 3.0);
  EXPECT_EQ(s.verdict().exit_code({false}), 0);
}

TEST_F(SchedulerTest, AStageAfterOthersRunsWhateverTheirResults) {
  fake_.scripts["c.txt#t1"].exit_code = 2;
  const auto p = trains_of_one_output();
  const auto s = run({&p}, 4, 0);
  EXPECT_EQ(record(s, "t1").verdict.result, Status::kFail);
  EXPECT_EQ(record(s, "e1").verdict.result, Status::kSkipped);
  EXPECT_EQ(record(s, "t2").verdict.result, Status::kPass) << "not skipped: the runner runs it after a failed t1";
  EXPECT_DOUBLE_EQ(started("t2").start, 1.0);
  EXPECT_EQ(record(s, "e2").verdict.result, Status::kPass);
}

TEST_F(SchedulerTest, AGpuStageWithoutGpusIsUnsupportedNotWaitedOn) {
  const auto p = make_plan({make_stage("cpu", StageKind::kTrain, 0), make_stage("gpu", StageKind::kTrain, 1),
                            make_stage("gpu-eval", StageKind::kEval, 1, {"gpu"})});
  const auto s = run({&p}, 2, 0);
  EXPECT_EQ(record(s, "gpu").verdict.result, Status::kUnsupported);
  EXPECT_EQ(record(s, "gpu").verdict.reason, "needs 1 GPU; none available (test)");
  EXPECT_EQ(record(s, "gpu-eval").verdict.result, Status::kUnsupported);
  EXPECT_EQ(record(s, "gpu-eval").verdict.reason, "needs 1 GPU; none available (test)");
  EXPECT_EQ(record(s, "cpu").verdict.result, Status::kPass);
  EXPECT_EQ(s.verdict().exit_code({false}), 0);
  EXPECT_EQ(s.verdict().exit_code({true}), 1);
}

// --only check: the check's producer was left out. A producer that could never run here
// makes the check UNSUPPORTED, as in a full run; one that could leaves it to run.
TEST_F(SchedulerTest, AStageAfterALeftOutStageThatCouldNeverRunHereIsUnsupported) {
  auto gpu_check = make_stage("gpu-infer/check", StageKind::kCheck, 0);
  gpu_check.unselected_deps = {{"gpu-infer", {1, 1}}, {"export", {0, 1}}};
  auto cpu_check = make_stage("cpu-infer/check", StageKind::kCheck, 0);
  cpu_check.unselected_deps = {{"cpu-infer", {0, 1}}, {"export", {0, 1}}};
  const auto p = make_plan({gpu_check, cpu_check});
  const auto s = run({&p}, 2, 0);
  EXPECT_EQ(record(s, "gpu-infer/check").verdict.result, Status::kUnsupported);
  EXPECT_EQ(record(s, "gpu-infer/check").verdict.reason,
            "dependency gpu-infer (not selected) needs 1 GPU; none available (test)");
  EXPECT_EQ(record(s, "cpu-infer/check").verdict.result, Status::kPass);
  EXPECT_EQ(recorder_.started, (std::vector<std::string>{"cpu-infer/check"}));
}

TEST_F(SchedulerTest, AStageAfterALeftOutStageThatCouldRunHereRuns) {
  auto check = make_stage("gpu-infer/check", StageKind::kCheck, 0);
  check.unselected_deps = {{"gpu-infer", {1, 1}}};
  const auto p = make_plan({check});
  EXPECT_EQ(record(run({&p}, 2, 1), "gpu-infer/check").verdict.result, Status::kPass);
}

TEST_F(SchedulerTest, MultiNodeTrainsAreUnsupportedLocally) {
  auto stage = make_stage("fleet", StageKind::kTrain, 2);
  stage.needs.nodes = 2;
  const auto p = make_plan({stage});
  const auto s = run({&p}, 2, 4);
  EXPECT_EQ(record(s, "fleet").verdict.reason, "needs 2 nodes; the local executor runs on one machine");
}

TEST_F(SchedulerTest, OnAClusterTheClusterPlacesStagesAndOnlyWhatNoNodeOffersIsUnsupported) {
  options_.cluster = ClusterCapacity{2, 4, "slurm (sinfo)", 16, {}};
  auto fleet = make_stage("fleet", StageKind::kTrain, 2);
  fleet.needs.nodes = 2;
  fleet.hosts = "10.0.0.1,10.0.0.2";
  auto bench = make_stage("bench", StageKind::kInfer, 1);
  bench.benchmark = true;
  auto three_nodes = make_stage("three", StageKind::kTrain, 1);
  three_nodes.needs.nodes = 3;
  const auto p = make_plan({fleet, make_stage("eight", StageKind::kTrain, 8), three_nodes, bench,
                            make_stage("a", StageKind::kTrain, 4), make_stage("b", StageKind::kTrain, 4)});
  options_.timeouts.by_kind[StageKind::kTrain] = 100;
  options_.timeouts.grace = 5;
  const auto s = run({&p}, 8, 0);  // no local GPU: the cluster's count
  EXPECT_EQ(record(s, "eight").verdict.reason,
            "needs 8 GPUs per node; the cluster's nodes have at most 4 (slurm (sinfo))");
  EXPECT_EQ(record(s, "three").verdict.reason, "needs 3 nodes; the cluster has 2 (slurm (sinfo))");
  EXPECT_EQ(s.count(Status::kPass), 4);
  for (const char* id : {"fleet", "bench", "a", "b"}) {
    EXPECT_EQ(started(id).start, 0) << id << ": every stage is handed to the cluster at once";
    EXPECT_FALSE(started(id).env.at("CUDA_VISIBLE_DEVICES")) << id << ": Slurm sets it from the allocation";
  }
  EXPECT_EQ(started("fleet").launch.nodes, 2);
  EXPECT_EQ(started("fleet").launch.gpus, 2);
  EXPECT_EQ(started("fleet").launch.hosts, "10.0.0.1,10.0.0.2");
  EXPECT_EQ(started("fleet").launch.time_limit, 105);
  EXPECT_TRUE(started("bench").launch.exclusive);
  EXPECT_FALSE(started("a").launch.exclusive);
}

// An executor that places stages itself (Slurm with tipc-run's placement) may have no room
// for a stage now: it waits in tipc-run, not in the cluster's queue, and later stages that
// fit start beside it (backfilling).
TEST_F(SchedulerTest, OnAClusterAStageWithoutRoomWaitsInTipcRunWhileOthersStart) {
  options_.cluster = ClusterCapacity{1, 2, "slurm (sinfo)", 8, {}};
  fake_.room = [this](const Demand& demand) {  // the nodes hold one GPU stage at a time
    const auto gpu_stage_running = std::any_of(fake_.records.begin(), fake_.records.end(),
                                               [](const auto& r) { return r.launch.gpus > 0 && r.end < 0; });
    return demand.gpus == 0 || !gpu_stage_running;
  };
  fake_.scripts["c.txt#g1"].seconds = 3;
  const auto p = make_plan({make_stage("g1", StageKind::kTrain, 1), make_stage("g2", StageKind::kTrain, 1),
                            make_stage("c1", StageKind::kInfer, 0), make_stage("c2", StageKind::kInfer, 0)});
  const auto s = run({&p}, 8, 0);
  EXPECT_EQ(s.count(Status::kPass), 4);
  EXPECT_EQ(started("g2").start, started("g1").end) << "held back until g1's GPU was free";
  EXPECT_EQ(started("c1").start, 0);
  EXPECT_EQ(started("c2").start, 0) << "backfilled beside g1 while g2 waited";
}

TEST_F(SchedulerTest, AllocatedGpusReachTheStageMappedFromLogicalIds) {
  const auto p = make_plan({make_stage("a", StageKind::kTrain, 2), make_stage("b", StageKind::kTrain, 1),
                            make_stage("c", StageKind::kTrain, 1)});
  run({&p}, 4, 4);
  EXPECT_EQ(started("a").env.at("CUDA_VISIBLE_DEVICES"), "0,1");
  EXPECT_EQ(started("b").env.at("CUDA_VISIBLE_DEVICES"), "2");
  EXPECT_EQ(started("c").env.at("CUDA_VISIBLE_DEVICES"), "3");
}

TEST_F(SchedulerTest, NeverDoubleBooksAGpuAndBackfills) {
  std::vector<plan::Stage> stages;
  for (int i = 0; i < 20; ++i) {
    const int gpus = i % 5 == 0 ? 2 : 1;
    stages.push_back(make_stage("s" + std::to_string(i), StageKind::kTrain, gpus));
    fake_.scripts["c.txt#s" + std::to_string(i)].seconds = 1 + (i * 7) % 5;
  }
  const auto p = make_plan(stages);
  const auto s = run({&p}, 8, 4);
  double gpu_seconds = 0, longest = 0;
  for (const auto& a : fake_.records) {
    const auto ga = split_list(*a.env.at("CUDA_VISIBLE_DEVICES"), ',');
    gpu_seconds += (a.end - a.start) * static_cast<double>(ga.size());
    longest = std::max(longest, a.end - a.start);
    for (const auto& b : fake_.records) {
      if (&a == &b || a.end <= b.start || b.end <= a.start) continue;
      for (const auto& g : split_list(*b.env.at("CUDA_VISIBLE_DEVICES"), ',')) {
        EXPECT_EQ(std::count(ga.begin(), ga.end(), g), 0) << a.id << " and " << b.id << " share GPU " << g;
      }
    }
  }
  EXPECT_EQ(s.count(Status::kPass), 20);
  const double lower_bound = std::max(longest, gpu_seconds / 4);
  EXPECT_LE(s.seconds, lower_bound * 1.25) << "makespan " << s.seconds << " vs lower bound " << lower_bound;
}

TEST_F(SchedulerTest, BenchmarkStagesRunAlone) {
  auto bench = make_stage("bench", StageKind::kInfer, 1);
  bench.benchmark = true;
  const auto p = make_plan({make_stage("a", StageKind::kTrain, 1), bench, make_stage("b", StageKind::kTrain, 1),
                            make_stage("c", StageKind::kTrain, 0)});
  run({&p}, 4, 2);
  const auto& b = started("bench");
  for (const auto& r : fake_.records) {
    if (r.id == b.id) continue;
    EXPECT_TRUE(r.end <= b.start || r.start >= b.end) << r.id << " overlaps the benchmark";
  }
}

TEST_F(SchedulerTest, TimeoutSendsSigtermThenSigkillAfterTheGrace) {
  fake_.scripts["c.txt#polite"].seconds = 100;
  fake_.scripts["c.txt#stubborn"].seconds = 100;
  fake_.scripts["c.txt#stubborn"].ignores_sigterm = true;
  options_.timeouts.by_kind[StageKind::kTrain] = 10;
  options_.timeouts.grace = 3;
  const auto p = make_plan({make_stage("polite", StageKind::kTrain, 0), make_stage("stubborn", StageKind::kTrain, 0)});
  const auto s = run({&p}, 2, 0);
  EXPECT_EQ(record(s, "polite").verdict.result, Status::kTimeout);
  EXPECT_EQ(record(s, "polite").verdict.reason, "timed out after 10 s");
  EXPECT_DOUBLE_EQ(started("polite").end, 10);
  EXPECT_EQ(started("stubborn").signals, (std::vector<int>{SIGTERM, SIGKILL}));
  EXPECT_DOUBLE_EQ(started("stubborn").end, 13);
  EXPECT_EQ(record(s, "stubborn").verdict.result, Status::kTimeout);
  EXPECT_EQ(s.verdict().exit_code({false}), 1);
}

TEST_F(SchedulerTest, TimeoutOptionAppliesToEveryKind) {
  options_.timeouts.all = 0.5;
  const auto p = make_plan({make_stage("e", StageKind::kEval, 0)});
  EXPECT_EQ(record(run({&p}, 1, 0), "e").verdict.result, Status::kTimeout);
}

TEST_F(SchedulerTest, InterruptStopsStartingSignalsRunningAndSkipsTheRest) {
  fake_.interrupt_at = 1.5;
  fake_.scripts["c.txt#a"].seconds = 5;
  fake_.scripts["c.txt#b"].seconds = 5;
  fake_.scripts["c.txt#b"].ignores_sigterm = true;
  options_.timeouts.grace = 2;
  const auto p = make_plan({make_stage("a", StageKind::kTrain, 0), make_stage("b", StageKind::kTrain, 0),
                            make_stage("c", StageKind::kTrain, 0), make_stage("d", StageKind::kEval, 0, {"a"})});
  const auto s = run({&p}, 2, 0);
  EXPECT_TRUE(s.interrupted);
  EXPECT_EQ(s.verdict().exit_code({false}), 130);
  EXPECT_EQ(started("a").signals, std::vector<int>{SIGTERM});
  EXPECT_EQ(started("b").signals, (std::vector<int>{SIGTERM, SIGKILL}));
  EXPECT_DOUBLE_EQ(started("b").end, 3.5);
  EXPECT_EQ(record(s, "a").verdict.reason, "interrupted while running");
  EXPECT_EQ(record(s, "c").verdict.result, Status::kSkipped);
  EXPECT_EQ(record(s, "c").verdict.reason, "interrupted before it started");
  EXPECT_EQ(fake_.records.size(), 2u);
}

TEST_F(SchedulerTest, ALaunchErrorIsUnresolved) {
  fake_.scripts["c.txt#a"].launch_error = "cannot execute python: No such file or directory";
  const auto p = make_plan({make_stage("a", StageKind::kTrain, 0), make_stage("b", StageKind::kEval, 0, {"a"})});
  const auto s = run({&p}, 1, 0);
  EXPECT_EQ(record(s, "a").verdict.result, Status::kUnresolved);
  EXPECT_EQ(record(s, "b").verdict.result, Status::kSkipped);
  EXPECT_EQ(s.verdict().exit_code({false}), 1);
}

// A stage runs in its planned directory or not at all: one whose directory cannot be entered
// is UNRESOLVED, naming the directory and the housekeeping that should have made it (or that
// no step makes it), and its dependents are SKIPPED as after any failure.
TEST_F(SchedulerTest, AWorkingDirectoryThatCannotBeEnteredIsUnresolvedNamingWhatShouldHaveMadeIt) {
  fake_.scripts["c.txt#cmake"].cwd_error = ENOENT;
  fake_.scripts["c.txt#serve"].cwd_error = ENOTDIR;
  auto cmake = make_stage("cmake", StageKind::kExport, 0);
  cmake.cwd = "deploy/cpp/build";
  cmake.cwd_made_by = "setup step setup_1 (`mkdir -p build` in deploy/cpp)";
  auto serve = make_stage("serve", StageKind::kInfer, 0);
  serve.cwd = "deploy/serving";
  const auto p = make_plan(
      {cmake, make_stage("infer", StageKind::kInfer, 0, {"cmake"}), serve, make_stage("other", StageKind::kTrain, 0)});
  const auto s = run({&p}, 1, 0);
  EXPECT_EQ(record(s, "cmake").verdict.result, Status::kUnresolved);
  EXPECT_EQ(record(s, "cmake").verdict.reason,
            "could not start: cannot enter the working directory /repo/deploy/cpp/build: No such file or directory; "
            "setup step setup_1 (`mkdir -p build` in deploy/cpp) should have made it");
  EXPECT_EQ(record(s, "serve").verdict.reason,
            "could not start: cannot enter the working directory /repo/deploy/serving: Not a directory; "
            "no step of the plan makes it");
  EXPECT_EQ(record(s, "infer").verdict.result, Status::kSkipped);
  EXPECT_EQ(record(s, "infer").verdict.reason, "dependency cmake UNRESOLVED");
  EXPECT_EQ(record(s, "other").verdict.result, Status::kPass);
  EXPECT_EQ(fake_.records.size(), 1u) << "only 'other' ran";
  EXPECT_EQ(s.verdict().exit_code({false}), 1);
}

// Only a directory the executor could not enter names housekeeping; other launch errors are as
// the executor said them.
TEST_F(SchedulerTest, AnotherLaunchErrorNamesNoHousekeeping) {
  fake_.scripts["c.txt#a"].launch_error = "cannot execute '/repo/./main': No such file or directory";
  auto a = make_stage("a", StageKind::kInfer, 0);
  a.cwd_made_by = "setup step setup_1 (`mkdir -p build` in deploy/cpp)";
  const auto p = make_plan({a});
  EXPECT_EQ(record(run({&p}, 1, 0), "a").verdict.reason,
            "could not start: cannot execute '/repo/./main': No such file or directory");
}

TEST_F(SchedulerTest, ResumedStagesAreNotRun) {
  const auto p = make_plan({make_stage("a", StageKind::kTrain, 0), make_stage("b", StageKind::kEval, 0, {"a"})});
  options_.resumed = {"c.txt#a"};
  const auto s = run({&p}, 1, 0);
  EXPECT_TRUE(record(s, "a").resumed);
  EXPECT_EQ(record(s, "a").verdict.result, Status::kPass);
  ASSERT_EQ(fake_.records.size(), 1u);
  EXPECT_EQ(fake_.records[0].id, "c.txt#b");
}

TEST_F(SchedulerTest, ASuiteSharesTheResources) {
  const auto p1 = make_plan({make_stage("t", StageKind::kTrain, 1)}, "one.txt");
  const auto p2 = make_plan({make_stage("t", StageKind::kTrain, 1)}, "two.txt");
  const auto s = run({&p1, &p2}, 4, 1);
  EXPECT_EQ(s.stages.size(), 2u);
  EXPECT_DOUBLE_EQ(s.seconds, 2.0);  // one GPU: one after the other
}

// PaddleGAN's runner cats its trainer's log by a glob (`cat DIR/*.log`): every match, in
// the shell's order, is appended; no match is a trainer log not found, as cat fails then.
TEST_F(SchedulerTest, ATrainerLogPatternAppendsEveryMatchInOrder) {
  test::TempDir repo;
  repo.write("out/b_train.log", "second\n");
  repo.write("out/a_train.log", "first\n");
  repo.write("logs/found.log", "");  // the stage's own output, which the fake executor does not write
  plan::Stage found = make_stage("found", StageKind::kTrain, 0);
  found.results_log.trainer_log = "out/*_train.log";
  plan::Stage missing = make_stage("missing", StageKind::kTrain, 0);
  missing.results_log.trainer_log = "nowhere/*_train.log";
  const plan::Plan p = make_plan({found, missing});
  options_.jobs = 1;
  options_.repo_root = repo.path().string();
  const auto summary = run_stages({&p}, fake_, recorder_, options_, [] { return false; });
  EXPECT_EQ(record(summary, "found").observation.trainer_log_found, true);
  EXPECT_EQ(test::slurp((repo.path() / "logs/found.log").string()), "first\nsecond\n");
  EXPECT_EQ(record(summary, "missing").observation.trainer_log_found, false);
}

// PaddleVideo trains with `> LOG/train.log`, then runs `cat LOG/train.log >> ...`: where the
// trainer log is the stage's own log it is in that log already, and appending it to itself
// would read on as fast as it writes.
TEST_F(SchedulerTest, ATrainerLogThatIsTheStagesOwnLogIsNotAppendedToItself) {
  test::TempDir repo;
  repo.write("logs/self.log", "trainer line\n");
  plan::Stage self = make_stage("self", StageKind::kTrain, 0);
  self.results_log.trainer_log = "./logs/self.log";
  plan::Stage other = make_stage("other", StageKind::kTrain, 0);
  other.results_log.trainer_log = "logs/self.log";
  const plan::Plan p = make_plan({self, other});
  options_.jobs = 1;
  options_.repo_root = repo.path().string();
  run_stages({&p}, fake_, recorder_, options_, [] { return false; });
  ASSERT_EQ(fake_.records.size(), 2u);
  for (const auto& launched : fake_.records) {
    const bool is_self = launched.launch.log_path.ends_with("logs/self.log");
    EXPECT_EQ(launched.launch.trainer_log.empty(), is_self) << launched.launch.log_path;
  }
  EXPECT_EQ(test::slurp((repo.path() / "logs/self.log").string()), "trainer line\n") << "never appended to itself";
  EXPECT_EQ(test::slurp((repo.path() / "logs/other.log").string()), "trainer line\n") << "another stage's log";
}

// The executor appends the trainer log after the stage's processes ended, and the scheduler
// goes on keeping deadlines meanwhile; a timeout or an interrupt that comes during that copy
// is not the stage's: it ended before them.
TEST_F(SchedulerTest, ADeadlineOrInterruptWhileTheTrainerLogIsAppendedIsNotTheStages) {
  test::TempDir repo;
  repo.write("logs/slow.log", "");
  repo.write("out/train.log", "trainer line\n");
  options_.repo_root = repo.path().string();
  options_.timeouts.by_kind[StageKind::kTrain] = 10;
  options_.jobs = 1;
  plan::Stage slow = make_stage("slow", StageKind::kTrain, 0);
  slow.results_log.trainer_log = "out/train.log";
  const auto p = make_plan({slow});
  for (const bool interrupt : {false, true}) {
    FakeExecutor fake;                        // its clock starts at 0 again
    fake.scripts["c.txt#slow"].seconds = 12;  // processes end at 9, the append takes 3 more
    fake.scripts["c.txt#slow"].appending_seconds = 3;
    fake.interrupt_at = interrupt ? 9.5 : -1;
    const auto s = run_stages({&p}, fake, recorder_, options_, [&fake] { return fake.interrupt_fired(); });
    EXPECT_EQ(record(s, "slow").verdict.result, Status::kPass) << record(s, "slow").verdict.reason;
    EXPECT_EQ(record(s, "slow").observation.trainer_log_found, true);
    ASSERT_EQ(fake.records.size(), 1u);
    EXPECT_TRUE(fake.records[0].signals.empty());
    EXPECT_EQ(s.interrupted, interrupt);
  }
}

TEST_F(SchedulerTest, TicksAtLeastOnceASecondWhileAStageRunsAndNotAfterwards) {
  fake_.default_script.seconds = 150.5;
  const auto p = make_plan({make_stage("train", StageKind::kTrain, 0)});
  run({&p}, 1, 0);
  ASSERT_FALSE(recorder_.ticks.empty());
  EXPECT_LE(recorder_.ticks.front(), 1.0);
  for (std::size_t i = 1; i < recorder_.ticks.size(); ++i) {
    EXPECT_LE(recorder_.ticks[i] - recorder_.ticks[i - 1], 1.0) << "between ticks " << i - 1 << " and " << i;
  }
  EXPECT_DOUBLE_EQ(recorder_.ticks.back(), 150.5);  // the last: when the stage ended
}

// ---- services (issue 17): a server its dependents use, ready before they start, stopped after them ----

class ServiceTest : public SchedulerTest {
 protected:
  // The service is ready from `ready_at` seconds of the fake clock on.
  void ready_from(double ready_at) {
    options_.ready_probe = [this, ready_at](const plan::Service&, const std::string&) {
      return fake_.seconds_now() >= ready_at;
    };
  }
  static plan::Stage service(const std::string& id, std::optional<int> port = 9393, double ready_timeout = 10) {
    auto s = make_stage(id, StageKind::kService, 0);
    s.service = plan::Service{port, "", ready_timeout};
    return s;
  }
  void serve_forever(const std::string& id) { fake_.scripts["c.txt#" + id].seconds = 1e6; }
  // The smallest serving chain: a server on port 9393 and one client of it.
  RunSummary run_server_and_client() {
    plan_ = make_plan({service("server"), make_stage("client", StageKind::kInfer, 0, {"server"})});
    return run({&plan_}, 2, 0);
  }

  plan::Plan plan_;
};

TEST_F(ServiceTest, ClientsStartOnceItIsReadyAndItIsStoppedAfterTheLastOnePasses) {
  serve_forever("server");
  ready_from(2.5);
  fake_.scripts["c.txt#slow_client"].seconds = 4;
  const auto p = make_plan({service("server"), make_stage("client", StageKind::kInfer, 0, {"server"}),
                            make_stage("slow_client", StageKind::kInfer, 0, {"server"})});
  const auto s = run({&p}, 4, 0);
  EXPECT_NEAR(started("client").start, 2.5, 0.06) << "not before it is ready, and soon after";
  EXPECT_NEAR(started("slow_client").start, 2.5, 0.06);
  EXPECT_EQ(started("server").signals, std::vector<int>{SIGTERM});
  EXPECT_NEAR(started("server").end, started("slow_client").end, 0.06) << "stopped once its last client ended";
  EXPECT_EQ(record(s, "server").verdict.result, Status::kPass);
  EXPECT_EQ(record(s, "server").verdict.reason, "stopped after its last client");
  EXPECT_EQ(s.verdict().kind, VerdictKind::kPass);
}

TEST_F(ServiceTest, NotReadyInTimeIsAFailureItsClientsAreSkippedAndAStubbornServerIsKilled) {
  serve_forever("server");
  fake_.scripts["c.txt#server"].ignores_sigterm = true;
  ready_from(1e9);
  options_.timeouts.grace = 2;
  const auto p = make_plan({service("server", 9393, 5), make_stage("client", StageKind::kInfer, 0, {"server"})});
  const auto s = run({&p}, 2, 0);
  EXPECT_EQ(record(s, "server").verdict.result, Status::kFail);
  EXPECT_EQ(record(s, "server").verdict.reason, "not ready within 5 s (waited for port 9393)");
  EXPECT_EQ(started("server").signals, (std::vector<int>{SIGTERM, SIGKILL}));
  EXPECT_NEAR(started("server").end, 7, 0.06);
  EXPECT_EQ(record(s, "client").verdict.result, Status::kSkipped);
  EXPECT_EQ(record(s, "client").verdict.reason, "dependency server FAIL");
  EXPECT_EQ(fake_.records.size(), 1u) << "no client started";
}

TEST_F(ServiceTest, AServerThatDiesBeforeItIsReadyFailsWithItsExitAndNoClientStarts) {
  fake_.scripts["c.txt#server"].seconds = 1;
  fake_.scripts["c.txt#server"].exit_code = 3;
  ready_from(2);
  const auto s = run_server_and_client();
  EXPECT_EQ(record(s, "server").verdict.result, Status::kFail);
  EXPECT_EQ(record(s, "server").verdict.reason, "ended before it was ready: exit code 3");
  EXPECT_EQ(record(s, "client").verdict.result, Status::kSkipped);
}

TEST_F(ServiceTest, AServerThatEndsWhileItsClientsRunFails) {
  fake_.scripts["c.txt#server"].seconds = 3;
  fake_.scripts["c.txt#client"].seconds = 5;
  ready_from(1);
  const auto s = run_server_and_client();
  EXPECT_EQ(record(s, "server").verdict.result, Status::kFail);
  EXPECT_EQ(record(s, "server").verdict.reason, "ended while its clients ran: exit code 0");
  EXPECT_EQ(s.verdict().kind, VerdictKind::kFail);
}

TEST_F(ServiceTest, AHungClientTimesOutAndTheServerIsStoppedAfterIt) {
  serve_forever("server");
  fake_.scripts["c.txt#client"].seconds = 1e6;
  ready_from(0);
  options_.timeouts.by_kind[StageKind::kInfer] = 20;
  const auto s = run_server_and_client();
  EXPECT_EQ(record(s, "client").verdict.result, Status::kTimeout);
  EXPECT_EQ(record(s, "server").verdict.result, Status::kPass) << "the server did its part";
  EXPECT_NEAR(started("server").end, 20, 0.06);
  EXPECT_EQ(s.verdict().kind, VerdictKind::kFail);
}

TEST_F(ServiceTest, ServicesOnOnePortNeverRunAtOnceAndDoNotCountAgainstJobs) {
  serve_forever("server_a");
  serve_forever("server_b");
  ready_from(0);
  fake_.scripts["c.txt#client_a"].seconds = 3;
  const auto p = make_plan({service("server_a"), make_stage("client_a", StageKind::kInfer, 0, {"server_a"}),
                            service("server_b"), make_stage("client_b", StageKind::kInfer, 0, {"server_b"})});
  const auto s = run({&p}, 1, 0);
  EXPECT_GE(started("server_b").start, started("server_a").end) << "port 9393 is held until server_a stopped";
  EXPECT_EQ(record(s, "client_a").verdict.result, Status::kPass) << "-j 1 still lets a client run beside its server";
  EXPECT_EQ(record(s, "client_b").verdict.result, Status::kPass);
  EXPECT_EQ(record(s, "server_b").verdict.result, Status::kPass);
}

// A suite (issue 39): the serving configs of two configs name one port; their servers never
// run at once, across configs as within one, and each config's client still passes.
TEST_F(ServiceTest, ServicesOfTwoConfigsOnOnePortNeverRunAtOnce) {
  ready_from(0);
  fake_.scripts["a.txt#server"].seconds = 1e6;  // each serves until it is stopped
  fake_.scripts["b.txt#server"].seconds = 1e6;
  fake_.scripts["a.txt#client"].seconds = 3;
  const auto a = make_plan({service("server"), make_stage("client", StageKind::kInfer, 0, {"server"})}, "a.txt");
  const auto b = make_plan({service("server"), make_stage("client", StageKind::kInfer, 0, {"server"})}, "b.txt");
  const auto s = run({&a, &b}, 4, 0);
  ASSERT_EQ(s.stages.size(), 4u);
  std::vector<const StageRecord*> servers;
  for (const auto& stage : s.stages) {
    EXPECT_EQ(stage.verdict.result, Status::kPass) << stage.stage->id << ": " << stage.verdict.reason;
    if (stage.stage->id == "server") servers.push_back(&stage);
  }
  ASSERT_EQ(servers.size(), 2u);
  const StageRecord& first = servers[0]->start_seconds <= servers[1]->start_seconds ? *servers[0] : *servers[1];
  const StageRecord& second = &first == servers[0] ? *servers[1] : *servers[0];
  EXPECT_GE(second.start_seconds, first.end_seconds) << "port 9393 is held until the first config's server stopped";
}

TEST_F(ServiceTest, AClientOfTwoServicesOnOnePortIsUnsupportedNotDeadlocked) {
  ready_from(0);
  const auto p = make_plan({service("a"), service("b"), make_stage("client", StageKind::kInfer, 0, {"a", "b"})});
  const auto s = run({&p}, 2, 0);
  EXPECT_EQ(record(s, "client").verdict.result, Status::kUnsupported);
  EXPECT_EQ(record(s, "client").verdict.reason,
            "depends on two services that both hold port 9393, which never run at once");
}

TEST_F(ServiceTest, AServerHoldingTheGpuItsClientNeedsIsStoppedNotWaitedOnForever) {
  serve_forever("server");
  ready_from(0);
  auto server = service("server");
  server.needs.gpus = 1;
  server.env["CUDA_VISIBLE_DEVICES"] = "0";
  const auto p = make_plan({server, make_stage("client", StageKind::kInfer, 1, {"server"})});
  const auto s = run({&p}, 2, 1);
  EXPECT_EQ(record(s, "server").verdict.result, Status::kFail);
  EXPECT_EQ(record(s, "server").verdict.reason,
            "its clients could not start while it ran (they need resources it holds)");
  EXPECT_EQ(record(s, "client").verdict.result, Status::kSkipped);
}

TEST_F(ServiceTest, AnInterruptStopsTheServerWithItsClients) {
  serve_forever("server");
  fake_.scripts["c.txt#client"].seconds = 10;
  ready_from(0);
  fake_.interrupt_at = 2;
  const auto s = run_server_and_client();
  EXPECT_TRUE(s.interrupted);
  EXPECT_EQ(started("server").signals, std::vector<int>{SIGTERM});
  EXPECT_EQ(record(s, "server").verdict.result, Status::kSkipped);
  EXPECT_EQ(record(s, "server").verdict.reason, "interrupted while running");
}

TEST_F(ServiceTest, AServiceWithoutClientsIsStoppedAsAPassOnceReady) {
  serve_forever("server");
  ready_from(1);
  plan_ = make_plan({service("server")});
  const auto s = run({&plan_}, 1, 0);
  EXPECT_EQ(record(s, "server").verdict.result, Status::kPass);
  EXPECT_EQ(record(s, "server").verdict.reason, "stopped after its last client");
  EXPECT_NEAR(started("server").end, 1, 0.06);
}

TEST_F(ServiceTest, WithOneJobTheNextServerWaitsForTheClientBeforeItAsTheRunnerDoes) {
  serve_forever("server_a");
  serve_forever("server_b");
  ready_from(1);
  plan_ = make_plan({service("server_a", std::nullopt), make_stage("client_a", StageKind::kInfer, 0, {"server_a"}),
                     service("server_b", std::nullopt), make_stage("client_b", StageKind::kInfer, 0, {"server_b"})});
  const auto s = run({&plan_}, 1, 0);
  EXPECT_EQ(recorder_.started, (std::vector<std::string>{"server_a", "client_a", "server_b", "client_b"}));
  EXPECT_EQ(s.verdict().kind, VerdictKind::kPass);
}

// --fail-fast: a client fails; the one running beside it finishes, served to its end, the
// one not started is SKIPPED, and the server is stopped after its last running client as usual.
TEST_F(ServiceTest, FailFastLetsTheServerServeItsRunningClientsAndStopsItAfterThem) {
  serve_forever("server");
  ready_from(1);
  options_.fail_fast = true;
  fake_.scripts["c.txt#fails"].exit_code = 1;
  fake_.scripts["c.txt#slow"].seconds = 5;
  const auto p = make_plan({service("server"), make_stage("fails", StageKind::kInfer, 0, {"server"}),
                            make_stage("slow", StageKind::kInfer, 0, {"server"}),
                            make_stage("later", StageKind::kInfer, 0, {"server"})});
  const auto s = run({&p}, 2, 0);
  EXPECT_EQ(record(s, "slow").verdict.result, Status::kPass);
  EXPECT_EQ(record(s, "later").verdict.reason, "not started: --fail-fast after fails failed");
  EXPECT_NEAR(started("server").end, started("slow").end, 0.06);
  EXPECT_EQ(record(s, "server").verdict.result, Status::kPass);
  EXPECT_EQ(record(s, "server").verdict.reason, "stopped after its last client");
  EXPECT_EQ(s.verdict().kind, VerdictKind::kFail);
}

TEST_F(ServiceTest, OnAClusterAServiceIsUnsupported) {
  options_.cluster = ClusterCapacity{4, 8, "sinfo", 32, {}};
  const auto s = run_server_and_client();
  EXPECT_EQ(record(s, "server").verdict.result, Status::kUnsupported);
  EXPECT_EQ(record(s, "client").verdict.result, Status::kUnsupported);
}

// --retries: a stage that fails and then passes is FLAKY (a pass for its dependents and the
// exit code, never a plain PASS); each try's log is kept beside the stage's own.
TEST_F(SchedulerTest, AStageThatFailsAndThenPassesIsFlakyAndKeepsEachTrysLog) {
  test::TempDir repo;
  repo.write("logs/train.log", "first try\n");  // what the fake executor does not write itself
  fake_.scripts["c.txt#train"].first_exit_codes = {1};
  options_.retries = 2;
  const auto p =
      make_plan({make_stage("train", StageKind::kTrain, 0), make_stage("eval", StageKind::kEval, 0, {"train"})});
  options_.jobs = 1;
  options_.repo_root = repo.path().string();
  const auto s = run_stages({&p}, fake_, recorder_, options_, [] { return false; });
  const StageRecord& train = record(s, "train");
  EXPECT_EQ(train.verdict.result, Status::kFlaky);
  EXPECT_EQ(train.verdict.reason, "passed on attempt 2 of 3; attempt 1: FAIL exit code 1");
  ASSERT_EQ(train.attempts.size(), 1u);
  EXPECT_EQ(train.attempts[0].verdict.result, Status::kFail);
  EXPECT_EQ(train.attempts[0].exit_code, 1);
  EXPECT_DOUBLE_EQ(train.attempts[0].end_seconds, 1.0);
  EXPECT_EQ(train.attempts[0].log_path, (repo.path() / "logs/train.attempt1.log").string());
  EXPECT_EQ(test::slurp(train.attempts[0].log_path), "first try\n");
  EXPECT_DOUBLE_EQ(train.end_seconds - train.start_seconds, 2.0);             // both tries
  EXPECT_EQ(record(s, "eval").verdict.result, Status::kPass);                 // a flaky dependency is met
  EXPECT_EQ(recorder_.started, (std::vector<std::string>{"train", "eval"}));  // one start event per stage
  EXPECT_EQ(s.verdict().flaky, 1);
  EXPECT_EQ(s.verdict().headline(), "PASS (1 of 2 stages flaky)");
  EXPECT_EQ(s.verdict().exit_code({}), 0);
}

TEST_F(SchedulerTest, AStageThatFailsEveryTryFailsAfterRetriesAndATimeoutIsRetriedToo) {
  fake_.scripts["c.txt#broken"].exit_code = 3;
  fake_.scripts["c.txt#hangs"].seconds = 100;
  options_.timeouts.by_kind[StageKind::kEval] = 10;
  options_.retries = 1;
  const auto p = make_plan({make_stage("broken", StageKind::kTrain, 0), make_stage("hangs", StageKind::kEval, 0)});
  const auto s = run({&p}, 2, 0);
  EXPECT_EQ(record(s, "broken").verdict.result, Status::kFail);
  EXPECT_EQ(record(s, "broken").verdict.reason, "exit code 3 (attempt 2 of 2)");
  EXPECT_EQ(record(s, "broken").attempts.size(), 1u);
  EXPECT_EQ(record(s, "hangs").verdict.result, Status::kTimeout);
  EXPECT_EQ(record(s, "hangs").attempts.at(0).verdict.result, Status::kTimeout);
  EXPECT_DOUBLE_EQ(started("hangs").end, 10);  // the first try; the second has its own 10 s
  EXPECT_DOUBLE_EQ(fake_.records.back().end, 20);
  EXPECT_EQ(fake_.records.size(), 4u);
  EXPECT_EQ(s.verdict().flaky, 0);
}

TEST_F(SchedulerTest, WithoutRetriesAFailureIsNotRunAgainAndUnresolvedNeverIs) {
  fake_.scripts["c.txt#a"].first_exit_codes = {1};
  fake_.scripts["c.txt#b"].launch_error = "cannot execute python";
  const auto p = make_plan({make_stage("a", StageKind::kTrain, 0), make_stage("b", StageKind::kTrain, 0)});
  const auto s = run({&p}, 1, 0);
  EXPECT_EQ(record(s, "a").verdict.result, Status::kFail);
  options_.retries = 3;
  fake_ = FakeExecutor{};
  fake_.scripts["c.txt#b"].launch_error = "cannot execute python";
  const auto again = run({&p}, 1, 0);
  EXPECT_EQ(record(again, "b").verdict.result, Status::kUnresolved);
  EXPECT_TRUE(record(again, "b").attempts.empty());
}

// --fail-fast: after the first failure nothing new starts; what runs then finishes.
TEST_F(SchedulerTest, FailFastStartsNothingAfterTheFirstFailureAndLetsTheRunningOnesFinish) {
  fake_.scripts["c.txt#fails"].exit_code = 1;
  fake_.scripts["c.txt#long"].seconds = 5;
  options_.fail_fast = true;
  const auto p =
      make_plan({make_stage("fails", StageKind::kTrain, 0), make_stage("long", StageKind::kTrain, 0),
                 make_stage("after", StageKind::kEval, 0, {"fails"}), make_stage("later", StageKind::kTrain, 0)});
  const auto s = run({&p}, 2, 0);
  EXPECT_EQ(record(s, "fails").verdict.result, Status::kFail);
  EXPECT_EQ(record(s, "long").verdict.result, Status::kPass);  // running at the failure: it finished
  EXPECT_TRUE(started("long").signals.empty());
  EXPECT_DOUBLE_EQ(started("long").end, 5);
  EXPECT_EQ(record(s, "after").verdict.reason, "dependency fails FAIL");
  EXPECT_EQ(record(s, "later").verdict.result, Status::kSkipped);
  EXPECT_EQ(record(s, "later").verdict.reason, "not started: --fail-fast after fails failed");
  EXPECT_EQ(fake_.records.size(), 2u);
  EXPECT_EQ(s.verdict().kind, VerdictKind::kFail);
}

TEST_F(SchedulerTest, FailFastTakesAFlakyStageAsPassed) {
  fake_.scripts["c.txt#flaky"].first_exit_codes = {1};
  options_.retries = 1;
  options_.fail_fast = true;
  const auto p = make_plan({make_stage("flaky", StageKind::kTrain, 0), make_stage("next", StageKind::kTrain, 0)});
  const auto s = run({&p}, 1, 0);
  EXPECT_EQ(record(s, "flaky").verdict.result, Status::kFlaky);
  EXPECT_EQ(record(s, "next").verdict.result, Status::kPass);
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::run
