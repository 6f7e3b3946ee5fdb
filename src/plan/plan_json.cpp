#include "plan/plan_json.h"

namespace tipc::plan {

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
      {"command", stage.command},
  };
  if (stage.background) json["background"] = true;  // only then, so plans without services read as before
  return json;
}

}  // namespace tipc::plan
