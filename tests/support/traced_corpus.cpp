#include "support/traced_corpus.h"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "compat/reference_planning_rules.h"
#include "config/config_text.h"
#include "plan/plan_file.h"
#include "support/golden_trace.h"
#include "support/paths.h"
#include "support/run_binary.h"
#include "support/shipped_chains.h"

namespace tipc::test {
namespace {
namespace fs = std::filesystem;
using nlohmann::json;

// How the golden files spell the repository root.
const std::string kMappedRoot = "<REPO_ROOT>";

std::vector<std::string> planned_calls(const plan::Plan& plan, const std::string& root) {
  std::vector<std::string> out;
  for (const auto& stage : plan.stages) {
    std::vector<std::string> args(stage.argv.begin() + 1, stage.argv.end());
    for (auto& arg : args) arg = replace_all(arg, root, kMappedRoot);
    out.push_back(describe_call(stage.argv[0], args, stage.cwd, stage.env.at("CUDA_VISIBLE_DEVICES")));
  }
  return out;
}

std::string all_success_log(const plan::Plan& plan, const std::string& root) {
  std::string out;
  if (!plan.stages.empty() && !plan.banner.empty()) out += plan.banner + "\n";
  for (const auto& stage : plan.stages) {
    if (auto line = render_status_line(plan, stage, true)) out += *line + "\n";
  }
  return replace_all(out, root, kMappedRoot);
}

// Whether `from` reaches `to` through the plan's dependency edges.
bool reaches(const plan::Plan& plan, const std::string& from, const std::string& to) {
  std::map<std::string, const plan::Stage*> by_id;
  for (const auto& s : plan.stages) by_id[s.id] = &s;
  std::vector<std::string> todo = {from};
  std::set<std::string> seen;
  while (!todo.empty()) {
    const std::string id = todo.back();
    todo.pop_back();
    if (id == to) return true;
    if (!seen.insert(id).second) continue;
    for (const auto& dep : by_id.at(id)->deps) todo.push_back(dep);
  }
  return false;
}

// The native compat plan's kinds and edges against the traced plan's (stages of kind
// other, the traced pre-steps, have no native counterpart).
void compare_with_native(const CorpusRun& run, const plan::Plan& traced, const dialect::Dialect& dialect,
                         PlanTally& tally) {
  plan::PlanOptions options;
  options.mode = run.corpus()["mode_arg"];
  options.rules = &tipc::compat::reference_planning_rules();
  options.repo_root = "/conformance/repo-root";
  options.run_dir = run.corpus()["run_dir"];
  const auto text = config::read_config_text((corpus_dir() / run.corpus()["config_file"].get<std::string>()).string());
  if (!text) return tally.mismatches.note(run.base + ": config unreadable");
  const auto native = plan_config(*text, dialect, options);
  if (!native) return tally.mismatches.note(run.base + ": native plan failed");
  std::vector<const plan::Stage*> matched;
  for (const auto& stage : traced.stages) {
    if (stage.kind != plan::StageKind::kOther) matched.push_back(&stage);
  }
  if (matched.size() != native->stages.size()) return tally.mismatches.note(run.base + ": stage counts differ");
  std::map<std::string, std::string> traced_id;
  for (std::size_t i = 0; i < matched.size(); ++i) {
    traced_id[native->stages[i].id] = matched[i]->id;
    ++tally.kinds_compared;
    ++tally.needs_compared;
    if (matched[i]->needs.gpus == native->stages[i].needs.gpus)
      ++tally.needs_same;
    else
      tally.mismatches.note(fmt::format("{}: stage {} needs {} GPUs, native {}", run.base, matched[i]->id,
                                        matched[i]->needs.gpus, native->stages[i].needs.gpus));
    if (matched[i]->kind == native->stages[i].kind)
      ++tally.kinds_ok;
    else
      tally.mismatches.note(fmt::format("{}: stage {} is {}, native {}", run.base, matched[i]->id,
                                        to_string(matched[i]->kind), to_string(native->stages[i].kind)));
  }
  for (const auto& stage : native->stages) {
    for (const auto& dep : stage.deps) {
      ++tally.native_edges;
      if (reaches(traced, traced_id[stage.id], traced_id[dep]))
        ++tally.edges_implied;
      else
        tally.mismatches.note(fmt::format("{}: native edge {} -> {} not implied", run.base, stage.id, dep));
    }
  }
}

// The plan's evaluated strings, as raw.cmds holds them (without the pre-steps').
std::vector<std::string> planned_evals(const plan::Plan& plan, const std::string& root) {
  std::vector<std::string> out;
  for (const auto& stage : plan.stages) {
    if (stage.argv.size() > 1 && is_pre_step({stage.argv[1]})) continue;
    out.push_back(replace_all(stage.results_log.shell_text, root, kMappedRoot));
  }
  return out;
}

}  // namespace

fs::path corpus_dir() { return fs::path(shared_dir()) / "tipc-corpus"; }

std::vector<CorpusRun> corpus_runs(const std::string& repo) {
  std::vector<CorpusRun> runs;
  for (const auto& entry : fs::directory_iterator(corpus_dir() / "golden" / repo)) {
    const std::string path = entry.path().string();
    if (!path.ends_with(".meta.json")) continue;
    runs.push_back({entry.path(), path.substr(0, path.size() - 10), json::parse(slurp(path))});
  }
  std::sort(runs.begin(), runs.end(), [](const CorpusRun& a, const CorpusRun& b) { return a.base < b.base; });
  return runs;
}

bool is_pre_step(const std::vector<std::string>& args) {
  return !args.empty() && args[0] == "setup_ms_deformable_attn_op.py";
}

std::string describe_call(const std::string& program, const std::vector<std::string>& args, const std::string& cwd,
                          const std::optional<std::string>& cuda_visible_devices) {
  return fmt::format("[{}] cwd={} cvd={} {}", program, cwd, cuda_visible_devices.value_or("<unset>"),
                     fmt::join(args, " "));
}

std::vector<std::string> golden_calls(const CorpusRun& run, bool with_pre_steps) {
  std::vector<std::string> out;
  for (const auto& line : non_empty_lines(slurp(run.base + ".argv.jsonl"))) {
    const json j = json::parse(line);
    const auto args = j["argv"].get<std::vector<std::string>>();
    if (!with_pre_steps && is_pre_step(args)) continue;
    std::optional<std::string> cuda;
    if (!j["cuda_visible_devices"].is_null()) cuda = j["cuda_visible_devices"].get<std::string>();
    out.push_back(describe_call(j["argv0"], args, j["cwd"], cuda));
  }
  return out;
}

std::pair<std::string, std::string> golden_status_log(const CorpusRun& run) {
  const std::string text = slurp(run.base + ".results_python.log");
  if (!text.starts_with("### ")) return {"", text};
  const auto end = text.find('\n');
  const fs::path run_dir = run.corpus()["run_dir"].get<std::string>();
  return {(run_dir / text.substr(4, end - 4)).lexically_normal().generic_string(), text.substr(end + 1)};
}

std::string golden_status_lines(const CorpusRun& run) {
  std::string out;
  for (const auto& line : non_empty_lines(golden_status_log(run).second)) {
    if (!line.starts_with("### ")) out += line + "\n";
  }
  return out;
}

config::TrainInferConfig corpus_config(const CorpusRun& run) {
  auto text = config::read_config_text((corpus_dir() / run.corpus()["config_file"].get<std::string>()).string(), {});
  if (!text) return {};
  return config::split_config(*text, {config::ValueSplit::kFirstColon, false, false});
}

Result<plan::Plan> traced_corpus_plan(const CorpusRun& run, const trace::Trace& trace,
                                      const plan::TracedPlanOptions& extra) {
  plan::TracedPlanOptions options = extra;
  options.rules = &tipc::compat::reference_planning_rules();
  options.script_keys = python_script_keys();  // the corpus's runs are of the train/inference chain
  return plan::plan_from_trace(trace, corpus_config(run), options);
}

std::optional<dialect::Dialect> native_dialect(const std::string& repo) {
  static const std::map<std::string, std::string> kNativeDialects = {
      {"PaddleOCR", "paddleocr"}, {"PaddleClas", "paddleclas"},   {"PaddleDetection", "paddledetection"},
      {"PaddleSeg", "paddleseg"}, {"PaddleVideo", "paddlevideo"}, {"PaddleGAN", "paddlegan"},
      {"models", "template"}};
  if (!kNativeDialects.contains(repo)) return std::nullopt;
  return dialect::load_dialect(dialect_dir(), kNativeDialects.at(repo)).value();
}

void Mismatches::note(const std::string& what) {
  if (count++ < 8) first.push_back(what);
}

void Mismatches::report() const {
  for (const auto& what : first) ADD_FAILURE() << what;
  EXPECT_EQ(count, 0) << count << " mismatches";
}

std::string PlanTally::summary() const {
  const int planned = runs - empty_plan_errors;
  return fmt::format(
      "{} runs, {} stages; calls {}/{}, evaluated strings {}/{}, status logs {}/{}, empty-plan errors "
      "{}; kinds as native {}/{}, native edges implied {}/{}, GPU needs as native {}/{}; setup stages "
      "{} ({} refused)",
      runs, stages, calls_ok, planned, evals_ok, planned, logs_ok, logs_compared, empty_plan_errors, kinds_ok,
      kinds_compared, edges_implied, native_edges, needs_same, needs_compared, setup_stages, setup_refused);
}

namespace {

// The plan without its setup stages (the recording has no housekeeping to compare them
// with), a stage that waited for one waiting for what that one waited for instead.
plan::Plan without_setup_stages(plan::Plan plan, PlanTally& tally) {
  std::map<std::string, std::vector<std::string>> setup_deps;
  std::vector<plan::Stage> kept;
  for (auto& stage : plan.stages) {
    std::vector<std::string> deps;
    for (const auto& dep : stage.deps) {
      const auto setup = setup_deps.find(dep);
      const auto& instead = setup == setup_deps.end() ? std::vector<std::string>{dep} : setup->second;
      for (const auto& id : instead) {
        if (std::find(deps.begin(), deps.end(), id) == deps.end()) deps.push_back(id);
      }
    }
    stage.deps = std::move(deps);
    if (stage.kind != plan::StageKind::kSetup) {
      kept.push_back(std::move(stage));
      continue;
    }
    ++tally.setup_stages;
    tally.setup_refused += stage.unsupported.has_value();
    setup_deps[stage.id] = stage.deps;
  }
  plan.stages = std::move(kept);
  return plan;
}

}  // namespace

void check_traced_plan(const CorpusRun& run, const trace::Trace& trace, const std::string& root,
                       const dialect::Dialect* dialect, PlanTally& tally) {
  ++tally.runs;
  plan::TracedPlanOptions options;
  options.repo_root = root;
  const auto setup_plan = traced_corpus_plan(run, trace, options);
  const auto plan = setup_plan ? Result<plan::Plan>(without_setup_stages(*setup_plan, tally)) : setup_plan;
  if (!plan) {
    // The reference started nothing although the config names a trainer: an error, never a silent empty plan.
    const bool expected = run.meta["stub_calls"].get<int>() == 0;
    tally.empty_plan_errors += expected;
    if (!expected) tally.mismatches.note(run.base + ": " + plan.error().str());
    return;
  }
  tally.stages += static_cast<int>(plan->stages.size());
  if (golden_calls(run, true) == planned_calls(*plan, root))
    ++tally.calls_ok;
  else
    tally.mismatches.note(run.base + ": calls differ");
  if (planned_evals(*plan, root) == non_empty_lines(slurp(run.base + ".raw.cmds")))
    ++tally.evals_ok;
  else
    tally.mismatches.note(run.base + ": evaluated strings differ");
  if (run.log_comparable()) {
    ++tally.logs_compared;
    // The word is all a stage's outcome changes; the recorder's stub made some trains fail (D2 in docs/reference-runner.md).
    if (replace_all(golden_status_lines(run), "Run failed", "Run successfully") == all_success_log(*plan, root)) {
      ++tally.logs_ok;
    } else {
      tally.mismatches.note(run.base + ": status lines differ");
    }
  }
  if (dialect) compare_with_native(run, *plan, *dialect, tally);
}

}  // namespace tipc::test
