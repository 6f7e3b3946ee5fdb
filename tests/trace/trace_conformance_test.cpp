// Trace conformance on the recorded corpus (../shared/tipc-corpus, README §4-§9): tracing
// each repository's own runner, copied with its config into a repository laid out as the
// recording's, must give the calls, the python-starting evaluated strings and the status
// log that the recording saw (the dino run's pre-steps set apart, README §6). The plan
// made of each real trace is then checked end to end as TracedCorpus checks the golden
// traces' (support/traced_corpus.h): argv, order, cwd, CUDA_VISIBLE_DEVICES, raw.cmds
// bytes, status lines, and native kinds and edges. CTest traces a sample (Sample below);
// TIPC_CONFORMANCE_EVERY_RUN=1 every run.
#include <chrono>
#include <filesystem>
#include <iostream>
#include <set>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/corpus_share.h"
#include "support/env_flag.h"
#include "support/run_binary.h"
#include "support/temp_dir.h"
#include "support/text_lines.h"
#include "support/traced_corpus.h"
#include "trace/tracer.h"

namespace tipc::trace {
namespace {
namespace TIPC_TEST_FILE {
namespace fs = std::filesystem;
using nlohmann::json;
using test::corpus_dir;
using test::CorpusRun;
using test::lines_of;

const std::string kRecordedRoot = "<REPO_ROOT>";

// The value of the first `key:` line of a config ("" when there is none).
std::string config_value(const std::string& config, const std::string& key) {
  for (const auto& line : lines_of(config)) {
    if (line.starts_with(key + ":")) return line.substr(key.size() + 1);
  }
  return "";
}

// One recorded run, traced as the command line traces it (support/corpus_share.h): in the
// shared checkout of its repository, through the shared trace cache, with the recording's
// extra options. The recordings' scratch repositories held only the runner's directory and
// the config; a trace sees no more of a checkout than that and its directories.
struct Run {
  CorpusRun recorded;
  TraceRequest request;
};

Run prepare(const std::string& repo_name, const CorpusRun& recorded) {
  const auto& corpus = recorded.corpus();
  const std::string config = test::slurp((corpus_dir() / corpus["config_file"].get<std::string>()).string());
  TraceRequest r;
  r.repo_root = test::shared_checkout(corpus_dir(), repo_name).string();
  r.runner = recorded.meta["runner"];
  r.run_dir = corpus["run_dir"];
  r.config_arg = corpus["config_arg"];
  r.mode = corpus["mode_arg"];
  r.extra_args = corpus["extra_args"].get<std::vector<std::string>>();
  r.interpreter = config_value(config, "python");
  r.model_name = config_value(config, "model_name");
  r.cache_dir = test::shared_trace_cache();
  r.timeout_seconds = 120;
  return {recorded, std::move(r)};
}

std::vector<std::string> traced_calls(const Trace& trace) {
  std::vector<std::string> out;
  for (const auto& call : trace.calls) {
    if (test::is_pre_step(call.args)) continue;
    const auto cuda = call.env.find("CUDA_VISIBLE_DEVICES");
    const auto cuda_value = cuda == call.env.end() ? std::nullopt : cuda->second;
    out.push_back(test::describe_call(call.program, call.args, call.cwd, cuda_value));
  }
  return out;
}

// The evaluated strings that started a stand-in: the ones raw.cmds lists (README §5.2).
std::vector<std::string> python_evals(const Trace& trace) {
  std::vector<std::string> out;
  std::size_t last = kNoEval;
  for (const auto& call : trace.calls) {
    if (call.eval_index == kNoEval || call.eval_index == last) continue;
    last = call.eval_index;
    out.push_back(trace.evals.at(call.eval_index));
  }
  return out;
}

struct Tally {
  int compared = 0, calls = 0, evals = 0, logs_compared = 0, logs = 0;
  test::Mismatches mismatches;
  test::PlanTally plans;  // the plans made of the traces
};

void compare(const Run& run, const Result<Trace>& traced, const dialect::Dialect* dialect, Tally& tally) {
  const CorpusRun& recorded = run.recorded;
  const std::string id = recorded.meta["id"];
  ++tally.compared;
  if (!traced) return tally.mismatches.note(id + ": " + traced.error().str());
  // The recordings spell the repository root <REPO_ROOT>.
  const Trace trace = test::with_root_spelled(*traced, run.request.repo_root, kRecordedRoot);
  const auto expected = test::golden_calls(recorded, false), got = traced_calls(trace);
  if (expected == got)
    ++tally.calls;
  else
    tally.mismatches.note(fmt::format("{}: calls differ\n  expected {}\n  traced   {}", id,
                                      fmt::join(expected, "\n           "), fmt::join(got, "\n           ")));
  auto cmds = lines_of(test::slurp(recorded.base + ".raw.cmds"));
  if (python_evals(trace) == cmds)
    ++tally.evals;
  else
    tally.mismatches.note(fmt::format("{}: evaluated strings differ\n  expected {}\n  traced   {}", id,
                                      fmt::join(cmds, "\n           "),
                                      fmt::join(python_evals(trace), "\n           ")));
  // The plan of the real trace, its root spelled as the recording's.
  test::check_traced_plan(recorded, trace, kRecordedRoot, dialect, tally.plans);
  if (!recorded.log_comparable()) return;
  ++tally.logs_compared;
  const auto [path, text] = test::golden_status_log(recorded);
  const bool same = text.empty() ? trace.status_logs.empty()
                                 : trace.status_logs.size() == 1 && trace.status_logs[0].path == path &&
                                       trace.status_logs[0].text == text;
  if (same)
    ++tally.logs;
  else
    tally.mismatches.note(fmt::format(
        "{}: status log differs (expected {} bytes at {}, traced {} logs{})", id, text.size(), path,
        trace.status_logs.size(),
        trace.status_logs.empty() ? "" : ": " + trace.status_logs[0].path + "\n" + trace.status_logs[0].text));
}

// Which comparable runs are traced. Each trace runs the repository's bash runner with a few
// hundred subshells (about 1.7 s of CPU): the 921 runs of the corpus were most of CI's test
// time on 2 cores. By default the shared sample (about every third run, the same runs the
// other replays take: support/corpus_share.h) is traced, and every run that is the first of
// its runner and MODE, so each runner meets each of its MODEs; TIPC_CONFORMANCE_EVERY_RUN=1
// traces every run (docs/internals.md).
struct Sample {
  bool all = false;
  std::set<std::string> seen;  // runner and MODE of the runs taken
  bool take(const std::string& repo, const CorpusRun& run) {
    const auto& corpus = run.corpus();
    const std::string mode = corpus["mode_arg"];
    const bool first_of_its_kind = seen.insert(run.meta.value("runner", "") + " " + mode).second;
    const fs::path config = fs::path(corpus["run_dir"].get<std::string>()) / corpus["config_arg"].get<std::string>();
    return all || first_of_its_kind || test::in_shared_sample(repo, config.lexically_normal().string(), mode);
  }
};

void trace_repo(const std::string& repo) {
  if (!fs::exists(corpus_dir())) GTEST_SKIP() << "TRACE CONFORMANCE NOT CHECKED: " << corpus_dir() << " is missing";
  std::vector<Run> runs;
  int no_runner = 0, comparable = 0;
  Sample sample;
  sample.all = test::env_flag("TIPC_CONFORMANCE_EVERY_RUN");
  for (const auto& recorded : test::corpus_runs(repo)) {
    if (!recorded.meta.contains("runner")) ++no_runner;
    if (!recorded.comparable()) continue;
    ++comparable;
    if (sample.take(repo, recorded)) runs.push_back(prepare(repo, recorded));
  }
  std::vector<TraceRequest> requests;
  for (const auto& run : runs) requests.push_back(run.request);
  const auto started = std::chrono::steady_clock::now();
  const auto traces = trace_runners(requests, 2);
  const std::chrono::duration<double> took = std::chrono::steady_clock::now() - started;
  const auto dialect = test::native_dialect(repo);
  Tally tally;
  for (std::size_t i = 0; i < runs.size(); ++i) compare(runs[i], traces[i], dialect ? &*dialect : nullptr, tally);
  std::cout << fmt::format(
      "[ trace    ] {}: {} of {} comparable runs traced{} in {:.1f} s at -j2; calls matched {}, "
      "evaluated strings matched {}, status logs matched {} of {}; {} no-runner runs\n"
      "[ plan     ] {} plans of the real traces: {}\n",
      repo, tally.compared, comparable, sample.all ? "" : " (a sample: TIPC_CONFORMANCE_EVERY_RUN=1 traces every one)",
      took.count(), tally.calls, tally.evals, tally.logs, tally.logs_compared, no_runner, repo, tally.plans.summary());
  tally.mismatches.report();
  tally.plans.mismatches.report();
  EXPECT_EQ(tally.calls, tally.compared);
  EXPECT_EQ(tally.evals, tally.compared);
  EXPECT_EQ(tally.logs, tally.logs_compared);
  EXPECT_GT(tally.compared, 0);
}

TEST(TraceConformance, PaddleOCR) { trace_repo("PaddleOCR"); }
TEST(TraceConformance, PaddleClas) { trace_repo("PaddleClas"); }
TEST(TraceConformance, PaddleDetection) { trace_repo("PaddleDetection"); }
TEST(TraceConformance, PaddleSeg) { trace_repo("PaddleSeg"); }
TEST(TraceConformance, PaddleVideo) { trace_repo("PaddleVideo"); }
TEST(TraceConformance, PaddleGAN) { trace_repo("PaddleGAN"); }
TEST(TraceConformance, models) { trace_repo("models"); }

// The no-runner runs (README §6): their configs have no runner next to them.
TEST(TraceConformance, ARunWithoutARunnerIsAClearError) {
  if (!fs::exists(corpus_dir())) GTEST_SKIP() << "TRACE CONFORMANCE NOT CHECKED: " << corpus_dir() << " is missing";
  int checked = 0;
  for (const auto& repo : {"PaddleOCR", "models"}) {
    for (const auto& recorded : test::corpus_runs(repo)) {
      const json& meta = recorded.meta;
      if (meta.contains("runner")) continue;
      test::TempDir dir;
      const std::string config = meta["config"];
      dir.write(config, test::slurp((corpus_dir() / meta["corpus"]["config_file"].get<std::string>()).string()));
      TraceRequest request;
      request.repo_root = dir.path().string();
      request.runner = (fs::path(config).parent_path() / "test_train_inference_python.sh").string();
      request.config_arg = config;
      request.mode = meta["mode"];
      const auto trace = trace_runner(request);
      ASSERT_FALSE(trace) << meta["id"];
      EXPECT_NE(trace.error().str().find("no runner script to trace"), std::string::npos) << trace.error().str();
      ++checked;
    }
  }
  EXPECT_EQ(checked, 14);
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::trace
