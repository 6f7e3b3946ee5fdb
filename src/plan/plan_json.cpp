#include "plan/plan_json.h"

#include <fmt/format.h>

namespace tipc::plan {

nlohmann::ordered_json service_json(const Service& service) {
  return {{"port", service.port ? nlohmann::ordered_json(*service.port) : nullptr},
          {"ready_pattern", service.ready_pattern},
          {"ready_timeout", service.ready_timeout}};
}

nlohmann::ordered_json stage_json(const Stage& stage) {
  nlohmann::ordered_json env = nlohmann::ordered_json::object();
  for (const auto& [name, value] : stage.env) env[name] = value ? nlohmann::ordered_json(*value) : nullptr;
  nlohmann::ordered_json json = {
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
  return json;
}

Result<std::optional<CheckSpec>> check_spec_from_json(const nlohmann::json& stage, const std::string& file) {
  const auto check = stage.find("check");
  if (check == stage.end() || check->is_null()) return std::optional<CheckSpec>();
  const std::string id = stage.value("id", "?");
  const auto field = [&](const char* name) -> Result<std::string> {
    const auto value = check->find(name);  // end() for a check that is no object
    if (value == check->end() || !value->is_string()) {
      return fail(Error::at(file, 0, fmt::format("check.{}", name),
                            fmt::format("stage {}: field 'check.{}': expected a string", id, name)));
    }
    return value->get<std::string>();
  };
  const std::string kind_name = TRY(field("kind"));
  const auto kind = check_kind_from_string(kind_name);
  if (!kind) {
    return fail(Error::at(file, 0, "check.kind",
                          fmt::format("stage {}: field 'check.kind': '{}' is not diff, compare-results or init-check",
                                      id, kind_name)));
  }
  return std::optional<CheckSpec>(CheckSpec{*kind, TRY(field("result_file"))});
}

}  // namespace tipc::plan
