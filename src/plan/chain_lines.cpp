#include "plan/chain_lines.h"

#include <fnmatch.h>

#include <algorithm>

#include <fmt/format.h>

#include "core/locations.h"
#include "core/text.h"
#include "plan/shell_words.h"

namespace tipc::plan {

bool is_null(std::string_view value) { return value.empty() || value == "null"; }

std::string set_param(std::string_view key, std::string_view value) {
  if (key == "null" || is_null(value) || value == " ") return " ";
  return fmt::format("{}={}", key, value);
}

Error ChainLines::error_at(int line, const std::string& message) const {
  const config::Field& field = config_.at(line);
  return Error::at(config_.path, field.physical_line, field.key, message);
}

Result<void> ChainLines::check_key(int line, const std::vector<std::string>& keys) const {
  const config::Field& field = config_.at(line);
  const std::string key(trim(field.key));
  const bool matches = std::any_of(keys.begin(), keys.end(),
                                   [&](const std::string& glob) { return fnmatch(glob.c_str(), key.c_str(), 0) == 0; });
  if (matches) return {};
  const std::string found = field.physical_line == 0 ? "the file ends before it" : fmt::format("key '{}'", key);
  return fail(error_at(
      line, fmt::format("the runner reads logical line {} as '{}', found {}", line, fmt::join(keys, "' or '"), found)));
}

Result<std::string> ChainLines::value(int line, const std::vector<std::string>& keys) const {
  TRY(check_key(line, keys));
  return std::string(trim(config_.at(line).value));
}

Result<std::string> ChainLines::key(int line, const std::vector<std::string>& keys) const {
  TRY(check_key(line, keys));
  return std::string(trim(config_.at(line).key));
}

Result<std::string> ChainLines::required_value(int line, const std::vector<std::string>& keys) const {
  std::string text = TRY(value(line, keys));
  if (is_null(text)) return fail(error_at(line, "a program to run is required here (it is empty or null)"));
  return text;
}

Result<std::string> ChainLines::script(int line, StageKind kind) const {
  const std::vector<std::string> keys = dialect::script_keys_of(chain_, kind);
  if (keys.empty()) {
    return fail(error_at(line, fmt::format("the chain {} ({}:{}) names no {} key in its script_keys", chain_.name,
                                           chain_.file, chain_.line, to_string(kind))));
  }
  return value(line, keys);
}

Result<std::string> ChainLines::required_script(int line, StageKind kind) const {
  std::string text = TRY(script(line, kind));
  if (is_null(text)) return fail(error_at(line, "a program to run is required here (it is empty or null)"));
  return text;
}

Result<ChainStart> start_chain_plan(const ChainLines& lines, const PlanOptions& options) {
  const dialect::Chain& chain = lines.chain();
  if (chain.modes.empty() || chain.status_logs.empty()) {
    return fail(
        Error::at(chain.file, chain.line, chain.name, "a natively planned chain needs its modes and status_logs"));
  }
  const std::string& mode = chain.modes.front();
  ChainStart start;
  Plan& plan = start.plan;
  plan.model_name = TRY(lines.value(2, {"model_name"}));
  const std::string python = TRY(lines.required_value(3, {"python"}));
  start.python = options.python.value_or(python);
  if (options.mode != mode) {
    return fail(
        Error::plain(fmt::format("MODE '{}': the {} chain's runner runs '{}' only", options.mode, chain.name, mode)));
  }
  plan.dialect = chain.name;
  plan.mode = options.mode;
  plan.compat = options.rules->reproduces_reference();
  plan.run_dir = options.run_dir;
  plan.output_dir = fmt::format("{}/{}/{}", kOutputTree, plan.model_name, mode);
  plan.results_log = plan.output_dir + "/" + chain.status_logs.front();
  // common_func.sh's status_check of these runners: the model name, then the command.
  plan.status_line = "\x1b[33m {status_word} with command - {model_name} - {command}!  \x1b[0m";
  return start;
}

Result<Stage> stage_from_command(std::string id, StageKind kind, const std::string& command, std::string cwd,
                                 std::string log) {
  Stage stage;
  stage.id = std::move(id);
  stage.kind = kind;
  stage.argv = TRY(split_shell_words(command, ShellSplitOptions{})).words;
  stage.cwd = std::move(cwd);
  stage.log = std::move(log);
  stage.results_log.command = command;
  stage.results_log.shell_text = command;
  return stage;
}

}  // namespace tipc::plan
