#include "cli/trace_environment.h"

#include <cstdlib>

#include <fmt/format.h>

namespace tipc::cli {

Result<trace::PassedEnvironment> trace_environment(const config::ProjectSettings& settings,
                                                   const std::vector<std::string>& trace_env_words) {
  trace::PassedEnvironment passed;
  std::vector<Diagnostic> problems;
  for (const auto& variable : settings.trace_env) {
    if (const auto why = trace::passed_variable_refusal(variable.name)) {
      problems.push_back({settings.path, variable.line, "trace_env",
                          fmt::format("{} cannot be passed into the trace: {}", variable.name, *why)});
    }
    passed[variable.name] = variable.value;
  }
  for (const auto& word : trace_env_words) {
    const auto equals = word.find('=');
    const std::string name = word.substr(0, equals);
    if (const auto why = trace::passed_variable_refusal(name)) {
      problems.push_back(
          {"", 0, "", fmt::format("--trace-env {}: {} cannot be passed into the trace: {}", word, name, *why)});
      continue;
    }
    if (equals != std::string::npos) {
      passed[name] = word.substr(equals + 1);
    } else if (const char* value = std::getenv(name.c_str())) {
      passed[name] = value;
    } else {
      problems.push_back(
          {"", 0, "", fmt::format("--trace-env {}: {} is not set here; give --trace-env {}=VALUE", word, name, name)});
    }
  }
  if (!problems.empty()) return fail(Error{std::move(problems)});
  return passed;
}

}  // namespace tipc::cli
