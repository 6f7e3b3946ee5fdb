// The scheduler with a GPU watch (issue 40) against the fake executor and a scripted driver
// on the executor's virtual clock: GPUs handed on only once the memory of their last stage is
// free (within the bound), foreign processes named or refused, figures sampled, idle stages
// timed out with their stacks dumped first.
#include "run/gpu_watch.h"

#include <gtest/gtest.h>

#include "run/scheduler.h"
#include "support/fake_executor.h"

namespace tipc::run {
namespace {
namespace TIPC_TEST_FILE {

using plan::StageKind;

// A process on a device from `from` to `until` seconds of virtual time.
struct Held {
  GpuProcess process;
  double from = 0;
  double until = 1e9;
};

class ScriptedDriver : public GpuDriver {
 public:
  explicit ScriptedDriver(const FakeExecutor& clock) : clock_(clock) {}
  std::vector<Held> held;           // all on GPU-0
  std::vector<GpuSample> readings;  // one per sample() call, the last repeated
  GpuInventory inventory() override { return {{{0, "Fake H100", "GPU-0", "", {}, {}}}, "fake"}; }
  std::optional<GpuSample> sample(const std::string&) override {
    if (readings.empty()) return std::nullopt;
    const GpuSample reading = readings[std::min(next_reading_, readings.size() - 1)];
    ++next_reading_;
    return reading;
  }
  std::optional<std::vector<GpuProcess>> processes(const std::string&) override {
    std::vector<GpuProcess> now;
    for (const Held& h : held) {
      if (clock_.seconds_now() >= h.from && clock_.seconds_now() < h.until) now.push_back(h.process);
    }
    return now;
  }

 private:
  const FakeExecutor& clock_;
  std::size_t next_reading_ = 0;
};

plan::Stage gpu_stage(const std::string& id, std::vector<std::string> deps = {}) {
  plan::Stage s;
  s.id = id;
  s.kind = StageKind::kTrain;
  s.argv = {"python", id};
  s.cwd = ".";
  s.log = "logs/" + id + ".log";
  s.needs.gpus = 1;
  s.deps = std::move(deps);
  s.env["CUDA_VISIBLE_DEVICES"] = "0";
  return s;
}

class GpuWatchTest : public ::testing::Test {
 protected:
  GpuWatchTest() {
    options_.jobs = 2;
    options_.resources = {{{"0", 1, 0, "Fake H100", "GPU-0"}}, "test"};
    options_.repo_root = "/repo";
    options_.timeouts.grace = 1;
    plan_.config_path = "c.txt";
  }
  // Processes the lookup knows are alive, with their groups; any other pid has ended.
  std::map<int, ProcessFacts> alive_;
  std::map<int, std::string> group_of_;  // alive, in the process group of this stage while it runs
  RunSummary run(GpuWatchOptions watch_options) {
    GpuWatch watch(driver_, options_.resources, watch_options, [this](int pid) -> std::optional<ProcessFacts> {
      if (const auto stage = group_of_.find(pid); stage != group_of_.end()) {
        return ProcessFacts{fake_.process_group(stage->second).value_or(-1), "python3", false};
      }
      const auto it = alive_.find(pid);
      return it == alive_.end() ? std::nullopt : std::optional<ProcessFacts>(it->second);
    });
    options_.gpu_watch = &watch;
    Listener quiet;
    return run_stages({&plan_}, fake_, quiet, options_, [] { return false; });
  }
  const FakeExecutor::Record& started(const std::string& id) const {
    for (const auto& r : fake_.records) {
      if (r.id == "c.txt#" + id) return r;
    }
    throw std::runtime_error("never started: " + id);
  }
  void expect_started_between(const std::string& id, double from, double before) const {
    EXPECT_GE(started(id).start, from) << id;
    EXPECT_LT(started(id).start, before) << id;
  }
  static const StageRecord& record(const RunSummary& s, const std::string& id) {
    for (const auto& r : s.stages) {
      if (r.stage->id == id) return r;
    }
    throw std::runtime_error("no stage " + id);
  }

  FakeExecutor fake_;
  ScriptedDriver driver_{fake_};
  SchedulerOptions options_;
  plan::Plan plan_;
};

TEST_F(GpuWatchTest, TheNextStageStartsOnlyOnceTheDriverFreedTheMemoryOfTheLastOne) {
  plan_.stages = {gpu_stage("train"), gpu_stage("eval", {"train"})};
  fake_.scripts["c.txt#train"].seconds = 2;
  driver_.held = {{{5000, 4096}, 0.5, 5.0}};  // the train's process: gone at 2 s, its memory until 5 s
  const RunSummary summary = run({30, false, 1});
  expect_started_between("eval", 5.0, 5.3);
  EXPECT_TRUE(record(summary, "eval").gpu_warnings.empty());
}

TEST_F(GpuWatchTest, ARetryWaitsForTheMemoryOfItsLastTry) {
  plan_.stages = {gpu_stage("train")};
  fake_.scripts["c.txt#train"].seconds = 2;
  fake_.scripts["c.txt#train"].first_exit_codes = {1};
  driver_.held = {{{5000, 4096}, 0.5, 5.0}};  // the first try's process: its memory until 5 s
  options_.retries = 1;
  const RunSummary summary = run({30, false, 1});
  ASSERT_EQ(fake_.records.size(), 2u);
  EXPECT_GE(fake_.records[1].start, 5.0);
  EXPECT_LT(fake_.records[1].start, 5.3);
  EXPECT_EQ(record(summary, "train").verdict.result, Status::kFlaky);
}

TEST_F(GpuWatchTest, AfterTheBoundTheNextStageStartsAndItsLogSaysWhatWasStillHeld) {
  plan_.stages = {gpu_stage("train"), gpu_stage("eval", {"train"})};
  fake_.scripts["c.txt#train"].seconds = 2;
  driver_.held = {{{5000, 4096}, 0.5}};  // never freed
  const RunSummary summary = run({3, false, 1});
  EXPECT_NEAR(started("eval").start, 5.0, 0.25);
  const std::vector<std::string> expected{
      "GPU 0: memory of train still held after 3 s (pid 5000 (4096 MiB)); started anyway"};
  EXPECT_EQ(started("eval").launch.notes, expected);
  EXPECT_EQ(record(summary, "eval").gpu_warnings, expected);
}

TEST_F(GpuWatchTest, AProcessThisRunDidNotStartIsNamedAndOnAnExclusiveMachineFailsTheStage) {
  plan_.stages = {gpu_stage("train")};
  driver_.held = {{{777, 2048}}};
  alive_[777] = {42, "python3 other_job.py", false};
  const RunSummary shared = run({30, false, 1});
  const std::vector<std::string> expected{
      "GPU 0: pid 777 (python3 other_job.py) holds 2048 MiB; this run did not start it"};
  EXPECT_EQ(record(shared, "train").gpu_warnings, expected);
  EXPECT_EQ(started("train").launch.notes, expected);
  EXPECT_EQ(record(shared, "train").verdict.result, Status::kPass);

  fake_.records.clear();
  const RunSummary exclusive = run({30, true, 1});
  EXPECT_EQ(record(exclusive, "train").verdict.result, Status::kFail);
  EXPECT_EQ(record(exclusive, "train").verdict.reason,
            "its GPUs are not exclusive (gpus: exclusive): " + expected.front());
  EXPECT_TRUE(fake_.records.empty());
}

TEST_F(GpuWatchTest, ProcessesOfTheRunsOtherStagesAreNotForeign) {
  plan::Stage prep = gpu_stage("prep");
  prep.needs.gpus = 0;
  plan_.stages = {gpu_stage("train"), prep, gpu_stage("eval", {"prep"})};
  options_.resources.gpus[0].slots = 2;  // train and eval share GPU 0
  fake_.scripts["c.txt#train"].seconds = 3;
  driver_.held = {{{900, 100}, 0.5, 3}};
  group_of_ = {{900, "c.txt#train"}};  // the train's process
  const RunSummary summary = run({30, false, 1});
  expect_started_between("eval", 1, 3);
  EXPECT_TRUE(record(summary, "eval").gpu_warnings.empty());
}

TEST_F(GpuWatchTest, FiguresAreSampledWhileTheStageRuns) {
  plan_.stages = {gpu_stage("train")};
  fake_.scripts["c.txt#train"].seconds = 4.5;
  driver_.readings = {{1000, 50, 200, 0}, {3000, 100, 300, 0x4}, {2000, 90, 250, 0x1}};
  const RunSummary summary = run({30, false, 1});
  const GpuFigures& figures = record(summary, "train").gpu_figures;
  EXPECT_GE(figures.samples, 4);
  EXPECT_EQ(figures.memory_peak_mib, 3000);
  EXPECT_EQ(figures.utilization_peak_percent, 100);
  ASSERT_TRUE(figures.utilization_mean_percent);
  EXPECT_GT(*figures.utilization_mean_percent, 80);
  EXPECT_LT(*figures.utilization_mean_percent, 95);
  EXPECT_EQ(figures.power_peak_watts, 300);
  EXPECT_EQ(figures.throttle_reasons, std::vector<std::string>{"sw_power_cap"});  // the idle bit is no reason
}

TEST(GpuFigures, AFigureTheDriverDoesNotGiveStaysUnset) {
  GpuFigures figures;
  figures.add({512, std::nullopt, std::nullopt, 0});
  EXPECT_EQ(figures.samples, 1);
  EXPECT_EQ(figures.memory_peak_mib, 512);
  EXPECT_FALSE(figures.utilization_mean_percent);
  EXPECT_FALSE(figures.power_peak_watts);
  EXPECT_EQ(throttle_reason_names(0x8 | 0x40 | 0x1), (std::vector<std::string>{"hw_slowdown", "hw_thermal_slowdown"}));
}

TEST_F(GpuWatchTest, AStageThatPrintsNothingForTheIdleTimeoutEndsTimeoutWithItsStacksDumped) {
  plan::Stage hang = gpu_stage("train");
  hang.needs.gpus = 0;
  plan::Stage busy = gpu_stage("eval");
  busy.needs.gpus = 0;
  plan_.stages = {hang, busy};
  fake_.scripts["c.txt#train"].seconds = 100;
  fake_.scripts["c.txt#train"].silent_after = 2;
  fake_.scripts["c.txt#eval"].seconds = 20;  // prints throughout
  options_.timeouts.idle = 5;
  options_.timeouts.by_kind[StageKind::kTrain] = 7200;  // far off: the silence ends it
  const RunSummary summary = run({30, false, 1});
  EXPECT_EQ(record(summary, "train").verdict.result, Status::kTimeout);
  EXPECT_EQ(record(summary, "train").verdict.reason, "no output for 5 s");
  EXPECT_TRUE(started("train").stacks_dumped);
  EXPECT_NEAR(started("train").end, 7, 1.1);
  EXPECT_EQ(record(summary, "eval").verdict.result, Status::kPass);
  EXPECT_FALSE(started("eval").stacks_dumped);
}

TEST_F(GpuWatchTest, AStageOverItsTimeoutHasItsStacksDumpedBeforeItIsStopped) {
  plan::Stage slow = gpu_stage("train");
  slow.needs.gpus = 0;
  plan_.stages = {slow};
  fake_.scripts["c.txt#train"].seconds = 100;
  options_.timeouts.all = 3;
  const RunSummary summary = run({30, false, 1});
  EXPECT_EQ(record(summary, "train").verdict.reason, "timed out after 3 s");
  EXPECT_TRUE(started("train").stacks_dumped);
  EXPECT_EQ(started("train").signals.front(), SIGTERM);
}

TEST_F(GpuWatchTest, EveryStageGetsPythonsFaulthandler) {
  plan_.stages = {gpu_stage("train")};
  run({30, false, 1});
  EXPECT_EQ(started("train").env.at("PYTHONFAULTHANDLER"), "1");
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::run
