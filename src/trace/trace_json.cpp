#include "trace/trace_json.h"

namespace tipc::trace {
namespace {
using nlohmann::json;
using nlohmann::ordered_json;

ordered_json call_to_json(const TracedCall& call) {
  ordered_json env = ordered_json::object();
  for (const auto& [name, value] : call.env) env[name] = value ? ordered_json(*value) : ordered_json(nullptr);
  return {{"program", call.program},
          {"args", call.args},
          {"cwd", call.cwd},
          {"env", env},
          {"stdout_path", call.stdout_path},
          {"stderr_path", call.stderr_path},
          {"stdin_from_pipe", call.stdin_from_pipe},
          {"eval_index", call.eval_index == kNoEval ? ordered_json(nullptr) : ordered_json(call.eval_index)}};
}

TracedCall call_from_json(const json& j) {
  TracedCall call;
  call.program = j.at("program");
  call.args = j.at("args").get<std::vector<std::string>>();
  call.cwd = j.at("cwd");
  call.stdout_path = j.at("stdout_path");
  call.stderr_path = j.at("stderr_path");
  call.stdin_from_pipe = j.at("stdin_from_pipe");
  for (const auto& [name, value] : j.at("env").items()) {
    call.env[name] = value.is_null() ? std::nullopt : std::optional<std::string>(value.get<std::string>());
  }
  if (!j.at("eval_index").is_null()) call.eval_index = j.at("eval_index");
  return call;
}

}  // namespace

ordered_json trace_to_json(const Trace& trace) {
  ordered_json calls = ordered_json::array(), logs = ordered_json::array();
  for (const auto& call : trace.calls) calls.push_back(call_to_json(call));
  for (const auto& log : trace.status_logs) logs.push_back({{"path", log.path}, {"text", log.text}});
  ordered_json housekeeping = ordered_json::array();
  for (const auto& step : trace.housekeeping) {
    housekeeping.push_back({{"call", call_to_json(step.call)}, {"before_call", step.before_call}});
  }
  return {{"runner", trace.runner},
          {"run_dir", trace.run_dir},
          {"config_arg", trace.config_arg},
          {"mode", trace.mode},
          {"extra_args", trace.extra_args},
          {"evals", trace.evals},
          {"calls", calls},
          {"housekeeping", housekeeping},
          {"status_logs", logs},
          {"exit_code", trace.exit_code},
          {"stderr_text", trace.stderr_text},
          {"warnings", trace.warnings}};
}

Result<Trace> trace_from_json(const json& j) {
  try {
    Trace trace;
    trace.runner = j.at("runner");
    trace.run_dir = j.at("run_dir");
    trace.config_arg = j.at("config_arg");
    trace.mode = j.at("mode");
    trace.extra_args = j.at("extra_args").get<std::vector<std::string>>();
    trace.evals = j.at("evals").get<std::vector<std::string>>();
    for (const auto& call : j.at("calls")) trace.calls.push_back(call_from_json(call));
    for (const auto& step : j.at("housekeeping")) {
      trace.housekeeping.push_back({call_from_json(step.at("call")), step.at("before_call").get<std::size_t>()});
    }
    for (const auto& log : j.at("status_logs")) trace.status_logs.push_back({log.at("path"), log.at("text")});
    trace.exit_code = j.at("exit_code");
    trace.stderr_text = j.at("stderr_text");
    trace.warnings = j.at("warnings").get<std::vector<std::string>>();
    return trace;
  } catch (const json::exception& e) {  // not past this edge: a damaged file is an Error
    return fail(Error::plain(std::string("not a trace: ") + e.what()));
  }
}

}  // namespace tipc::trace
