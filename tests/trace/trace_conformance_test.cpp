// Trace conformance on the recorded corpus (../shared/tipc-corpus, README §4-§9): tracing
// each repository's own runner, copied with its config into a repository laid out as the
// recording's, must give the calls, the python-starting evaluated strings and the status
// log that the recording saw.
#include <chrono>
#include <filesystem>
#include <iostream>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/paths.h"
#include "support/run_binary.h"
#include "support/temp_dir.h"
#include "support/text_lines.h"
#include "trace/tracer.h"

namespace tipc::trace {
namespace {
namespace fs = std::filesystem;
using nlohmann::json;
using test::lines_of;

fs::path corpus_dir() { return fs::path(test::shared_dir()) / "tipc-corpus"; }

// The value of the first `key:` line of a config ("" when there is none).
std::string config_value(const std::string& config, const std::string& key) {
  for (const auto& line : lines_of(config)) {
    if (line.starts_with(key + ":")) return line.substr(key.size() + 1);
  }
  return "";
}

// One recorded run, set up as README §4 describes: the runner's directory files and the
// config in a throw-away repository with an empty deploy/.
struct Run {
  fs::path meta_path;
  json meta;
  std::unique_ptr<test::TempDir> repo;
  TraceRequest request;
};

Run prepare(const std::string& repo_name, const fs::path& meta_path) {
  Run run{meta_path, json::parse(test::slurp(meta_path.string())), std::make_unique<test::TempDir>(), {}};
  const auto& corpus = run.meta["corpus"];
  const std::string runner = run.meta["runner"];
  const fs::path runner_dir = corpus_dir() / "runners" / repo_name / fs::path(runner).parent_path();
  for (const auto& entry : fs::directory_iterator(runner_dir)) {
    const auto ext = entry.path().extension();
    if (entry.is_regular_file() && (ext == ".sh" || ext == ".py")) {
      run.repo->write((fs::path(runner).parent_path() / entry.path().filename()).string(),
                      test::slurp(entry.path().string()));
    }
  }
  const std::string config = test::slurp((corpus_dir() / corpus["config_file"].get<std::string>()).string());
  run.repo->write(run.meta["config"].get<std::string>(), config);
  fs::create_directories(run.repo->path() / "deploy");
  auto& r = run.request;
  r.repo_root = run.repo->path().string();
  r.runner = runner;
  r.run_dir = corpus["run_dir"];
  r.config_arg = corpus["config_arg"];
  r.mode = corpus["mode_arg"];
  r.extra_args = corpus["extra_args"].get<std::vector<std::string>>();
  r.interpreter = config_value(config, "python");
  r.model_name = config_value(config, "model_name");
  r.map_root = "<REPO_ROOT>";
  r.timeout_seconds = 120;
  return run;
}

std::string describe_call(const std::string& program, const std::vector<std::string>& args, const std::string& cwd,
                          const std::optional<std::string>& cuda) {
  return fmt::format("[{}] cwd={} cvd={} {}", program, cwd, cuda.value_or("<unset>"), fmt::join(args, " "));
}

// The dino pre-step runs outside the string evaluation (README §6); both sides drop it.
bool is_pre_step(const std::vector<std::string>& args) {
  return !args.empty() && args[0] == "setup_ms_deformable_attn_op.py";
}

std::vector<std::string> golden_calls(const fs::path& file) {
  std::vector<std::string> out;
  for (const auto& line : lines_of(test::slurp(file.string()))) {
    if (line.empty()) continue;
    const json j = json::parse(line);
    const auto args = j["argv"].get<std::vector<std::string>>();
    if (is_pre_step(args)) continue;
    std::optional<std::string> cuda;
    if (!j["cuda_visible_devices"].is_null()) cuda = j["cuda_visible_devices"].get<std::string>();
    out.push_back(describe_call(j["argv0"], args, j["cwd"], cuda));
  }
  return out;
}

std::vector<std::string> traced_calls(const Trace& trace) {
  std::vector<std::string> out;
  for (const auto& call : trace.calls) {
    if (is_pre_step(call.args)) continue;
    const auto cuda = call.env.find("CUDA_VISIBLE_DEVICES");
    out.push_back(describe_call(call.program, call.args, call.cwd, cuda == call.env.end() ? std::nullopt : cuda->second));
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

// The golden status log without the recorder's `### <path>` header, and that path.
std::pair<std::string, std::string> golden_status_log(const fs::path& file, const std::string& run_dir) {
  const std::string text = test::slurp(file.string());
  if (!text.starts_with("### ")) return {"", text};
  const auto end = text.find('\n');
  const auto path = (fs::path(run_dir) / text.substr(4, end - 4)).lexically_normal().generic_string();
  return {path, text.substr(end + 1)};
}

struct Tally {
  int compared = 0, calls = 0, evals = 0, logs_compared = 0, logs = 0;
  std::vector<std::string> mismatches;
  void note(const std::string& what) {
    if (mismatches.size() < 8) mismatches.push_back(what);
  }
};

void compare(const Run& run, const Result<Trace>& trace, Tally& tally) {
  const std::string id = run.meta["id"];
  const std::string stem = run.meta_path.string().substr(0, run.meta_path.string().size() - std::string(".meta.json").size());
  ++tally.compared;
  if (!trace) return tally.note(id + ": " + trace.error().str());
  const auto expected = golden_calls(stem + ".argv.jsonl"), got = traced_calls(*trace);
  if (expected == got) ++tally.calls;
  else tally.note(fmt::format("{}: calls differ\n  expected {}\n  traced   {}", id, fmt::join(expected, "\n           "),
                              fmt::join(got, "\n           ")));
  auto cmds = lines_of(test::slurp(stem + ".raw.cmds"));
  if (python_evals(*trace) == cmds) ++tally.evals;
  else tally.note(fmt::format("{}: evaluated strings differ\n  expected {}\n  traced   {}", id, fmt::join(cmds, "\n           "),
                              fmt::join(python_evals(*trace), "\n           ")));
  if (!run.meta["corpus"]["compare"]["results_log"].get<bool>()) return;
  ++tally.logs_compared;
  const auto [path, text] = golden_status_log(stem + ".results_python.log", run.request.run_dir);
  const bool same = text.empty() ? trace->status_logs.empty()
                                 : trace->status_logs.size() == 1 && trace->status_logs[0].path == path &&
                                       trace->status_logs[0].text == text;
  if (same) ++tally.logs;
  else tally.note(fmt::format("{}: status log differs (expected {} bytes at {}, traced {} logs{})", id, text.size(), path,
                              trace->status_logs.size(),
                              trace->status_logs.empty() ? "" : ": " + trace->status_logs[0].path + "\n" + trace->status_logs[0].text));
}

void trace_repo(const std::string& repo) {
  if (!fs::exists(corpus_dir())) GTEST_SKIP() << "TRACE CONFORMANCE NOT CHECKED: " << corpus_dir() << " is missing";
  std::vector<Run> runs;
  int no_runner = 0;
  for (const auto& entry : fs::directory_iterator(corpus_dir() / "golden" / repo)) {
    if (!entry.path().string().ends_with(".meta.json")) continue;
    const json meta = json::parse(test::slurp(entry.path().string()));
    if (!meta.contains("runner")) ++no_runner;
    if (meta["corpus"]["compare"]["argv"].get<bool>()) runs.push_back(prepare(repo, entry.path()));
  }
  std::sort(runs.begin(), runs.end(), [](const Run& a, const Run& b) { return a.meta_path < b.meta_path; });
  std::vector<TraceRequest> requests;
  for (const auto& run : runs) requests.push_back(run.request);
  const auto started = std::chrono::steady_clock::now();
  const auto traces = trace_runners(requests, 2);
  const std::chrono::duration<double> took = std::chrono::steady_clock::now() - started;
  Tally tally;
  for (std::size_t i = 0; i < runs.size(); ++i) compare(runs[i], traces[i], tally);
  std::cout << fmt::format("[ trace    ] {}: {} runs traced in {:.1f} s at -j2; calls matched {}, evaluated strings "
                           "matched {}, status logs matched {} of {}; {} no-runner runs\n",
                           repo, tally.compared, took.count(), tally.calls, tally.evals, tally.logs, tally.logs_compared,
                           no_runner);
  for (const auto& mismatch : tally.mismatches) ADD_FAILURE() << mismatch;
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
    for (const auto& entry : fs::directory_iterator(corpus_dir() / "golden" / repo)) {
      if (!entry.path().string().ends_with(".meta.json")) continue;
      const json meta = json::parse(test::slurp(entry.path().string()));
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

}  // namespace
}  // namespace tipc::trace
