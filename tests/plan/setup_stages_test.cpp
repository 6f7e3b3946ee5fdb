// The runner's housekeeping as setup stages: where they go, what they run, what waits for
// them, and what is refused, on hand-built traces shaped like a C++ runner's.
#include "plan/setup_stages.h"

#include <algorithm>
#include <sstream>

#include <gtest/gtest.h>

#include "config/config_text.h"
#include "plan/traced_planner.h"

namespace tipc::plan {
namespace {
namespace TIPC_TEST_FILE {

config::TrainInferConfig setup_test_config() {
  config::ConfigText lines;
  lines.path = "c.txt";
  int n = 0;
  std::istringstream in(
      "===train_params===\nmodel_name:m\npython:python\ngpu_list:0\ntrainer:norm_train\n"
      "norm_train:tools/train.py\n===infer_params===\ninference:tools/infer.py\n");
  for (std::string line; std::getline(in, line);) lines.lines.push_back({line, "", ++n});
  lines.physical_line_count = n;
  return config::split_config(lines, {config::ValueSplit::kFirstColon, false, false});
}

trace::TracedCall traced(std::string program, std::vector<std::string> args, std::string cwd = ".") {
  trace::TracedCall c;
  c.program = std::move(program);
  c.args = std::move(args);
  c.cwd = std::move(cwd);
  return c;
}

// mkdir of the output directory; download, unpack and a fresh build directory; cmake and make
// in it; then an inference of the built program and an unrelated Python inference.
trace::Trace cpp_runner_trace() {
  trace::Trace t;
  t.mode = "cpp_infer";
  t.calls = {traced("cmake", {".."}, "deploy/cpp/build"), traced("make", {"-j8"}, "deploy/cpp/build"),
             traced("./deploy/cpp/build/main", {"--model_dir=./models/m"}),
             traced("python", {"tools/infer.py", "--model_dir=./models/n"})};
  t.calls[2].stdout_path = "out/cpp_infer.log";
  t.calls[3].stdout_path = "out/python_infer.log";
  t.housekeeping = {{traced("mkdir", {"-p", "./out"}), 0},
                    {traced("wget", {"-nc", "https://example.com/lib.tgz"}, "deploy/cpp"), 0},
                    {traced("tar", {"zxf", "lib.tgz"}, "deploy/cpp"), 0},
                    {traced("rm", {"-rf", "build"}, "deploy/cpp"), 0},
                    {traced("mkdir", {"-p", "build"}, "deploy/cpp"), 0}};
  t.status_logs = {{"out/results_cpp.log", ""}};
  return t;
}

Plan planned(const trace::Trace& trace, SetupStageOptions setup = {}) {
  TracedPlanOptions options;
  options.setup = std::move(setup);
  auto plan = plan_from_trace(trace, setup_test_config(), options);
  EXPECT_TRUE(plan) << plan.error().str();
  return plan ? *plan : Plan{};
}

const Stage& stage_with(const Plan& plan, const std::string& program) {
  const auto it = std::find_if(plan.stages.begin(), plan.stages.end(),
                               [&](const Stage& s) { return !s.argv.empty() && s.argv.front() == program; });
  EXPECT_NE(it, plan.stages.end()) << program;
  return *it;
}

bool waits_for(const Stage& stage, const std::string& id) {
  return std::find(stage.deps.begin(), stage.deps.end(), id) != stage.deps.end();
}

TEST(SetupStages, TheCallsBeforeAStageBecomeOneSetupStageItWaitsFor) {
  const Plan plan =
      planned(cpp_runner_trace(), {.tipc_run_binary = "/usr/bin/tipc-run", .offline = false, .allowed_roots = {}});
  ASSERT_EQ(plan.stages.size(), 5u);
  const Stage& setup = plan.stages.front();
  EXPECT_EQ(setup.kind, StageKind::kSetup);
  EXPECT_EQ(setup.id, "cpp_infer/setup/1");
  EXPECT_EQ(setup.cwd, ".");
  EXPECT_FALSE(setup.unsupported);
  // The output directory's mkdir is left out: tipc-run makes every log's directory.
  const std::vector<std::string> argv = {"/usr/bin/tipc-run",
                                         "setup",
                                         "--",
                                         "cd deploy/cpp && wget -nc https://example.com/lib.tgz",
                                         "cd deploy/cpp && tar zxf lib.tgz",
                                         "cd deploy/cpp && rm -rf build",
                                         "cd deploy/cpp && mkdir -p build"};
  EXPECT_EQ(setup.argv, argv);
  EXPECT_EQ(setup.log, "out/setup_1.log");
  const Stage& cmake = stage_with(plan, "cmake");
  EXPECT_TRUE(waits_for(cmake, setup.id));
  EXPECT_EQ(cmake.cwd_made_by, "setup step cpp_infer/setup/1 (`cd deploy/cpp && mkdir -p build`)");
  // The Python inference touches nothing the setup does, and keeps its own edges.
  EXPECT_FALSE(waits_for(stage_with(plan, "python"), setup.id));
  EXPECT_EQ(stage_with(plan, "python").cwd_made_by, "");
}

TEST(SetupStages, OfflineIsPassedOnAndATraceWithoutHousekeepingHasNoSetupStage) {
  const Plan offline =
      planned(cpp_runner_trace(), {.tipc_run_binary = "tipc-run", .offline = true, .allowed_roots = {}});
  EXPECT_EQ(offline.stages.front().argv[2], "--offline");
  trace::Trace plain = cpp_runner_trace();
  plain.housekeeping.clear();
  const Plan without = planned(plain);
  EXPECT_EQ(without.stages.size(), 4u);
  EXPECT_TRUE(std::none_of(without.stages.begin(), without.stages.end(),
                           [](const Stage& s) { return s.kind == StageKind::kSetup; }));
}

TEST(SetupStages, HousekeepingOutsideTheRepositoryMakesItsSetupStageUnsupported) {
  trace::Trace t = cpp_runner_trace();
  t.housekeeping.push_back({traced("rm", {"-rf", "/usr/local/lib/x"}, "deploy/cpp"), 0});
  const Plan plan = planned(t);
  ASSERT_TRUE(plan.stages.front().unsupported);
  EXPECT_NE(plan.stages.front().unsupported->find("`cd deploy/cpp && rm -rf /usr/local/lib/x` is not replayed"),
            std::string::npos)
      << *plan.stages.front().unsupported;
  EXPECT_NE(plan.stages.front().unsupported->find("outside the repository"), std::string::npos);
  t.housekeeping.back() = {traced("git", {"pull"}, "deploy/cpp"), 0};
  const Plan unreadable = planned(t);
  ASSERT_TRUE(unreadable.stages.front().unsupported);
  EXPECT_NE(unreadable.stages.front().unsupported->find("cannot be replayed"), std::string::npos);
}

TEST(SetupStages, HousekeepingBetweenStagesGoesBetweenThemAndAGlobIsReplayedUnexpanded) {
  trace::Trace t = cpp_runner_trace();
  // `eval "cp ./models/m/* ./out/copy/"`: the trace expanded the glob over the stand-ins' files.
  t.evals = {"cp ./models/m/* ./out/copy/"};
  trace::TracedCall copy = traced("cp", {"./models/m/train.log", "./out/copy/"});
  copy.eval_index = 0;
  t.housekeeping.push_back({copy, 2});
  t.calls[2].args = {"--model_dir=./out/copy"};
  const Plan plan = planned(t);
  ASSERT_EQ(plan.stages.size(), 6u);
  const Stage& second = plan.stages[3];
  EXPECT_EQ(second.id, "cpp_infer/setup/2");
  EXPECT_EQ(second.argv.back(), "cd . && cp './models/m/*' ./out/copy/");
  // It comes after the build (the runner's order with a tool whose paths are not visible),
  // and the C++ inference, which reads the copy, waits for it; the Python one does not.
  EXPECT_TRUE(waits_for(second, plan.stages[2].id)) << plan.stages[2].id;
  EXPECT_TRUE(waits_for(stage_with(plan, "./deploy/cpp/build/main"), second.id));
  EXPECT_FALSE(waits_for(stage_with(plan, "python"), second.id));
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::plan
