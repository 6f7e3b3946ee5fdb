#include "plan/serving_chain_planner.h"

#include <charconv>

#include <fmt/format.h>

#include "core/split_list.h"
#include "plan/chain_lines.h"

namespace tipc::plan {
namespace {

// Logical lines of a serving_params config (the runners' lines[L-1]).
enum ServingLine {
  kServingTransModel = 4,
  kServingDirname,
  kServingModelFilename,
  kServingParamsFilename,
  kServingServer,
  kServingClient,
  kServingDir,
  kServingWebService,
  kServingDevices,
  kServingPipeline,
  kServingImageDir,
};

// The conversion as the runner builds it; nullopt when trans_model is null.
Result<std::optional<Stage>> serving_convert_stage(const ChainLines& lines, const ChainStart& start) {
  const std::string script = TRY(lines.script(kServingTransModel, StageKind::kConvert));
  if (is_null(script)) return std::optional<Stage>{};
  const std::string log = fmt::format("{}/python_trans_model_{}.log", start.plan.output_dir, start.plan.model_name);
  std::string command = start.python + " " + script;
  const std::pair<ServingLine, const char*> flags[] = {{kServingDirname, "--dirname"},
                                                       {kServingModelFilename, "--model_filename"},
                                                       {kServingParamsFilename, "--params_filename"},
                                                       {kServingServer, "--serving_server"},
                                                       {kServingClient, "--serving_client"}};
  for (const auto& [line, key] : flags) command += " " + set_param(key, TRY(lines.value(line, {key})));
  return std::optional<Stage>{TRY(stage_from_command("convert/trans_model", StageKind::kConvert,
                                                     fmt::format("{} > {} 2>&1 ", command, log), ".", log))};
}

// The port the server's arguments name (`--port=N`, `--port N`); nullopt when none.
Result<std::optional<int>> port_in(const ChainLines& lines, const std::vector<std::string>& argv) {
  for (std::size_t i = 0; i < argv.size(); ++i) {
    std::string text;
    if (argv[i].rfind("--port=", 0) == 0)
      text = argv[i].substr(7);
    else if (argv[i] == "--port" && i + 1 < argv.size())
      text = argv[i + 1];
    else
      continue;
    int port = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), port);
    if (error != std::errc{} || end != text.data() + text.size() || port < 1 || port > 65535) {
      return fail(
          lines.error_at(kServingWebService, fmt::format("--port '{}': expected a port number (1-65535)", text)));
    }
    return std::optional<int>{port};
  }
  return std::optional<int>{};
}

// The server and its client for one device value: null runs on the CPU, else the GPU ids.
Result<std::pair<Stage, Stage>> server_and_client(const ChainLines& lines, const ChainStart& start,
                                                  const std::string& device) {
  const bool gpu = !is_null(device);
  const std::string where = gpu ? "gpu" : "cpu";
  const std::string dir = TRY(lines.required_value(kServingDir, {"serving_dir"}));
  const std::string server_log = fmt::format("{}/python_server_{}.log", start.plan.output_dir, where);
  const std::string client_log = fmt::format("{}/python_client_{}{}", start.plan.output_dir, where, kInferLogSuffix);
  const std::string device_key = TRY(lines.key(kServingDevices, {"?*"}));
  const std::string server_command = fmt::format("{} {} {}={} > {} 2>&1 ", start.python,
                                                 TRY(lines.required_script(kServingWebService, StageKind::kService)),
                                                 device_key, gpu ? device : "''", server_log);
  Stage server =
      TRY(stage_from_command("service/python_server_" + where, StageKind::kService, server_command, dir, server_log));
  server.needs.gpus = gpu ? static_cast<int>(split_list(device, ',').size()) : 0;
  server.service = Service{TRY(port_in(lines, server.argv)), "", Service{}.ready_timeout};
  const std::string client_command = fmt::format(
      "{} {} {} > {} 2>&1 ", start.python, TRY(lines.required_script(kServingPipeline, StageKind::kInfer)),
      set_param(TRY(lines.key(kServingImageDir, {"?*"})), TRY(lines.value(kServingImageDir, {"?*"}))), client_log);
  Stage client =
      TRY(stage_from_command("infer/python_client_" + where, StageKind::kInfer, client_command, dir, client_log));
  client.deps = {server.id};
  return std::pair{std::move(server), std::move(client)};
}

}  // namespace

Result<Plan> plan_serving(const config::TrainInferConfig& config, const dialect::Chain& chain,
                          const PlanOptions& options) {
  const ChainLines lines(config, chain);
  ChainStart start = TRY(start_chain_plan(lines, options));
  Plan& plan = start.plan;
  std::optional<std::string> convert_id;
  if (auto convert = TRY(serving_convert_stage(lines, start))) {
    convert_id = convert->id;
    plan.stages.push_back(std::move(*convert));
  }
  for (const std::string& device : split_list(TRY(lines.value(kServingDevices, {"?*"})))) {
    auto [server, client] = TRY(server_and_client(lines, start, device));
    for (const Stage& other : plan.stages) {
      if (other.id == server.id)
        return fail(lines.error_at(kServingDevices, "two values start the same server: " + server.id));
    }
    if (convert_id) server.deps = {*convert_id};
    plan.stages.push_back(std::move(server));
    plan.stages.push_back(std::move(client));
  }
  return std::move(plan);
}

}  // namespace tipc::plan
