#include "plan/plan_file_record.h"

#include <algorithm>
#include <cerrno>
#include <fstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/json_file.h"
#include "plan/plan_json.h"

namespace tipc::plan {
namespace {
using Json = nlohmann::ordered_json;
using JsonValue = nlohmann::json;  // read only

Json configs_in_other_modes_json(const std::vector<ConfigInOtherModes>& configs) {
  Json list = Json::array();
  for (const auto& c : configs) list.push_back({{"file", c.file}, {"chain", c.chain}, {"modes", c.modes}});
  return list;
}

Json invalid_configs_json(const std::vector<Diagnostic>& problems) {
  Json list = Json::array();
  for (const auto& p : problems)
    list.push_back({{"file", p.file}, {"line", p.line}, {"key", p.key}, {"message", p.message}});
  return list;
}

// A top-level field: `fallback` when absent or null (an older tipc-run's file), an error
// naming the file and the key when of another type.
template <class T>
Result<T> record_field(const JsonValue& json, const std::string& path, const char* key, T fallback) {
  const auto it = json.find(key);
  if (it == json.end() || it->is_null()) return fallback;
  try {
    if constexpr (std::is_same_v<T, std::optional<double>>) {
      return T(it->get<double>());
    } else {
      return it->get<T>();
    }
  } catch (const JsonValue::exception&) {
    return fail(Error::at(path, 0, key, fmt::format("field '{}' has the wrong type", key)));
  }
}

Result<std::vector<ConfigInOtherModes>> configs_in_other_modes_of(const JsonValue& json, const std::string& path) {
  std::vector<ConfigInOtherModes> configs;
  for (const JsonValue& item : TRY(record_field<JsonValue>(json, path, "configs_in_other_modes", JsonValue::array()))) {
    if (!item.is_object()) return fail(Error::at(path, 0, "configs_in_other_modes", "an entry that is not an object"));
    ConfigInOtherModes& config = configs.emplace_back();
    config.file = TRY(record_field<std::string>(item, path, "file", ""));
    config.chain = TRY(record_field<std::string>(item, path, "chain", ""));
    config.modes = TRY(record_field<std::vector<std::string>>(item, path, "modes", {}));
  }
  return configs;
}

Result<std::vector<Diagnostic>> invalid_configs_of(const JsonValue& json, const std::string& path) {
  std::vector<Diagnostic> problems;
  for (const JsonValue& item : TRY(record_field<JsonValue>(json, path, "invalid_configs", JsonValue::array()))) {
    if (!item.is_object()) return fail(Error::at(path, 0, "invalid_configs", "an entry that is not an object"));
    // Member by member: a TRY inside a braced initializer leaks the members built before it
    // when it returns early (GCC).
    Diagnostic problem;
    problem.file = TRY(record_field<std::string>(item, path, "file", ""));
    problem.line = TRY(record_field<int>(item, path, "line", 0));
    problem.key = TRY(record_field<std::string>(item, path, "key", ""));
    problem.message = TRY(record_field<std::string>(item, path, "message", ""));
    problems.push_back(std::move(problem));
  }
  return problems;
}

Result<JsonValue> parse_plan_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) return fail(Error::at(path, 0, "", "cannot read the plan file: " + errno_text(errno)));
  JsonValue json = JsonValue::parse(in, nullptr, false);
  if (json.is_discarded() || !json.is_object() || !json.contains("stages") || !json["stages"].is_array()) {
    return fail(Error::at(path, 0, "", "not a tipc-run plan file"));
  }
  if (const int schema = TRY(record_field<int>(json, path, "schema", 0)); schema > kPlanFileVersion) {
    return fail(Error::at(path, 0, "schema", fmt::format("written by a newer tipc-run (schema {})", schema)));
  }
  return json;
}

// Everything but the stages.
Result<void> read_head(const JsonValue& json, const std::string& path, PlanFileRecord& record) {
  record.version = TRY(record_field<int>(json, path, "schema", 0));
  record.tool_version = TRY(record_field<std::string>(json, path, "tool_version", ""));
  record.run_id = TRY(record_field<std::string>(json, path, "run_id", ""));
  record.started = TRY(record_field<std::optional<double>>(json, path, "started", std::nullopt));
  record.config = TRY(record_field<std::string>(json, path, "config", ""));
  record.config_file = TRY(record_field<std::string>(json, path, "config_file", ""));
  record.settings_file = TRY(record_field<std::string>(json, path, "settings_file", ""));
  record.mode = TRY(record_field<std::string>(json, path, "mode", ""));
  record.model = TRY(record_field<std::string>(json, path, "model", ""));
  record.dialect = TRY(record_field<std::string>(json, path, "dialect", ""));
  record.dialect_source = TRY(record_field<std::string>(json, path, "dialect_source", ""));
  record.invalid_configs = TRY(invalid_configs_of(json, path));
  record.excluded_configs = TRY(record_field<std::vector<std::string>>(json, path, "excluded_configs", {}));
  record.configs_in_other_modes = TRY(configs_in_other_modes_of(json, path));
  record.compat = TRY(record_field<bool>(json, path, "compat", false));
  record.repo_root = TRY(record_field<std::string>(json, path, "repo_root", ""));
  record.output_dir = TRY(record_field<std::string>(json, path, "output_dir", ""));
  if (json.contains("selected") && !json["selected"].is_null()) {
    record.selected = TRY(record_field<std::vector<std::string>>(json, path, "selected", {}));
  }
  return {};
}

}  // namespace

bool PlanFileRecord::selects(const std::string& stage_id) const {
  return !selected || std::find(selected->begin(), selected->end(), stage_id) != selected->end();
}

std::string plan_file_text(const PlanFileRecord& record) {
  const Json head = {{"schema", record.version},
                     {"tool_version", record.tool_version},
                     {"run_id", record.run_id},
                     {"started", record.started ? Json(*record.started) : Json(nullptr)},
                     {"config", record.config},
                     {"config_file", record.config_file},
                     {"settings_file", record.settings_file.empty() ? Json(nullptr) : Json(record.settings_file)},
                     {"mode", record.mode},
                     {"model", record.model},
                     {"dialect", record.dialect},
                     {"dialect_source", record.dialect_source},
                     {"invalid_configs", invalid_configs_json(record.invalid_configs)},
                     {"excluded_configs", record.excluded_configs},
                     {"configs_in_other_modes", configs_in_other_modes_json(record.configs_in_other_modes)},
                     {"compat", record.compat},
                     {"repo_root", record.repo_root},
                     {"output_dir", record.output_dir},
                     {"selected", record.selected ? Json(*record.selected) : Json(nullptr)},
                     {"stages", Json::array()}};
  std::string text;
  append_streamed(text, head, 0, record.stages.size(), [&](std::string& out, std::size_t i, int depth) {
    Json json = stage_json(record.stages[i].stage);
    json["fingerprint"] = record.stages[i].fingerprint;
    append_nested(out, json, depth);
  });
  text += '\n';
  return text;
}

// Each stage's JSON tree is freed once its record is made: the trees of a 1000-stage plan
// take about 3 MB.
Result<PlanFileRecord> read_plan_file(const std::string& path) {
  JsonValue json = TRY(parse_plan_file(path));
  PlanFileRecord record;
  TRY(read_head(json, path, record));
  for (JsonValue& stage : json["stages"]) {
    Stage read = TRY(stage_from_json(stage, path));
    const auto fingerprint = stage.find("fingerprint");
    if (fingerprint != stage.end() && !fingerprint->is_null() && !fingerprint->is_string()) {
      return fail(
          Error::at(path, 0, "fingerprint", fmt::format("stage {}: field 'fingerprint': not a string", read.id)));
    }
    std::string hash = fingerprint == stage.end() || fingerprint->is_null() ? "" : fingerprint->get<std::string>();
    record.stages.push_back({std::move(read), std::move(hash)});
    stage = nullptr;
  }
  return record;
}

}  // namespace tipc::plan
