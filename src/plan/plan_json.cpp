#include "plan/plan_json.h"

#include <fmt/format.h>

#include "core/json_field_reader.h"

namespace tipc::plan {
namespace {
using Json = nlohmann::ordered_json;
using JsonValue = nlohmann::json;

Json service_json(const Service& service) {
  return {{"port", service.port ? Json(*service.port) : nullptr},
          {"ready_pattern", service.ready_pattern},
          {"ready_timeout", service.ready_timeout}};
}

// A stage's fields: errors name the plan file, the stage and the field.
JsonFieldReader stage_fields(const JsonValue& json, const std::string& file, const std::string& id) {
  return JsonFieldReader(json, file, fmt::format("stage {}: ", id));
}

Result<StageKind> kind_field(const JsonFieldReader& fields) {
  const std::string word = TRY(fields.required<std::string>("kind"));
  const auto kind = stage_kind_from_string(word);
  if (!kind) return fail(fields.error("kind", fmt::format("unknown stage kind '{}'", word)));
  return *kind;
}

Result<std::map<std::string, std::optional<std::string>>> env_field(const JsonValue& json,
                                                                    const JsonFieldReader& fields) {
  const auto env = json.find("env");
  if (env == json.end() || !env->is_object()) return fail(fields.error("env", "not an object"));
  std::map<std::string, std::optional<std::string>> variables;
  for (const auto& [name, value] : env->items()) {
    if (!value.is_null() && !value.is_string()) return fail(fields.error("env." + name, "not a string or null"));
    variables[name] = value.is_null() ? std::nullopt : std::optional<std::string>(value.get<std::string>());
  }
  return variables;
}

Result<std::optional<Service>> service_field(const JsonFieldReader& stage) {
  const auto fields = TRY(stage.object("service"));
  if (!fields) return std::optional<Service>();
  Service service;
  service.port = TRY(fields->optional<std::optional<int>>("port", std::nullopt));
  service.ready_pattern = TRY(fields->optional<std::string>("ready_pattern", ""));
  service.ready_timeout = TRY(fields->optional<double>("ready_timeout", service.ready_timeout));
  return std::optional<Service>(std::move(service));
}

Result<std::optional<CheckSpec>> check_field(const JsonFieldReader& stage) {
  const auto fields = TRY(stage.object("check"));
  if (!fields) return std::optional<CheckSpec>();
  const std::string word = TRY(fields->required<std::string>("kind"));
  const auto kind = check_kind_from_string(word);
  if (!kind) return fail(fields->error("kind", fmt::format("'{}' is not diff, compare-results or init-check", word)));
  return std::optional<CheckSpec>(CheckSpec{*kind, TRY(fields->required<std::string>("result_file"))});
}

Result<std::optional<TrainSetting>> train_setting_field(const JsonFieldReader& stage) {
  const auto fields = TRY(stage.object("train_setting"));
  if (!fields) return std::optional<TrainSetting>();
  TrainSetting setting;  // member by member: no TRY inside a braced initializer
  setting.batch_size = TRY(fields->optional<std::string>("batch_size", ""));
  setting.autocast = TRY(fields->optional<std::string>("autocast", ""));
  return std::optional<TrainSetting>(std::move(setting));
}

Result<Needs> needs_field(const JsonFieldReader& stage) {
  const auto fields = TRY(stage.object("needs"));
  if (!fields) return fail(stage.error("needs", "missing"));
  return Needs{TRY(fields->required<int>("gpus")), TRY(fields->optional<int>("nodes", 1))};
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
  if (!stage.after.empty()) json["after"] = stage.after;
  if (!stage.cwd_made_by.empty()) json["cwd_made_by"] = stage.cwd_made_by;
  if (stage.check) json["check"] = {{"kind", to_string(stage.check->kind)}, {"result_file", stage.check->result_file}};
  if (stage.train_setting) {
    json["train_setting"] = {{"batch_size", stage.train_setting->batch_size},
                             {"autocast", stage.train_setting->autocast}};
  }
  return json;
}

Result<Stage> stage_from_json(const JsonValue& json, const std::string& file) {
  if (!json.is_object()) return fail(Error::at(file, 0, "stages", "a stage that is not an object"));
  Stage stage;
  stage.id = TRY(stage_fields(json, file, "?").required<std::string>("id"));
  const JsonFieldReader fields = stage_fields(json, file, stage.id);
  stage.kind = TRY(kind_field(fields));
  stage.argv = TRY(fields.required<std::vector<std::string>>("argv"));
  stage.cwd = TRY(fields.required<std::string>("cwd"));
  stage.env = TRY(env_field(json, fields));
  stage.log = TRY(fields.required<std::string>("log"));
  stage.deps = TRY(fields.required<std::vector<std::string>>("deps"));
  stage.after = TRY(fields.optional<std::vector<std::string>>("after", {}));
  stage.needs = TRY(needs_field(fields));
  stage.benchmark = TRY(fields.optional<bool>("benchmark", false));
  stage.launcher = TRY(fields.optional<std::string>("launcher", ""));
  stage.processes = TRY(fields.optional<int>("processes", 1));
  stage.results_log.command = TRY(fields.optional<std::string>("command", ""));
  stage.service = TRY(service_field(fields));
  stage.unsupported = TRY(fields.optional<std::optional<std::string>>("unsupported", std::nullopt));
  stage.cwd_made_by = TRY(fields.optional<std::string>("cwd_made_by", ""));
  stage.check = TRY(check_field(fields));
  stage.train_setting = TRY(train_setting_field(fields));
  return stage;
}

}  // namespace tipc::plan
