#include "plan/setup_stages.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "core/locations.h"
#include "plan/path_relation.h"
#include "plan/setup_action.h"
#include "plan/shell_words.h"

namespace tipc::plan {
namespace fs = std::filesystem;
namespace {

// One housekeeping call read back, or why it cannot be.
struct ReadCall {
  std::string word;  // the contract's `cd DIR && PROGRAM ARG...`
  Result<SetupAction> action;
};

// The calls the runner made between two stages.
struct SetupGroup {
  std::size_t before_call = 0;
  std::vector<ReadCall> calls;
};

std::string normalised(const std::string& path) { return normalised_path(".", path); }

// Whether two steps, one of them a setup stage, must keep the runner's order. Stricter than
// data_flow's edges between stages: what one writes or removes may be anything inside
// or around what the other uses (`rm -rf deploy` before `mkdir -p deploy/cpp/build`).
bool keep_order(const PathUse& later, const PathUse& earlier) {
  if (later.barrier || earlier.barrier) return true;
  return any_pair(later.writes, earlier.writes, paths_related) ||
         any_pair(later.writes, earlier.reads, paths_related) || any_pair(later.reads, earlier.writes, paths_related);
}

// `mkdir -p LOG` of the runner's output tree: tipc-run makes every log's directory itself.
bool makes_only_output_directories(const Result<SetupAction>& action, const std::string& output_dir) {
  if (!action || action->kind != SetupKind::kMakeDir || output_dir.empty() || action->writes.empty()) return false;
  const std::string output = normalised(output_dir);
  return std::all_of(action->writes.begin(), action->writes.end(),
                     [&](const std::string& path) { return path_within(normalised(path), output); });
}

// The call as the runner wrote it. A glob (`eval "cp ${export_dir}/* ${log_dir}/"`) was
// expanded in the trace's scratch tree, where the files are the stand-ins'; it is replayed
// unexpanded (`tipc-run setup` expands it then), taken from the evaluated string when that
// string is this one simple command.
std::vector<std::string> as_written(const trace::TracedCall& call, const trace::Trace& trace) {
  std::vector<std::string> argv = {call.program};
  argv.insert(argv.end(), call.args.begin(), call.args.end());
  if (call.eval_index >= trace.evals.size()) return argv;
  const std::string& text = trace.evals[call.eval_index];
  if (text.find_first_of("*?[") == std::string::npos || text.find_first_of("$`;&|<>(){}\\\"'") != std::string::npos) {
    return argv;
  }
  const auto split = split_shell_words(text, {.pipe_is_space = false});
  if (!split || split->words.empty() || split->words.front() != call.program) return argv;
  return split->words;
}

ReadCall read_call(const trace::TracedCall& call, const trace::Trace& trace, const std::string& repo_root) {
  const std::vector<std::string> argv = as_written(call, trace);
  SetupAction as_called;
  as_called.cwd = call.cwd;
  as_called.argv = argv;
  auto action = parse_setup_action(argv, call.cwd);
  if (action) action = relative_to_root(std::move(*action), repo_root);
  return {setup_action_word(as_called), std::move(action)};
}

std::vector<SetupGroup> setup_groups(const trace::Trace& trace, const std::string& output_dir,
                                     const std::string& repo_root) {
  std::vector<SetupGroup> groups;
  for (const auto& step : trace.housekeeping) {
    ReadCall call = read_call(step.call, trace, repo_root);
    if (makes_only_output_directories(call.action, output_dir)) continue;
    if (groups.empty() || groups.back().before_call != step.before_call) groups.push_back({step.before_call, {}});
    groups.back().calls.push_back(std::move(call));
  }
  return groups;
}

// Why the group cannot be replayed: its first call that cannot be read or is refused.
std::optional<std::string> group_refusal(const SetupGroup& group, const SetupStageOptions& options) {
  for (const auto& call : group.calls) {
    if (!call.action)
      return fmt::format("the runner's `{}` cannot be replayed: {}", call.word, call.action.error().str());
    if (auto why = refusal(*call.action, options.allowed_roots)) {
      return fmt::format("the runner's `{}` is not replayed: {}", call.word, *why);
    }
  }
  return std::nullopt;
}

PathUse group_use(const SetupGroup& group) {
  PathUse use;
  for (const auto& call : group.calls) {
    if (!call.action) continue;
    use.reads.insert(use.reads.end(), call.action->reads.begin(), call.action->reads.end());
    use.writes.insert(use.writes.end(), call.action->writes.begin(), call.action->writes.end());
    use.writes.insert(use.writes.end(), call.action->removes.begin(), call.action->removes.end());
  }
  for (auto* paths : {&use.reads, &use.writes}) {
    for (auto& path : *paths) path = normalised(path);
  }
  return use;
}

Stage setup_stage(const SetupGroup& group, int number, const Plan& plan, const SetupStageOptions& options) {
  Stage stage;
  stage.kind = StageKind::kSetup;
  stage.id = fmt::format("{}/setup/{}", plan.mode, number);
  stage.cwd = ".";
  stage.argv = {options.tipc_run_binary, "setup"};
  if (options.offline) stage.argv.push_back("--offline");
  for (const auto& root : options.allowed_roots) stage.argv.insert(stage.argv.end(), {"--allow", root});
  stage.argv.push_back("--");
  for (const auto& call : group.calls) stage.argv.push_back(call.word);
  stage.results_log.command = join_shell_words(stage.argv);
  stage.results_log.shell_text = stage.results_log.command;
  const std::string dir = plan.output_dir.empty() ? std::string(kOutputTree) : plan.output_dir;
  stage.log = fmt::format("{}/setup_{}.log", dir, number);
  stage.results_log.status_log = stage.log;
  stage.unsupported = group_refusal(group, options);
  return stage;
}

// Builds the plan's new stage list in the runner's order, each setup stage before the call
// stage it preceded, adding the edges between setup stages and the others. `ancestors_`
// holds, per stage of the new list, every stage it waits for (directly or not), so that
// an edge already implied is not added again.
class SetupWeaver {
 public:
  SetupWeaver(Plan& plan, std::vector<PathUse> uses) : plan_(plan), uses_(std::move(uses)) {}

  void weave(const std::vector<SetupGroup>& groups, const SetupStageOptions& options) {
    std::vector<Stage> calls = std::move(plan_.stages);
    plan_.stages.clear();
    std::size_t next_group = 0;
    for (std::size_t k = 0; k <= calls.size(); ++k) {
      for (; next_group < groups.size() && groups[next_group].before_call <= k; ++next_group) {
        const auto& group = groups[next_group];
        add_setup(setup_stage(group, static_cast<int>(setups_.size()) + 1, plan_, options), group_use(group));
        made_.push_back(made_directories(group));
      }
      if (k < calls.size()) add_call(std::move(calls[k]), with_cwd(uses_[k], calls[k].cwd));
    }
  }

 private:
  // A stage's directory is a path it uses, and its log one it writes: a setup step that removes
  // the output tree keeps its order with the stages logging into it.
  static PathUse with_cwd(PathUse use, const std::string& cwd) {
    if (cwd != ".") use.reads.push_back(normalised(cwd));
    if (!use.log.empty()) use.writes.push_back(use.log);
    return use;
  }

  void add_setup(Stage stage, PathUse use) {
    std::set<std::size_t> ancestors;
    for (std::size_t j = plan_.stages.size(); j-- > 0;) {
      if (!ancestors.contains(j) && keep_order(use, placed_uses_[j])) link(stage, ancestors, j);
    }
    setups_.push_back(place(std::move(stage), std::move(use), std::move(ancestors)));
  }

  // What each call of a group writes, with its action word: what makes a stage's directory.
  static std::vector<std::pair<std::string, std::string>> made_directories(const SetupGroup& group) {
    std::vector<std::pair<std::string, std::string>> made;
    for (const auto& call : group.calls) {
      if (!call.action) continue;
      for (const auto& path : call.action->writes) made.emplace_back(normalised(path), call.word);
    }
    return made;
  }

  // The setup step that makes the stage's directory, for the reason a stage gets when that
  // directory is missing at run time: of the latest setup stage that makes it, the call that
  // names it most closely (`mkdir -p build` rather than the `tar` unpacking beside it).
  void name_what_makes_its_directory(Stage& stage) const {
    if (stage.cwd == ".") return;
    const std::string cwd = normalised(stage.cwd);
    for (std::size_t s = setups_.size(); s-- > 0;) {
      const std::pair<std::string, std::string>* closest = nullptr;
      for (const auto& made : made_[s]) {
        if (path_within(cwd, made.first) && (!closest || made.first.size() >= closest->first.size())) closest = &made;
      }
      if (!closest) continue;
      stage.cwd_made_by = fmt::format("setup step {} (`{}`)", plan_.stages[setups_[s]].id, closest->second);
      return;
    }
  }

  void add_call(Stage stage, PathUse use) {
    name_what_makes_its_directory(stage);
    std::set<std::size_t> ancestors;
    for (const auto& dep : stage.deps) {
      const std::size_t j = index_.at(dep);
      ancestors.insert(j);
      ancestors.insert(ancestors_[j].begin(), ancestors_[j].end());
    }
    for (auto s = setups_.rbegin(); s != setups_.rend(); ++s) {
      if (!ancestors.contains(*s) && keep_order(use, placed_uses_[*s])) link(stage, ancestors, *s);
    }
    place(std::move(stage), std::move(use), std::move(ancestors));
  }

  void link(Stage& stage, std::set<std::size_t>& ancestors, std::size_t on) {
    stage.deps.push_back(plan_.stages[on].id);
    ancestors.insert(on);
    ancestors.insert(ancestors_[on].begin(), ancestors_[on].end());
  }

  std::size_t place(Stage stage, PathUse use, std::set<std::size_t> ancestors) {
    index_[stage.id] = plan_.stages.size();
    plan_.stages.push_back(std::move(stage));
    placed_uses_.push_back(std::move(use));
    ancestors_.push_back(std::move(ancestors));
    return plan_.stages.size() - 1;
  }

  Plan& plan_;
  std::vector<PathUse> uses_;         // per call stage, in trace order
  std::vector<PathUse> placed_uses_;  // per stage of the new list
  std::vector<std::set<std::size_t>> ancestors_;
  std::map<std::string, std::size_t> index_;
  std::vector<std::size_t> setups_;                                     // the setup stages placed so far
  std::vector<std::vector<std::pair<std::string, std::string>>> made_;  // per setup stage: path, action word
};

}  // namespace

void add_setup_stages(Plan& plan, const trace::Trace& trace, std::vector<PathUse> uses,
                      const SetupStageOptions& options) {
  const auto groups = setup_groups(trace, plan.output_dir, options.repo_root);
  if (groups.empty()) return;
  SetupWeaver(plan, std::move(uses)).weave(groups, options);
}

}  // namespace tipc::plan
