#include "plan/plan_json.h"

#include <fmt/format.h>

namespace tipc::plan {
namespace {
using Json = nlohmann::ordered_json;
using JsonValue = nlohmann::json;

Json service_json(const Service& service) {
  return {{"port", service.port ? Json(*service.port) : nullptr},
          {"ready_pattern", service.ready_pattern},
          {"ready_timeout", service.ready_timeout}};
}

template <class T>
inline constexpr bool is_optional = false;
template <class T>
inline constexpr bool is_optional<std::optional<T>> = true;

// Reads the fields of one stage's JSON object (or of an object inside it, `prefix`), with
// errors that name the plan file, the stage and the field.
class StageFields {
 public:
  StageFields(const JsonValue& object, const std::string& file, std::string stage_id, std::string prefix = "")
      : object_(object), file_(file), stage_id_(std::move(stage_id)), prefix_(std::move(prefix)) {}

  // A field that must be there.
  template <class T>
  Result<T> required(const char* key) const {
    const auto it = object_.find(key);
    if (it == object_.end() || it->is_null()) return fail(error(key, "missing"));
    return convert<T>(*it, key);
  }
  // A field that may be absent or null: `fallback` then.
  template <class T>
  Result<T> optional(const char* key, T fallback) const {
    const auto it = object_.find(key);
    if (it == object_.end() || it->is_null()) return fallback;
    return convert<T>(*it, key);
  }
  Error error(const std::string& key, const std::string& what) const {
    return Error::at(file_, 0, prefix_ + key, fmt::format("stage {}: field '{}{}': {}", stage_id_, prefix_, key, what));
  }

 private:
  template <class T>
  Result<T> convert(const JsonValue& value, const char* key) const {
    try {
      if constexpr (is_optional<T>) {
        return T(value.get<typename T::value_type>());
      } else {
        return value.get<T>();
      }
    } catch (const JsonValue::exception&) {
      return fail(error(key, fmt::format("not {}", expected<T>())));
    }
  }
  template <class T>
  static const char* expected() {
    if constexpr (std::is_same_v<T, std::string> || std::is_same_v<T, std::optional<std::string>>) return "a string";
    if constexpr (std::is_same_v<T, std::vector<std::string>>) return "a list of strings";
    if constexpr (std::is_same_v<T, bool>) return "true or false";
    if constexpr (std::is_arithmetic_v<T> || std::is_same_v<T, std::optional<int>>) return "a number";
    return "of the expected type";
  }

  const JsonValue& object_;
  const std::string& file_;
  std::string stage_id_;
  std::string prefix_;
};

Result<StageKind> kind_field(const StageFields& fields) {
  const std::string word = TRY(fields.required<std::string>("kind"));
  const auto kind = stage_kind_from_string(word);
  if (!kind) return fail(fields.error("kind", fmt::format("unknown stage kind '{}'", word)));
  return *kind;
}

Result<std::map<std::string, std::optional<std::string>>> env_field(const JsonValue& json, const StageFields& fields) {
  const auto env = json.find("env");
  if (env == json.end() || !env->is_object()) return fail(fields.error("env", "not an object"));
  std::map<std::string, std::optional<std::string>> variables;
  for (const auto& [name, value] : env->items()) {
    if (!value.is_null() && !value.is_string()) return fail(fields.error("env." + name, "not a string or null"));
    variables[name] = value.is_null() ? std::nullopt : std::optional<std::string>(value.get<std::string>());
  }
  return variables;
}

// An object field: nullptr when absent or null, an error when not an object.
Result<const JsonValue*> object_field(const JsonValue& json, const char* key, const StageFields& fields) {
  const auto it = json.find(key);
  if (it == json.end() || it->is_null()) return nullptr;
  if (!it->is_object()) return fail(fields.error(key, "not an object"));
  return &*it;
}

Result<std::optional<Service>> service_field(const JsonValue& json, const std::string& file, const std::string& id) {
  const JsonValue* object = TRY(object_field(json, "service", StageFields(json, file, id)));
  if (!object) return std::optional<Service>();
  const StageFields fields(*object, file, id, "service.");
  Service service;
  service.port = TRY(fields.optional<std::optional<int>>("port", std::nullopt));
  service.ready_pattern = TRY(fields.optional<std::string>("ready_pattern", ""));
  service.ready_timeout = TRY(fields.optional<double>("ready_timeout", service.ready_timeout));
  return std::optional<Service>(std::move(service));
}

Result<std::optional<CheckSpec>> check_field(const JsonValue& json, const std::string& file, const std::string& id) {
  const JsonValue* object = TRY(object_field(json, "check", StageFields(json, file, id)));
  if (!object) return std::optional<CheckSpec>();
  const StageFields fields(*object, file, id, "check.");
  const std::string word = TRY(fields.required<std::string>("kind"));
  const auto kind = check_kind_from_string(word);
  if (!kind) return fail(fields.error("kind", fmt::format("'{}' is not diff, compare-results or init-check", word)));
  return std::optional<CheckSpec>(CheckSpec{*kind, TRY(fields.required<std::string>("result_file"))});
}

Result<std::optional<TrainSetting>> train_setting_field(const JsonValue& json, const std::string& file,
                                                        const std::string& id) {
  const JsonValue* object = TRY(object_field(json, "train_setting", StageFields(json, file, id)));
  if (!object) return std::optional<TrainSetting>();
  const StageFields fields(*object, file, id, "train_setting.");
  return std::optional<TrainSetting>(
      TrainSetting{TRY(fields.optional<std::string>("batch_size", "")), TRY(fields.optional<std::string>("autocast", ""))});
}

Result<Needs> needs_field(const JsonValue& json, const std::string& file, const std::string& id) {
  const JsonValue* object = TRY(object_field(json, "needs", StageFields(json, file, id)));
  if (!object) return fail(StageFields(json, file, id).error("needs", "missing"));
  const StageFields fields(*object, file, id, "needs.");
  return Needs{TRY(fields.required<int>("gpus")), TRY(fields.optional<int>("nodes", 1))};
}

}  // namespace

Json stage_json(const Stage& stage) {
  Json env = Json::object();
  for (const auto& [name, value] : stage.env) env[name] = value ? Json(*value) : nullptr;
  Json json = {
      {"id", stage.id},
      {"kind", to_string(stage.kind)},
      {"argv", stage.argv},
      {"cwd", stage.cwd},
      {"env", env},
      {"log", stage.log},
      {"deps", stage.deps},
      {"needs", {{"gpus", stage.needs.gpus}, {"nodes", stage.needs.nodes}}},
      {"benchmark", stage.benchmark},
      {"launcher", stage.launcher},
      {"processes", stage.processes},
      {"command", stage.results_log.command},
  };
  if (stage.service) json["service"] = service_json(*stage.service);
  if (stage.unsupported) json["unsupported"] = *stage.unsupported;
  if (!stage.cwd_made_by.empty()) json["cwd_made_by"] = stage.cwd_made_by;
  if (stage.check) json["check"] = {{"kind", to_string(stage.check->kind)}, {"result_file", stage.check->result_file}};
  if (stage.train_setting) {
    json["train_setting"] = {{"batch_size", stage.train_setting->batch_size}, {"autocast", stage.train_setting->autocast}};
  }
  return json;
}

Result<Stage> stage_from_json(const JsonValue& json, const std::string& file) {
  if (!json.is_object()) return fail(Error::at(file, 0, "stages", "a stage that is not an object"));
  Stage stage;
  stage.id = TRY(StageFields(json, file, "?").required<std::string>("id"));
  const StageFields fields(json, file, stage.id);
  stage.kind = TRY(kind_field(fields));
  stage.argv = TRY(fields.required<std::vector<std::string>>("argv"));
  stage.cwd = TRY(fields.required<std::string>("cwd"));
  stage.env = TRY(env_field(json, fields));
  stage.log = TRY(fields.required<std::string>("log"));
  stage.deps = TRY(fields.required<std::vector<std::string>>("deps"));
  stage.needs = TRY(needs_field(json, file, stage.id));
  stage.benchmark = TRY(fields.optional<bool>("benchmark", false));
  stage.launcher = TRY(fields.optional<std::string>("launcher", ""));
  stage.processes = TRY(fields.optional<int>("processes", 1));
  stage.results_log.command = TRY(fields.optional<std::string>("command", ""));
  stage.service = TRY(service_field(json, file, stage.id));
  stage.unsupported = TRY(fields.optional<std::optional<std::string>>("unsupported", std::nullopt));
  stage.cwd_made_by = TRY(fields.optional<std::string>("cwd_made_by", ""));
  stage.check = TRY(check_field(json, file, stage.id));
  stage.train_setting = TRY(train_setting_field(json, file, stage.id));
  return stage;
}

}  // namespace tipc::plan
