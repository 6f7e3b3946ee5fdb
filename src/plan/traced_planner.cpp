#include "plan/traced_planner.h"

#include <algorithm>
#include <filesystem>
#include <set>

#include <fmt/format.h>

#include "config/positions.h"
#include "core/locations.h"
#include "core/text.h"
#include "plan/data_flow.h"
#include "plan/shell_words.h"
#include "plan/stage_kind_match.h"
#include "plan/traced_needs.h"
#include "plan/traced_status.h"

namespace tipc::plan {
namespace fs = std::filesystem;
namespace {

// The directory of a plan whose runner writes no status log (benchmark_train.sh): its own,
// as a native plan's, so that its stages' logs, setup logs, journal and reports are never
// another config's; test_tipc/output/MODE when the model name is no single path component.
std::string own_output_dir(const std::string& model_name, const std::string& mode) {
  const bool one_component =
      !model_name.empty() && model_name != "." && model_name != ".." && model_name.find('/') == std::string::npos;
  return one_component ? fmt::format("{}/{}/{}", kOutputTree, model_name, mode)
                       : fmt::format("{}/{}", kOutputTree, mode);
}

// A path as the trace names it (repository-relative, or absolute) made relative to the
// run directory, the base of Stage::log and Plan::results_log.
std::string from_run_dir(const std::string& path, const std::string& run_dir, const std::string& repo_root) {
  std::string relative = path;
  if (repo_root != "." && path.starts_with(repo_root + "/"))
    relative = path.substr(repo_root.size() + 1);
  else if (path.starts_with("/"))
    return path;
  if (run_dir == ".") return relative;
  return fs::path(relative).lexically_normal().lexically_relative(run_dir).string();
}

std::string to_repo(const std::string& path, const std::string& run_dir) {
  if (path.starts_with("/") || run_dir == ".") return path;
  return (fs::path(run_dir) / path).lexically_normal().string();
}

// `cat X >> L`, evaluated after a train: the runner copies the trainer's own log into
// the stage log and takes that copy's status as the train's (D2 in docs/reference-runner.md).
std::string trainer_log_after(const trace::Trace& trace, std::size_t from, std::size_t to) {
  for (std::size_t e = from; e < to && e < trace.evals.size(); ++e) {
    auto words = split_shell_words(trace.evals[e], {.pipe_is_space = true});
    if (words && words->words.size() == 2 && words->words[0] == "cat" &&
        trace.evals[e].find(">>") != std::string::npos) {
      return words->words[1];
    }
  }
  return "";
}

// The program's name (without its directory: a built binary's path) and its arguments.
std::vector<std::string> program_and_args(const trace::TracedCall& call) {
  std::vector<std::string> words = {fs::path(call.program).filename().string()};
  words.insert(words.end(), call.args.begin(), call.args.end());
  return words;
}

// `... &`: the runner went on while the program ran (a server; `&&` is not that).
bool started_in_background(const std::string& shell_text) {
  const std::string_view text = trim_end(shell_text, " \t\n");
  return text.ends_with('&') && !text.ends_with("&&");
}

// A server's readiness: the port its arguments name (`--port 9393`, `--port=9393`), else
// none to wait for, as the runner that starts it and goes on assumes.
Service traced_service(const std::vector<std::string>& args) {
  Service service;
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string value;
    if (args[i] == "--port" && i + 1 < args.size())
      value = args[i + 1];
    else if (args[i].starts_with("--port="))
      value = args[i].substr(7);
    if (!value.empty() && value.find_first_not_of("0123456789") == std::string::npos && value.size() <= 5) {
      service.port = std::stoi(value);
    }
  }
  return service;
}

std::string stem_of(const std::string& log) {
  std::string stem = fs::path(log).filename().string();
  if (stem.ends_with(".log")) stem.resize(stem.size() - 4);
  return stem;
}

// The command of a status line after its word (" with command - model - python x.py ... !"),
// without escape codes, shortened for a warning.
std::string printable_command(const std::string& after_word) {
  std::string text = without_escape_codes(after_word);
  while (!text.empty() && (text.back() == ' ' || text.back() == '!')) text.pop_back();
  return text.size() > 160 ? text.substr(0, 157) + "..." : text;
}

class TracedPlanner {
 public:
  TracedPlanner(const trace::Trace& t, const config::TrainInferConfig& c, const TracedPlanOptions& o)
      : trace_(t), cfg_(c), opt_(o), scripts_(script_lines(c, o.script_keys)), status_(traced_status_log(t)) {}

  Result<Plan> run();

 private:
  Stage stage_for(std::size_t index, const std::optional<std::size_t>& status_line);
  void place_unclaimed_lines(const std::vector<std::optional<std::size_t>>& claimed);
  void take_status_from_other_stages(const std::vector<std::optional<std::size_t>>& claimed);
  std::string log_for(const trace::TracedCall& call, const std::string& status_log, std::size_t index) const;
  std::string unique_id(const Stage& stage);
  void add_dependencies();
  std::vector<std::size_t> stage_it_follows(std::size_t index) const;
  void add_server_of_client(std::size_t index);
  int followed_gpus(std::size_t index, const std::vector<std::vector<std::size_t>>& readers) const;
  void settle_gpus();
  std::string why_empty() const;
  Result<void> reject_empty_plan();

  const trace::Trace& trace_;
  const config::TrainInferConfig& cfg_;
  const TracedPlanOptions& opt_;
  std::vector<ScriptLine> scripts_;
  TracedStatusLog status_;
  Plan plan_;
  std::string train_stem_;  // the latest train's log name: the group of the stages after it
  std::set<std::string> ids_;
  std::vector<bool> follows_inputs_;            // per stage: TracedNeeds::follows_inputs
  std::vector<std::vector<std::size_t>> deps_;  // per stage: the stages it reads from
  std::vector<PathUse> uses_;                   // per stage: the paths it reads and writes
};

Result<Plan> TracedPlanner::run() {
  plan_.config_path = cfg_.path;
  plan_.dialect = "traced " + trace_.runner;
  plan_.mode = trace_.mode;
  plan_.compat = opt_.rules->reproduces_reference();
  plan_.model_name = cfg_.value_named("model_name");
  plan_.run_dir = trace_.run_dir;
  plan_.banner = status_.banner;
  if (!status_.path.empty()) {
    plan_.results_log = from_run_dir(status_.path, trace_.run_dir, opt_.repo_root);
    plan_.output_dir = fs::path(plan_.results_log).parent_path().string();
  } else {
    plan_.output_dir = own_output_dir(plan_.model_name, plan_.mode);
  }
  std::vector<std::string> commands;
  for (const auto& call : trace_.calls) {
    std::vector<std::string> argv = {call.program};
    argv.insert(argv.end(), call.args.begin(), call.args.end());
    commands.push_back(call.eval_index < trace_.evals.size() ? trace_.evals[call.eval_index] : join_shell_words(argv));
  }
  const auto lines = assign_status_lines(status_.lines, commands);
  for (std::size_t i = 0; i < trace_.calls.size(); ++i) plan_.stages.push_back(stage_for(i, lines[i]));
  place_unclaimed_lines(lines);
  take_status_from_other_stages(lines);
  add_dependencies();
  settle_gpus();
  TRY(reject_empty_plan());
  SetupStageOptions setup = opt_.setup;
  setup.repo_root = opt_.repo_root;
  add_setup_stages(plan_, trace_, std::move(uses_), setup);
  return std::move(plan_);
}

std::string TracedPlanner::log_for(const trace::TracedCall& call, const std::string& status_log,
                                   std::size_t index) const {
  if (!call.stdout_path.empty()) return from_run_dir(call.stdout_path, trace_.run_dir, opt_.repo_root);
  if (!status_log.empty()) {  // as the runner spelled it: relative to the run directory unless absolute
    return status_log.starts_with("/") ? from_run_dir(status_log, trace_.run_dir, opt_.repo_root) : status_log;
  }
  return fmt::format("{}/tipc_stage_{}.log", plan_.output_dir, index + 1);  // the runner's own stdout: give it a file
}

namespace {

// What a traced train was given for the config's batch size and auto_cast keys, by its
// `KEY=VALUE` arguments (the last one counts); the runners leave a null value out, so a train
// given none trains with "null".
TrainSetting traced_train_setting(const config::TrainInferConfig& config, const std::vector<std::string>& args) {
  auto given = [&](int line) -> std::optional<std::string> {
    const std::string& key = config.key(line);
    const std::string word = key.substr(key.find_last_of(' ') + 1) + "=";  // "-o Global.auto_cast": the last word
    if (word == "=") return std::nullopt;
    const auto it =
        std::find_if(args.rbegin(), args.rend(), [&](const std::string& arg) { return arg.starts_with(word); });
    if (it == args.rend()) return std::nullopt;
    return it->substr(word.size());
  };
  return TrainSetting{given(config::pos::kBatch).value_or(""), given(config::pos::kAutoCast).value_or("null")};
}

}  // namespace

// The dy2static runners' loss comparison: `dyout=`cat LOG | python extract_loss.py``, then
// `echo $dyout > FILE` and `diff` of two such files, all through the shell.
const char* const kPipedInput =
    "the runner fed this program's standard input through a shell pipe (`cat LOG | program`) and kept its output in "
    "a shell variable; a planned stage gets neither, so it is not run (nor what compares its output)";

Stage TracedPlanner::stage_for(std::size_t index, const std::optional<std::size_t>& status_line) {
  const trace::TracedCall& call = trace_.calls[index];
  Stage stage;
  const bool interpreter = call.program.starts_with("python") || call.program == cfg_.value_named("python");
  stage.argv.push_back(opt_.python && interpreter ? *opt_.python : call.program);
  stage.argv.insert(stage.argv.end(), call.args.begin(), call.args.end());
  stage.cwd = call.cwd;
  stage.env = call.env;
  stage.env.try_emplace("CUDA_VISIBLE_DEVICES", std::nullopt);  // the trace starts with it unset
  const bool evaluated = call.eval_index < trace_.evals.size();
  stage.results_log.shell_text = evaluated ? trace_.evals[call.eval_index] : join_shell_words(stage.argv);
  stage.results_log.command = stage.results_log.shell_text;
  const std::string line_log = status_line ? status_line_log(status_.lines[*status_line]) : "";
  if (status_line) stage.results_log.traced_status = split_status_line(status_.lines[*status_line]);
  stage.log = log_for(call, line_log, index);
  stage.results_log.status_log = line_log.empty() ? stage.log : line_log;
  stage.kind = match_stage_kind(scripts_, program_and_args(call), stage.log).kind;
  if (started_in_background(stage.results_log.shell_text)) stage.kind = StageKind::kService;
  if (stage.kind == StageKind::kService) stage.service = traced_service(call.args);
  if (call.stdin_from_pipe) stage.unsupported = kPipedInput;
  const auto& cvd = stage.env["CUDA_VISIBLE_DEVICES"];
  const TracedNeeds needs = traced_needs(call.args, cvd);
  stage.needs = needs.needs;
  stage.launcher = needs.launcher;
  stage.hosts = needs.hosts;
  follows_inputs_.push_back(needs.follows_inputs);
  stage.benchmark = stage.kind == StageKind::kInfer &&
                    std::any_of(call.args.begin(), call.args.end(),
                                [](const std::string& a) { return a.ends_with("benchmark=True"); });
  if (stage.kind == StageKind::kTrain) stage.train_setting = traced_train_setting(cfg_, call.args);
  if (stage.kind == StageKind::kTrain && evaluated) {
    const std::size_t next = index + 1 < trace_.calls.size() ? trace_.calls[index + 1].eval_index : trace_.evals.size();
    stage.results_log.trainer_log = trainer_log_after(trace_, call.eval_index + 1, std::min(next, trace_.evals.size()));
    train_stem_ = stem_of(stage.log);
  }
  stage.id = unique_id(stage);
  return stage;
}

// Status lines of commands the runner reported but never started are the runner's own bytes
// (--compat writes them where the runner did, word included) and a warning each: the
// reference reports a result for what it did not run. A line of a program it ran for real
// outside the stand-ins is one tipc-run does not run, so --compat leaves it out.
void TracedPlanner::place_unclaimed_lines(const std::vector<std::optional<std::size_t>>& claimed) {
  const std::string log = fs::path(status_.path).filename().string();
  for (const auto& unclaimed : unclaimed_status_lines(status_, claimed, trace_, cfg_.value_named("python"))) {
    const std::string& line = status_.lines[unclaimed.line];
    const std::string what = fmt::format("{} status line {} reports '{}'{}", log, unclaimed.line + 1, status_word(line),
                                         printable_command(split_status_line(line)->after));
    if (unclaimed.ran_for_real) {
      plan_.warnings.push_back({trace_.runner, 0, "",
                                what + ": a program the runner ran itself and tipc-run does "
                                       "not run as a stage; --compat leaves the line out"});
      continue;
    }
    plan_.warnings.push_back(
        {trace_.runner, 0, "", what + ", but no program of it started in the trace: the runner never ran it"});
    auto& lines = unclaimed.after_call ? plan_.stages[*unclaimed.after_call].results_log.trailing_status_lines
                                       : plan_.leading_status_lines;
    lines.push_back(line);
  }
}

// A line whose word the probes show to follow another call's exit status (a runner's
// `status_check $last_status` left over from the call before) keeps that under --compat, and is
// a warning: the runner reports that stage's failure as the other's result.
void TracedPlanner::take_status_from_other_stages(const std::vector<std::optional<std::size_t>>& claimed) {
  for (std::size_t i = 0; i < claimed.size(); ++i) {
    if (!claimed[i] || *claimed[i] >= opt_.status_sources.size()) continue;
    const auto source = opt_.status_sources[*claimed[i]];
    if (!source || *source == i || *source >= plan_.stages.size()) continue;
    Stage& stage = plan_.stages[i];
    stage.results_log.status_from = plan_.stages[*source].id;
    plan_.warnings.push_back(
        {trace_.runner, 0, "",
         fmt::format("{} status line {} (stage {}) reports the exit status of stage {}, not its own: the runner "
                     "writes a failure of {} as the other's result; --compat does the same, the reports do not",
                     fs::path(status_.path).filename().string(), *claimed[i] + 1, stage.id,
                     stage.results_log.status_from, stage.id)});
  }
}

std::string TracedPlanner::unique_id(const Stage& stage) {
  const std::string group = train_stem_.empty() ? trace_.mode : train_stem_;
  std::string id = fmt::format("{}/{}", group, to_string(stage.kind));
  const bool one_of_many = stage.kind == StageKind::kInfer || stage.kind == StageKind::kOther ||
                           stage.kind == StageKind::kConvert || stage.kind == StageKind::kService;
  if (one_of_many) id += "/" + stem_of(stage.log);
  std::string unique = id;
  for (int n = 2; ids_.count(unique); ++n) unique = fmt::format("{}#{}", id, n);
  ids_.insert(unique);
  return unique;
}

void TracedPlanner::add_dependencies() {
  std::vector<PathUse>& uses = uses_;
  for (std::size_t i = 0; i < plan_.stages.size(); ++i) {
    const Stage& stage = plan_.stages[i];
    PathUse use = path_use(trace_.calls[i].args, stage.cwd, opt_.repo_root);
    use.barrier = use.barrier || stage.kind == StageKind::kOther;
    // What a train saves into, if its arguments name it: never its own log.
    if (stage.kind == StageKind::kTrain && !use.writes.empty()) plan_.stages[i].model_dir = use.writes.front();
    use.log = fs::path(to_repo(stage.log, trace_.run_dir)).lexically_normal().string();
    uses.push_back(std::move(use));
  }
  FlowEdges edges = data_flow_edges(uses);
  deps_ = std::move(edges.deps);
  for (std::size_t i = 0; i < plan_.stages.size(); ++i) {
    if (deps_[i].empty()) deps_[i] = stage_it_follows(i);
    add_server_of_client(i);
  }
  for (std::size_t i = 0; i < plan_.stages.size(); ++i) {
    Stage& stage = plan_.stages[i];
    for (std::size_t j : deps_[i]) stage.deps.push_back(plan_.stages[j].id);
    for (std::size_t j : edges.after[i]) {
      if (std::find(deps_[i].begin(), deps_[i].end(), j) == deps_[i].end()) stage.after.push_back(plan_.stages[j].id);
    }
  }
}

// An eval, export or inference that reads nothing an earlier stage wrote (an eval that finds
// its weights through the model's own config, or reads a path the runner misspelt) still runs
// after what the runner ran it after: the latest train for an eval or export, the latest
// server, else export, else train for an inference (a client talks to the server started
// before it), the latest conversion for a server. A serial plan that is right beats a
// parallel one that may not be.
std::vector<std::size_t> TracedPlanner::stage_it_follows(std::size_t index) const {
  const StageKind kind = plan_.stages[index].kind;
  std::vector<StageKind> before;  // what it follows, the nearest of the first kind found wins
  if (kind == StageKind::kEval || kind == StageKind::kExport) before = {StageKind::kTrain};
  if (kind == StageKind::kInfer) before = {StageKind::kService, StageKind::kExport, StageKind::kTrain};
  if (kind == StageKind::kService) before = {StageKind::kConvert};
  for (const StageKind wanted : before) {
    for (std::size_t j = index; j-- > 0;) {
      if (plan_.stages[j].kind == wanted) return {j};
      if (plan_.stages[j].kind == StageKind::kTrain) break;  // nothing before the latest train counts
    }
  }
  return {};
}

// An inference started while a server runs is that server's client, whatever files it also
// reads (a serving client reads the client config the export wrote): it waits until the
// server is ready, and the server stays up until it ends.
void TracedPlanner::add_server_of_client(std::size_t index) {
  if (plan_.stages[index].kind != StageKind::kInfer) return;
  for (std::size_t j = index; j-- > 0;) {
    const StageKind kind = plan_.stages[j].kind;
    if (kind == StageKind::kTrain) return;
    if (kind != StageKind::kService) continue;
    if (std::find(deps_[index].begin(), deps_[index].end(), j) == deps_[index].end()) deps_[index].push_back(j);
    return;
  }
}

// The GPUs of a stage whose device nothing states: one when any stage it reads from had one.
// A train that reads from none runs on its group's device, which the runner may state only
// for the stages after it (the template runner exports CUDA_VISIBLE_DEVICES after the
// train): one when a stage reading from it has one by its own evidence.
int TracedPlanner::followed_gpus(std::size_t index, const std::vector<std::vector<std::size_t>>& readers) const {
  const bool from_readers = deps_[index].empty() && plan_.stages[index].kind == StageKind::kTrain;
  int gpus = 0;
  for (std::size_t j : from_readers ? readers[index] : deps_[index]) {
    if (from_readers && follows_inputs_[j]) continue;  // a reader that follows the train states nothing
    gpus = std::max(gpus, std::min(1, plan_.stages[j].needs.gpus));
  }
  return gpus;
}

// In trace order, so a stage's inputs are settled before it. Then, by default, logical ids
// mapped onto the allocated GPUs: a GPU stage never sees every GPU (the reference's rules
// keep the traced environment).
void TracedPlanner::settle_gpus() {
  std::vector<std::vector<std::size_t>> readers(plan_.stages.size());
  for (std::size_t i = 0; i < deps_.size(); ++i) {
    for (std::size_t j : deps_[i]) readers[j].push_back(i);
  }
  for (std::size_t i = 0; i < plan_.stages.size(); ++i) {
    Stage& stage = plan_.stages[i];
    if (follows_inputs_[i]) stage.needs.gpus = followed_gpus(i, readers);
    if (!opt_.rules->adds_logical_gpu_ids() || stage.needs.gpus == 0 || stage.env["CUDA_VISIBLE_DEVICES"]) continue;
    std::string ids;
    for (int g = 0; g < stage.needs.gpus; ++g) ids += (g ? "," : "") + std::to_string(g);
    stage.env["CUDA_VISIBLE_DEVICES"] = ids;
  }
}

// Why the runner started nothing, in one line.
std::string TracedPlanner::why_empty() const {
  std::string why = fmt::format("the runner exited {} without starting a program", trace_.exit_code);
  if (const auto* gpus = cfg_.field_named("gpu_list"); gpus && gpus->value.empty()) {
    why = fmt::format("gpu_list (line {}) is empty, so the runner's loops ran zero times", gpus->physical_line);
  } else if (!trace_.stderr_text.empty()) {
    why += ": " + trace_.stderr_text.substr(0, trace_.stderr_text.find('\n'));
  }
  return why;
}

// An empty plan is an error when the config names a trainer and the mode trains, and in the
// default mode always: a config whose runner starts nothing tests nothing, and its run (the
// runner's replayed housekeeping at most) must not pass. --compat plans it as the runner runs
// it, with a warning that says why it is empty (never silent).
Result<void> TracedPlanner::reject_empty_plan() {
  if (!plan_.stages.empty()) return {};
  const config::Field* trainer = cfg_.field_named("trainer");
  if (trace_.mode.find("train") == std::string::npos || !trainer || trainer->value.empty() ||
      trainer->value == "null") {
    if (opt_.rules->checks_config()) {
      return fail(
          Error::at(trace_.runner, 0, "",
                    fmt::format("the runner started no program in mode {}, so this config has nothing to run: {}",
                                trace_.mode, why_empty())));
    }
    plan_.warnings.push_back({trace_.runner, 0, "", "the plan has 0 stages: " + why_empty()});
    return {};
  }
  const std::string why = why_empty();
  return fail(
      Error::at(cfg_.path, trainer->physical_line, "trainer",
                fmt::format("the config names trainer '{}' but the plan has 0 stages: {}", trainer->value, why)));
}

}  // namespace

Result<Plan> plan_from_trace(const trace::Trace& trace, const config::TrainInferConfig& config,
                             const TracedPlanOptions& options) {
  return TracedPlanner(trace, config, options).run();
}

}  // namespace tipc::plan
