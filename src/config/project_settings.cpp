#include "config/project_settings.h"

#include <cerrno>
#include <regex>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

namespace tipc::config {
namespace {

const char* const kKinds[] = {"train", "eval", "export", "infer", "check"};

[[noreturn]] void bad(const std::string& path, const YAML::Node& node, const std::string& key, const std::string& what) {
  throw Error::at(path, node.Mark().line + 1, key, fmt::format("key '{}': {}", key, what));
}

void check_keys(const std::string& path, const YAML::Node& node, std::initializer_list<const char*> allowed) {
  if (!node.IsMap()) return;
  for (const auto& item : node) {
    const std::string key = item.first.as<std::string>();
    if (std::none_of(allowed.begin(), allowed.end(), [&](const char* a) { return key == a; })) {
      bad(path, item.first, key, "unknown key");
    }
  }
}

void expect_shape(const std::string& path, const YAML::Node& root, const char* key, YAML::NodeType::value type) {
  const YAML::Node node = root[key];
  if (node && node.Type() != type) bad(path, node, key, type == YAML::NodeType::Map ? "expected a map" : "expected a list");
}

bool is_kind(const std::string& kind) {
  return std::any_of(std::begin(kKinds), std::end(kKinds), [&](const char* k) { return kind == k; });
}

void read_timeouts(const std::string& path, const YAML::Node& node, ProjectSettings& s) {
  for (const auto& item : node) {
    const std::string key = item.first.as<std::string>();
    if (key != "grace" && !is_kind(key)) bad(path, item.first, key, "expected train, eval, export, infer, check or grace");
    double seconds = 0;
    try {
      seconds = item.second.as<double>();
    } catch (const YAML::Exception&) {
      bad(path, item.second, key, "expected a number of seconds");
    }
    if (seconds < 0) bad(path, item.second, key, "must not be negative");
    if (key == "grace") s.grace = seconds;
    else s.timeouts[key] = seconds;
  }
}

void read_log_checks(const std::string& path, const YAML::Node& node, ProjectSettings& s) {
  for (const auto& item : node) {
    check_keys(path, item, {"name", "pattern", "kinds"});
    LogCheckSetting check{item["name"].as<std::string>(""), item["pattern"].as<std::string>(""), {}};
    if (check.pattern.empty()) bad(path, item, "pattern", "missing");
    try {
      std::regex(check.pattern);
    } catch (const std::regex_error& e) {
      bad(path, item["pattern"], "pattern", fmt::format("not a valid regular expression: {}", e.what()));
    }
    if (check.name.empty()) check.name = check.pattern;
    for (const auto& kind : item["kinds"]) {
      if (!is_kind(kind.as<std::string>())) bad(path, kind, "kinds", "expected train, eval, export, infer or check");
      check.kinds.push_back(kind.as<std::string>());
    }
    s.log_checks.push_back(check);
  }
}

void read_data(const std::string& path, const YAML::Node& node, ProjectSettings& s) {
  for (const auto& mode : node) {
    if (!mode.second.IsSequence()) bad(path, mode.second, mode.first.as<std::string>(), "expected a list of data steps");
    for (const auto& step : mode.second) {
      if (!step.IsMap()) bad(path, step, mode.first.as<std::string>(), "a data step is a map");
      check_keys(path, step, {"archive", "destination", "creates"});
      DataStepSetting d{step["archive"].as<std::string>(""), step["destination"].as<std::string>(""),
                        step["creates"].as<std::string>("")};
      if (d.archive.empty() || d.destination.empty() || d.creates.empty()) {
        bad(path, step, mode.first.as<std::string>(), "a data step needs archive, destination and creates");
      }
      s.data[mode.first.as<std::string>()].push_back(d);
    }
  }
}

std::string required_text(const std::string& path, const YAML::Node& map, const char* key) {
  const YAML::Node node = map[key];
  if (!node) bad(path, map, key, "missing");
  if (!node.IsScalar() || node.as<std::string>().empty()) bad(path, node, key, "expected a non-empty string");
  return node.as<std::string>();
}

// A number given in YAML, passed on as its text after checking that it is one.
std::string number_text(const std::string& path, const YAML::Node& node, const char* key) {
  try {
    if (node.as<double>() < 0) bad(path, node, key, "must not be negative");
  } catch (const YAML::Exception&) {
    bad(path, node, key, "expected a number");
  }
  return node.as<std::string>();
}

// Appends `--flag value` for every optional key present in the map.
void optional_flags(const std::string& path, const YAML::Node& map, std::vector<std::string>& arguments,
                    std::initializer_list<std::pair<const char*, bool>> keys_and_numeric) {
  for (const auto& [key, numeric] : keys_and_numeric) {
    if (const YAML::Node node = map[key]) {
      arguments.push_back(std::string("--") + key);
      arguments.push_back(numeric ? number_text(path, node, key) : node.as<std::string>());
    }
  }
}

void read_diff_check(const std::string& path, const YAML::Node& map, AlignmentCheckSetting& check) {
  check_keys(path, map, {"reference", "candidate", "method", "threshold", "layout"});
  check.subcommand = "diff";
  check.arguments = {required_text(path, map, "reference"), required_text(path, map, "candidate")};
  if (const YAML::Node method = map["method"]) {
    static const std::regex methods("(mean|min|max|all)(,(mean|min|max|all))*");
    if (!std::regex_match(method.as<std::string>(), methods)) {
      bad(path, method, "method", "expected mean, min, max, all or a comma-separated list of them");
    }
  }
  optional_flags(path, map, check.arguments, {{"method", false}, {"threshold", true}, {"layout", false}});
}

void read_ground_truth_check(const std::string& path, const YAML::Node& map, AlignmentCheckSetting& check) {
  check_keys(path, map, {"results", "log", "atol", "rtol", "format", "compare"});
  check.subcommand = "compare-results";
  check.arguments = {"--gt", required_text(path, map, "results"), "--log", required_text(path, map, "log")};
  if (const YAML::Node format = map["format"]) {
    const std::string value = format.as<std::string>();
    if (value != "tipc" && value != "video" && value != "metric") bad(path, format, "format", "expected tipc, video or metric");
  }
  if (const YAML::Node compare = map["compare"]) {
    const std::string value = compare.as<std::string>();
    if (value != "allclose" && value != "labels") bad(path, compare, "compare", "expected allclose or labels");
    for (const char* tolerance : {"atol", "rtol"}) {
      if (value == "labels" && map[tolerance]) bad(path, map[tolerance], tolerance, "does not apply to compare: labels");
    }
  }
  optional_flags(path, map, check.arguments,
                 {{"atol", true}, {"rtol", true}, {"format", false}, {"compare", false}});
}

// `modes:` a list of MODE names the check applies to (absent: every mode).
std::vector<std::string> read_modes(const std::string& path, const YAML::Node& item) {
  static const std::regex mode_pattern("[A-Za-z0-9_]+");
  std::vector<std::string> modes;
  const YAML::Node node = item["modes"];
  if (!node) return modes;
  if (!node.IsSequence() || node.size() == 0) bad(path, node, "modes", "expected a non-empty list of MODE names");
  for (const auto& mode : node) {
    const std::string name = mode.IsScalar() ? mode.as<std::string>() : "";
    if (!std::regex_match(name, mode_pattern)) bad(path, mode, "modes", "expected a MODE name (letters, digits, '_')");
    modes.push_back(name);
  }
  return modes;
}

void read_init_check(const std::string& path, const YAML::Node& map, AlignmentCheckSetting& check) {
  check_keys(path, map, {"reference", "candidate", "keys", "threshold", "bins"});
  check.subcommand = "init-check";
  check.arguments = {required_text(path, map, "reference"), required_text(path, map, "candidate")};
  if (const YAML::Node keys = map["keys"]) {
    if (!keys.IsSequence()) bad(path, keys, "keys", "expected a list of keys");
    for (const auto& key : keys) {
      check.arguments.push_back("--key");
      check.arguments.push_back(key.as<std::string>());
    }
  }
  optional_flags(path, map, check.arguments, {{"threshold", true}, {"bins", true}});
}

void read_alignment(const std::string& path, const YAML::Node& node, ProjectSettings& s) {
  static const std::regex name_pattern("[A-Za-z0-9_.-]+");
  for (const auto& item : node) {
    if (!item.IsMap()) bad(path, item, "alignment", "a check is a map");
    check_keys(path, item, {"name", "after", "modes", "diff", "ground_truth", "init"});
    AlignmentCheckSetting check;
    check.name = required_text(path, item, "name");
    if (!std::regex_match(check.name, name_pattern)) bad(path, item["name"], "name", "use letters, digits, '_', '.' and '-'");
    for (const auto& other : s.alignment) {
      if (other.name == check.name) bad(path, item["name"], "name", fmt::format("'{}' is already used ({})", check.name, other.source));
    }
    check.after = required_text(path, item, "after");
    check.modes = read_modes(path, item);
    check.source = fmt::format("{}:{}", path, item.Mark().line + 1);
    const int kinds = !!item["diff"] + !!item["ground_truth"] + !!item["init"];
    if (kinds != 1) bad(path, item, check.name, "give exactly one of diff, ground_truth or init");
    const char* kind = item["diff"] ? "diff" : item["ground_truth"] ? "ground_truth" : "init";
    if (!item[kind].IsMap()) bad(path, item[kind], kind, "expected a map");
    if (item["diff"]) read_diff_check(path, item["diff"], check);
    if (item["ground_truth"]) read_ground_truth_check(path, item["ground_truth"], check);
    if (item["init"]) read_init_check(path, item["init"], check);
    s.alignment.push_back(std::move(check));
  }
}

void read_slurm(const std::string& path, const YAML::Node& node, SlurmSetting& slurm) {
  check_keys(path, node, {"partition", "account", "cpus_per_task", "srun_args"});
  if (node["partition"]) slurm.partition = required_text(path, node, "partition");
  if (node["account"]) slurm.account = required_text(path, node, "account");
  if (const YAML::Node cpus = node["cpus_per_task"]) {
    try {
      slurm.cpus_per_task = cpus.as<int>();
    } catch (const YAML::Exception&) {
      bad(path, cpus, "cpus_per_task", "expected a whole number");
    }
    if (*slurm.cpus_per_task < 1) bad(path, cpus, "cpus_per_task", "must be at least 1");
  }
  if (const YAML::Node args = node["srun_args"]) {
    if (!args.IsSequence()) bad(path, args, "srun_args", "expected a list of srun flags");
    for (const auto& arg : args) {
      const std::string flag = arg.as<std::string>("");
      if (!flag.starts_with("-")) bad(path, arg, "srun_args", fmt::format("'{}' is not an srun flag (-x or --name=value)", flag));
      slurm.srun_args.push_back(flag);
    }
  }
}

}  // namespace

std::vector<DataStepSetting> ProjectSettings::data_for(const std::string& mode) const {
  std::vector<DataStepSetting> steps;
  for (const char* key : {"all", mode.c_str()}) {
    if (const auto it = data.find(key); it != data.end()) steps.insert(steps.end(), it->second.begin(), it->second.end());
  }
  return steps;
}

Result<ProjectSettings> load_project_settings(const std::string& path) {
  ProjectSettings s;
  s.path = path;
  try {
    const YAML::Node root = YAML::LoadFile(path);
    if (root.IsNull()) return s;
    if (!root.IsMap()) throw Error::at(path, 1, "", "expected a map of settings");
    check_keys(path, root,
               {"timeouts", "log_checks", "data", "launcher", "dialect", "jobs", "cpu_train_processes", "alignment",
                "slurm"});
    expect_shape(path, root, "timeouts", YAML::NodeType::Map);
    expect_shape(path, root, "log_checks", YAML::NodeType::Sequence);
    expect_shape(path, root, "data", YAML::NodeType::Map);
    expect_shape(path, root, "alignment", YAML::NodeType::Sequence);
    expect_shape(path, root, "slurm", YAML::NodeType::Map);
    if (root["slurm"]) read_slurm(path, root["slurm"], s.slurm);
    if (root["timeouts"]) read_timeouts(path, root["timeouts"], s);
    if (root["log_checks"]) read_log_checks(path, root["log_checks"], s);
    if (root["data"]) read_data(path, root["data"], s);
    if (root["alignment"]) read_alignment(path, root["alignment"], s);
    if (root["launcher"]) s.launcher = root["launcher"].as<std::string>();
    if (root["dialect"]) {
      s.dialect = root["dialect"].as<std::string>();
      s.dialect_line = root["dialect"].Mark().line + 1;
    }
    if (root["jobs"]) {
      s.jobs = root["jobs"].as<int>();
      if (*s.jobs < 1) bad(path, root["jobs"], "jobs", "must be at least 1");
    }
    if (root["cpu_train_processes"]) {
      s.cpu_train_processes = root["cpu_train_processes"].as<int>();
      if (s.cpu_train_processes < 1) bad(path, root["cpu_train_processes"], "cpu_train_processes", "must be at least 1");
    }
    return s;
  } catch (const Error& e) {
    return fail(e);
  } catch (const YAML::BadFile&) {
    return fail(Error::at(path, 0, "", "cannot open the settings file: " + errno_text(errno)));
  } catch (const YAML::Exception& e) {
    return fail(Error::at(path, e.mark.line + 1, "", e.msg));
  }
}

}  // namespace tipc::config
