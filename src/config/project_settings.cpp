#include "config/project_settings.h"

#include <regex>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

namespace tipc::config {
namespace {

const char* const kKinds[] = {"train", "eval", "export", "infer"};

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
    if (key != "grace" && !is_kind(key)) bad(path, item.first, key, "expected train, eval, export, infer or grace");
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
      if (!is_kind(kind.as<std::string>())) bad(path, kind, "kinds", "expected train, eval, export or infer");
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
    check_keys(path, root, {"timeouts", "log_checks", "data", "launcher", "dialect", "jobs", "cpu_train_processes"});
    expect_shape(path, root, "timeouts", YAML::NodeType::Map);
    expect_shape(path, root, "log_checks", YAML::NodeType::Sequence);
    expect_shape(path, root, "data", YAML::NodeType::Map);
    if (root["timeouts"]) read_timeouts(path, root["timeouts"], s);
    if (root["log_checks"]) read_log_checks(path, root["log_checks"], s);
    if (root["data"]) read_data(path, root["data"], s);
    if (root["launcher"]) s.launcher = root["launcher"].as<std::string>();
    if (root["dialect"]) s.dialect = root["dialect"].as<std::string>();
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
    return fail(Error::at(path, 0, "", "cannot open the settings file"));
  } catch (const YAML::Exception& e) {
    return fail(Error::at(path, e.mark.line + 1, "", e.msg));
  }
}

}  // namespace tipc::config
