#include "report/environment.h"

#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "core/json_file.h"
#include "plan/shell_words.h"

namespace tipc::report {
namespace {
using Json = nlohmann::ordered_json;
using JsonValue = nlohmann::json;

// A field of another type than expected reads as absent: the file may come from any writer.
template <class T>
void read_field(const JsonValue& object, const char* key, T& into) {
  const auto it = object.find(key);
  if (it == object.end() || it->is_null()) return;
  try {
    into = it->get<T>();
  } catch (const JsonValue::exception&) {
  }
}

Json interpreter_json(const std::optional<InterpreterInfo>& interpreter) {
  if (!interpreter) return nullptr;
  return {{"command", interpreter->command},
          {"python_version", interpreter->python_version},
          {"frameworks", interpreter->frameworks}};
}

Json repository_json(const std::optional<RepositoryState>& repository) {
  if (!repository) return nullptr;
  return {{"commit", repository->commit}, {"branch", repository->branch}, {"dirty", repository->dirty}};
}

std::string memory_text(std::uint64_t bytes) {
  constexpr double kGiB = 1024.0 * 1024 * 1024;
  return bytes == 0 ? kUnknown : fmt::format("{:.1f} GiB", static_cast<double>(bytes) / kGiB);
}

// "2 × NVIDIA H100 80GB HBM3 (driver 550.54.15)"; models in the order nvidia-smi lists them.
std::string gpu_models_text(const std::vector<GpuModel>& gpus, const std::string& given) {
  // --gpus on a machine whose nvidia-smi names none: the GPUs are there, their models unknown.
  if (gpus.empty()) return given.empty() ? "none (no nvidia-smi)" : given + "; models unknown (no nvidia-smi)";
  std::vector<std::pair<std::string, int>> models;  // "name (driver D)" and how many
  for (const GpuModel& gpu : gpus) {
    const std::string model = gpu.driver.empty() ? gpu.name : fmt::format("{} (driver {})", gpu.name, gpu.driver);
    if (!models.empty() && models.back().first == model) {
      ++models.back().second;
    } else {
      models.emplace_back(model, 1);
    }
  }
  std::string text;
  for (const auto& [model, n] : models)
    text += (text.empty() ? "" : ", ") + (n > 1 ? fmt::format("{} × ", n) : "") + model;
  return text;
}

std::string python_text(const InterpreterInfo& interpreter) {
  std::string text = fmt::format("{} ({})", interpreter.python_version, interpreter.command);
  for (const auto& [name, version] : interpreter.frameworks) text += fmt::format(", {} {}", name, version);
  return text;
}

std::string repository_text(const std::optional<RepositoryState>& repository) {
  if (!repository) return "not a git repository";
  return fmt::format("{} on {}{}", repository->commit, repository->branch,
                     repository->dirty ? ", with uncommitted changes" : ", clean");
}

}  // namespace

Json environment_json(const Environment& environment) {
  Json gpus = Json::array();
  for (const GpuModel& gpu : environment.gpus) gpus.push_back({{"name", gpu.name}, {"driver", gpu.driver}});
  return {{"host", environment.host},
          {"os", environment.os},
          {"cpu_model", environment.cpu_model},
          {"cpu_cores", environment.cpu_cores},
          {"memory_bytes", environment.memory_bytes},
          {"gpus", gpus},
          {"interpreter", interpreter_json(environment.interpreter)},
          {"repository", repository_json(environment.repository)},
          {"tool_version", environment.tool_version},
          {"command_line", environment.command_line}};
}

Environment environment_from_json(const JsonValue& json) {
  Environment environment;
  if (!json.is_object()) return environment;
  read_field(json, "host", environment.host);
  read_field(json, "os", environment.os);
  read_field(json, "cpu_model", environment.cpu_model);
  read_field(json, "cpu_cores", environment.cpu_cores);
  read_field(json, "memory_bytes", environment.memory_bytes);
  read_field(json, "tool_version", environment.tool_version);
  read_field(json, "command_line", environment.command_line);
  if (const auto gpus = json.find("gpus"); gpus != json.end() && gpus->is_array()) {
    for (const JsonValue& gpu : *gpus) {
      GpuModel model;
      if (gpu.is_object()) {
        read_field(gpu, "name", model.name);
        read_field(gpu, "driver", model.driver);
      }
      environment.gpus.push_back(model);
    }
  }
  if (const auto it = json.find("interpreter"); it != json.end() && it->is_object()) {
    InterpreterInfo& interpreter = environment.interpreter.emplace();
    read_field(*it, "command", interpreter.command);
    read_field(*it, "python_version", interpreter.python_version);
    read_field(*it, "frameworks", interpreter.frameworks);
  }
  if (const auto it = json.find("repository"); it != json.end() && it->is_object()) {
    RepositoryState& repository = environment.repository.emplace();
    read_field(*it, "commit", repository.commit);
    read_field(*it, "branch", repository.branch);
    read_field(*it, "dirty", repository.dirty);
  }
  return environment;
}

Result<void> write_environment_file(const std::string& dir, const Environment& environment) {
  return write_json_atomically((std::filesystem::path(dir) / kEnvironmentFileName).string(),
                               environment_json(environment));
}

std::optional<Environment> read_environment_file(const std::string& dir) {
  std::ifstream in(std::filesystem::path(dir) / kEnvironmentFileName);
  if (!in) return std::nullopt;
  const JsonValue json = JsonValue::parse(in, nullptr, false);
  if (json.is_discarded() || !json.is_object()) return std::nullopt;
  return environment_from_json(json);
}

std::vector<std::pair<std::string, std::string>> environment_facts(const Environment& environment,
                                                                   const std::string& given_gpus) {
  std::vector<std::pair<std::string, std::string>> facts = {
      {"Host", environment.host.empty() ? kUnknown : environment.host},
      {"OS", environment.os.empty() ? kUnknown : environment.os},
      {"CPU", fmt::format("{}, {} cores", environment.cpu_model.empty() ? kUnknown : environment.cpu_model,
                          environment.cpu_cores)},
      {"Memory", memory_text(environment.memory_bytes)},
      {"GPUs", gpu_models_text(environment.gpus, given_gpus)},
  };
  if (environment.interpreter) facts.emplace_back("Python", python_text(*environment.interpreter));
  facts.emplace_back("Repository", repository_text(environment.repository));
  facts.emplace_back("tipc-run", environment.tool_version);
  facts.emplace_back("Command", plan::join_shell_words(environment.command_line));
  return facts;
}

}  // namespace tipc::report
