#include "config/project_settings.h"

#include <algorithm>
#include <filesystem>
#include <regex>
#include <set>
#include <tuple>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "config/yaml_file.h"
#include "config/yaml_reader.h"
#include "core/confined_path.h"
#include "core/vocabulary.h"

namespace tipc::config {
namespace {

using YAML::Node;

Node undefined() { return Node(YAML::NodeType::Undefined); }

// parent[key] when it is a map (or a list); a problem and an undefined node when it is something else.
Node shaped(YamlReader& r, const Node& parent, const std::string& key, YAML::NodeType::value type) {
  Node node = r.child(parent, key);
  if (!node || node.Type() == type) return node;
  r.problem(node, key, type == YAML::NodeType::Map ? "expected a map" : "expected a list");
  return undefined();
}

// An optional integer that must be at least 1.
std::optional<int> positive(YamlReader& r, const Node& parent, const std::string& key) {
  if (!r.child(parent, key)) return std::nullopt;
  const int value = r.integer(parent, key, 1);
  if (value >= 1) return value;
  r.problem(r.child(parent, key), key, "must be at least 1");
  return std::nullopt;
}

// A non-empty string: required, or std::nullopt when absent and optional.
std::optional<std::string> text(YamlReader& r, const Node& map, const std::string& key, bool required = true) {
  const Node node = r.child(map, key);
  if (!node && !required) return std::nullopt;
  const std::string value = r.str(map, key);
  if (node && node.IsScalar() && value.empty()) r.problem(node, key, "expected a non-empty string");
  return value;
}

// A stage kind's word at `node`; a problem naming the known kinds (and `also`) when it is none.
std::optional<StageKind> stage_kind(YamlReader& r, const Node& node, const std::string& key, const char* also = "") {
  const std::string word = r.scalar(node, key);
  const auto kind = stage_kind_from_string(word);
  if (!kind && node.IsScalar()) {
    r.problem(node, key, fmt::format("unknown stage kind '{}' (known: {}{})", word, known_words(kAllStageKinds), also));
  }
  return kind;
}

void read_timeouts(YamlReader& r, const Node& node, ProjectSettings& s) {
  std::set<StageKind> given;
  for (const auto& item : node) {
    if (item.first.IsScalar() && (item.first.Scalar() == "grace" || item.first.Scalar() == "idle")) {
      const std::string& key = item.first.Scalar();
      if (const auto seconds = r.non_negative(item.second, key, "expected a number of seconds")) {
        (key == "grace" ? s.grace : s.idle_timeout) = *seconds;
      }
      continue;
    }
    const auto kind = stage_kind(r, item.first, "timeouts", "; or grace, idle");
    if (!kind) continue;
    const auto seconds = r.non_negative(item.second, to_string(*kind), "expected a number of seconds");
    if (seconds) s.timeouts[*kind] = *seconds;
    given.insert(*kind);
  }
  for (const StageKind follower : {StageKind::kConvert, StageKind::kOther}) {
    if (!given.contains(follower)) s.timeouts[follower] = s.timeouts[StageKind::kExport];
  }
}

std::vector<StageKind> read_kinds(YamlReader& r, const Node& item) {
  std::vector<StageKind> kinds;
  for (const auto& node : shaped(r, item, "kinds", YAML::NodeType::Sequence)) {
    if (const auto kind = stage_kind(r, node, "kinds")) kinds.push_back(*kind);
  }
  return kinds;
}

void read_log_checks(YamlReader& r, const Node& node, ProjectSettings& s) {
  for (const auto& item : node) {
    if (!item.IsMap()) {
      r.problem(item, "log_checks", "a log check is a map");
      continue;
    }
    r.check_keys(item, "a log check");
    LogCheckSetting check{r.str(item, "name", ""), r.str(item, "pattern"), read_kinds(r, item)};
    try {
      std::regex(check.pattern);
    } catch (const std::regex_error& e) {
      r.problem(r.child(item, "pattern"), "pattern", fmt::format("not a valid regular expression: {}", e.what()));
    }
    if (check.name.empty()) check.name = check.pattern;
    s.log_checks.push_back(std::move(check));
  }
}

void read_data(YamlReader& r, const Node& node, ProjectSettings& s) {
  for (const auto& mode : node) {
    const std::string name = r.scalar(mode.first, "data");
    if (!mode.second.IsSequence()) {
      r.problem(mode.second, name, "expected a list of data steps");
      continue;
    }
    for (const auto& step : mode.second) {
      if (!step.IsMap()) {
        r.problem(step, name, "a data step is a map");
        continue;
      }
      r.check_keys(step, "a data step");
      s.data[name].push_back({*text(r, step, "archive"), *text(r, step, "destination"), *text(r, step, "creates"),
                              yaml_line(r.child(step, "archive")), yaml_line(r.child(step, "destination"))});
    }
  }
}

// Appends `--flag value` for every optional key present in the map; numeric values are checked.
void optional_flags(YamlReader& r, const Node& map, std::vector<std::string>& arguments,
                    std::initializer_list<std::pair<const char*, bool>> keys_and_numeric) {
  for (const auto& [key, numeric] : keys_and_numeric) {
    const Node node = r.child(map, key);
    if (!node) continue;
    if (numeric && !r.non_negative(node, key, "expected a number")) continue;
    arguments.push_back(std::string("--") + key);
    arguments.push_back(r.scalar(node, key));
  }
}

void read_diff_check(YamlReader& r, const Node& map, AlignmentCheckSetting& check) {
  check.subcommand = CheckKind::kDiff;
  check.arguments = {*text(r, map, "reference"), *text(r, map, "candidate")};
  if (const auto method = text(r, map, "method", false)) {
    static const std::regex methods("(mean|min|max|all)(,(mean|min|max|all))*");
    if (!std::regex_match(*method, methods)) {
      r.problem(r.child(map, "method"), "method", "expected mean, min, max, all or a comma-separated list of them");
    }
  }
  optional_flags(r, map, check.arguments, {{"method", false}, {"threshold", true}, {"layout", false}});
}

void read_ground_truth_check(YamlReader& r, const Node& map, AlignmentCheckSetting& check) {
  check.subcommand = CheckKind::kCompareResults;
  check.arguments = {"--gt", *text(r, map, "results"), "--log", *text(r, map, "log")};
  if (r.child(map, "format")) r.one_of(map, "format", {"tipc", "video", "metric"}, "tipc");
  if (r.child(map, "compare") && r.one_of(map, "compare", {"allclose", "labels"}, "allclose") == "labels") {
    for (const char* tolerance : {"atol", "rtol"}) {
      if (const Node node = r.child(map, tolerance)) r.problem(node, tolerance, "does not apply to compare: labels");
    }
  }
  optional_flags(r, map, check.arguments, {{"atol", true}, {"rtol", true}, {"format", false}, {"compare", false}});
}

void read_init_check(YamlReader& r, const Node& map, AlignmentCheckSetting& check) {
  check.subcommand = CheckKind::kInitCheck;
  check.arguments = {*text(r, map, "reference"), *text(r, map, "candidate")};
  for (const auto& key : shaped(r, map, "keys", YAML::NodeType::Sequence)) {
    check.arguments.push_back("--key");
    check.arguments.push_back(r.scalar(key, "keys"));
  }
  optional_flags(r, map, check.arguments, {{"threshold", true}, {"bins", true}});
}

// `modes:` a list of MODE names the check applies to (absent: every mode).
std::vector<std::string> read_modes(YamlReader& r, const Node& item) {
  static const std::regex mode_pattern("[A-Za-z0-9_]+");
  std::vector<std::string> modes;
  const Node node = r.child(item, "modes");
  if (!node) return modes;
  if (!node.IsSequence() || node.size() == 0) {
    r.problem(node, "modes", "expected a non-empty list of MODE names");
    return modes;
  }
  for (const auto& mode : node) {
    const std::string name = mode.IsScalar() ? mode.Scalar() : "";
    if (std::regex_match(name, mode_pattern))
      modes.push_back(name);
    else
      r.problem(mode, "modes", "expected a MODE name (letters, digits, '_')");
  }
  return modes;
}

// The one check kind of an alignment entry, read into `check`.
void read_check_kind(YamlReader& r, const Node& item, AlignmentCheckSetting& check) {
  using Read = void (*)(YamlReader&, const Node&, AlignmentCheckSetting&);
  const std::pair<const char*, Read> kinds[] = {
      {"diff", read_diff_check}, {"ground_truth", read_ground_truth_check}, {"init", read_init_check}};
  const auto given =
      std::count_if(std::begin(kinds), std::end(kinds), [&](const auto& k) { return r.child(item, k.first); });
  if (given != 1) r.problem(item, check.name, "give exactly one of diff, ground_truth or init");
  for (const auto& [key, read] : kinds) {
    const Node map = shaped(r, item, key, YAML::NodeType::Map);
    if (!map || given != 1) continue;
    r.check_keys(map, key);
    read(r, map, check);
  }
}

// `after:` a stage kind, or a glob over stage ids. A check never follows a check.
StagesAfter stages_after(YamlReader& r, const Node& item) {
  StagesAfter after;
  after.text = *text(r, item, "after");
  after.kind = stage_kind_from_string(after.text);
  if (!after.kind) after.id_glob = after.text;
  if (after.kind == StageKind::kCheck) r.problem(r.child(item, "after"), "after", "a check never follows a check");
  return after;
}

void read_alignment_check(YamlReader& r, const Node& item, ProjectSettings& s) {
  static const std::regex name_pattern("[A-Za-z0-9_.-]+");
  r.check_keys(item, "an alignment check");
  AlignmentCheckSetting check;
  check.name = *text(r, item, "name");
  if (!check.name.empty() && !std::regex_match(check.name, name_pattern)) {
    r.problem(r.child(item, "name"), "name", "use letters, digits, '_', '.' and '-'");
  }
  for (const auto& other : s.alignment) {
    if (other.name == check.name) {
      r.problem(r.child(item, "name"), "name", fmt::format("'{}' is already used ({})", check.name, other.source));
    }
  }
  check.after = stages_after(r, item);
  check.modes = read_modes(r, item);
  check.source = fmt::format("{}:{}", s.path, yaml_line(item));
  read_check_kind(r, item, check);
  s.alignment.push_back(std::move(check));
}

void read_alignment(YamlReader& r, const Node& node, ProjectSettings& s) {
  for (const auto& item : node) {
    if (item.IsMap())
      read_alignment_check(r, item, s);
    else
      r.problem(item, "alignment", "a check is a map");
  }
}

void read_slurm(YamlReader& r, const Node& node, SlurmSetting& slurm) {
  r.check_keys(node, "slurm");
  slurm.partition = text(r, node, "partition", false);
  slurm.account = text(r, node, "account", false);
  slurm.cpus_per_task = positive(r, node, "cpus_per_task");
  if (const auto placement = text(r, node, "placement", false)) {
    if (*placement == "slurm")
      slurm.tipc_run_places = false;
    else if (*placement != "tipc-run") {
      r.problem(r.child(node, "placement"), "placement",
                fmt::format("'{}' is neither tipc-run (pin each job to nodes it fits now) nor slurm", *placement));
    }
  }
  for (const auto& arg : shaped(r, node, "srun_args", YAML::NodeType::Sequence)) {
    const std::string flag = r.scalar(arg, "srun_args");
    if (flag.starts_with("-"))
      slurm.srun_args.push_back(flag);
    else
      r.problem(arg, "srun_args", fmt::format("'{}' is not an srun flag (-x or --name=value)", flag));
  }
}

void read_gpus(YamlReader& r, const Node& node, GpuSetting& gpus) {
  r.check_keys(node, "gpus");
  gpus.expect = positive(r, node, "expect");
  if (const Node wait = r.child(node, "release_wait")) {
    gpus.release_wait =
        r.non_negative(wait, "release_wait", "expected a number of seconds").value_or(gpus.release_wait);
  }
  gpus.exclusive = r.boolean(node, "exclusive", false);
}

// `history: FILE` or `history: false`.
void read_history(YamlReader& r, const Node& root, ProjectSettings& s) {
  const Node node = r.child(root, "history");
  if (!node) return;
  const std::string value = r.scalar(node, "history");
  if (value == "false")
    s.history = "";
  else if (value.empty() || value == "true")
    r.problem(node, "history", "expected a file, or false for no history");
  else
    s.history = value;
}

// `cpu_train_processes`: one number for every mode, or a map from modes (and `default`) to
// numbers, so that a benchmark can train alone while the other modes train data-parallel.
void read_cpu_train_processes(YamlReader& r, const Node& root, ProjectSettings& s) {
  const Node node = r.child(root, "cpu_train_processes");
  if (!node || !node.IsMap()) {
    s.cpu_train_processes = positive(r, root, "cpu_train_processes").value_or(1);
    return;
  }
  for (const auto& entry : node) {
    const std::string mode = r.scalar(entry.first, "cpu_train_processes");
    const std::optional<int> ranks = mode.empty() ? std::nullopt : positive(r, node, mode);
    if (!ranks) continue;
    if (mode == "default")
      s.cpu_train_processes = *ranks;
    else
      s.cpu_train_processes_by_mode[mode] = *ranks;
  }
}

// `trace_env:` a map of NAME: VALUE. A value is required: the settings are the repository's,
// and only the person running tipc-run hands on a variable of their own environment
// (--trace-env NAME), which a repository must not read into its plans and reports.
void read_trace_env(YamlReader& r, const Node& node, ProjectSettings& s) {
  if (!node) return;
  for (const auto& entry : node) {
    const std::string name = r.scalar(entry.first, "trace_env");
    if (name.empty()) continue;
    if (entry.second.IsNull()) {
      r.problem(entry.second, name,
                fmt::format("give {} a value: the settings cannot pass on the caller's own environment (that is "
                            "--trace-env {})",
                            name, name));
      continue;
    }
    const std::string value = r.scalar(entry.second, name);
    if (entry.second.IsScalar()) s.trace_env.push_back({name, value, yaml_line(entry.first)});
  }
}

// `exclude: GLOB` or a list of globs.
void read_exclude(YamlReader& r, const Node& root, ProjectSettings& s) {
  const Node node = r.child(root, "exclude");
  if (!node) return;
  const std::vector<Node> items =
      node.IsSequence() ? std::vector<Node>(node.begin(), node.end()) : std::vector<Node>{node};
  for (const Node& item : items) {
    const std::string glob = r.scalar(item, "exclude");  // a problem when it is no string
    if (!glob.empty())
      s.exclude.push_back({glob, yaml_line(item)});
    else if (item.IsScalar())
      r.problem(item, "exclude", "an empty glob: expected a glob of configs to leave out");
  }
}

// `modes: MODE` or a list of MODEs, each once.
void read_modes(YamlReader& r, const Node& root, ProjectSettings& s) {
  const Node node = r.child(root, "modes");
  if (!node) return;
  s.modes_line = yaml_line(node);
  const std::vector<Node> items =
      node.IsSequence() ? std::vector<Node>(node.begin(), node.end()) : std::vector<Node>{node};
  for (const Node& item : items) {
    const std::string mode = r.scalar(item, "modes");  // a problem when it is no string
    if (item.IsScalar() && mode.empty())
      r.problem(item, "modes", "an empty MODE");
    else if (std::find(s.modes.begin(), s.modes.end(), mode) != s.modes.end())
      r.problem(item, "modes", "MODE '" + mode + "' twice");
    else if (!mode.empty())
      s.modes.push_back(mode);
  }
  if (node.IsSequence() && items.empty())
    r.problem(node, "modes", "an empty list: expected the MODEs of a run that names none");
}

void read_settings(YamlReader& r, const Node& root, ProjectSettings& s) {
  r.check_keys(root, "the settings");
  if (const Node slurm = shaped(r, root, "slurm", YAML::NodeType::Map)) read_slurm(r, slurm, s.slurm);
  read_timeouts(r, shaped(r, root, "timeouts", YAML::NodeType::Map), s);
  if (const Node gpus = shaped(r, root, "gpus", YAML::NodeType::Map)) read_gpus(r, gpus, s.gpus);
  read_log_checks(r, shaped(r, root, "log_checks", YAML::NodeType::Sequence), s);
  read_data(r, shaped(r, root, "data", YAML::NodeType::Map), s);
  read_alignment(r, shaped(r, root, "alignment", YAML::NodeType::Sequence), s);
  s.gates = read_gates(r, shaped(r, root, "gates", YAML::NodeType::Sequence), s.path);
  read_history(r, root, s);
  read_exclude(r, root, s);
  read_modes(r, root, s);
  read_trace_env(r, shaped(r, root, "trace_env", YAML::NodeType::Map), s);
  s.launcher = text(r, root, "launcher", false);
  s.dialect = text(r, root, "dialect", false);
  if (s.dialect) s.dialect_line = yaml_line(r.child(root, "dialect"));
  s.jobs = positive(r, root, "jobs");
  read_cpu_train_processes(r, root, s);
}

}  // namespace

int ProjectSettings::cpu_train_processes_for(const std::string& mode) const {
  const auto it = cpu_train_processes_by_mode.find(mode);
  return it == cpu_train_processes_by_mode.end() ? cpu_train_processes : it->second;
}

std::vector<DataStepSetting> ProjectSettings::data_for(const std::string& mode) const {
  std::vector<DataStepSetting> steps;
  for (const char* key : {"all", mode.c_str()}) {
    if (const auto it = data.find(key); it != data.end())
      steps.insert(steps.end(), it->second.begin(), it->second.end());
  }
  return steps;
}

std::vector<Diagnostic> missing_data_archives(const ProjectSettings& settings, const std::string& mode,
                                              const std::string& repo_root) {
  std::vector<Diagnostic> missing;
  for (const auto& step : settings.data_for(mode)) {
    std::error_code ec;
    if (std::filesystem::is_regular_file(std::filesystem::path(repo_root) / step.archive, ec)) continue;
    missing.push_back({settings.path, step.line, "archive",
                       fmt::format("the data archive '{}' of mode {} is not a file under {}: put it there (or fix the "
                                   "path, relative to the repository root)",
                                   step.archive, mode, repo_root)});
  }
  return missing;
}

std::vector<Diagnostic> unconfined_data_paths(const ProjectSettings& settings, const std::string& mode) {
  std::vector<Diagnostic> unconfined;
  for (const auto& step : settings.data_for(mode)) {
    for (const auto& [key, path, line] : {std::tuple{"archive", &step.archive, step.line},
                                          std::tuple{"destination", &step.destination, step.destination_line}}) {
      if (is_confined_relative_path(*path)) continue;
      unconfined.push_back({settings.path, line, key,
                            fmt::format("the data step's {} '{}' must be a path inside the repository, relative to its "
                                        "root and without '..' (--compat accepts it)",
                                        key, *path)});
    }
  }
  return unconfined;
}

// Every problem of the file at once (config::YamlReader), each with its line and key.
Result<ProjectSettings> load_project_settings(const std::string& path) {
  const Node root = TRY(load_yaml_file(path, "the settings file"));
  ProjectSettings s;
  s.path = path;
  if (root.IsNull()) return s;
  if (!root.IsMap()) return fail(Error::at(path, 1, "", "expected a map of settings"));
  YamlReader reader(path);
  read_settings(reader, root, s);
  if (auto problems = reader.finish(); !problems.empty()) return fail(Error{std::move(problems)});
  return s;
}

}  // namespace tipc::config
