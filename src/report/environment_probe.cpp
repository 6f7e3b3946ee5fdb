#include "report/environment_probe.h"

#include <sys/utsname.h>
#include <unistd.h>

#include <array>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include <fmt/format.h>

#include "core/command.h"
#include "core/own_command_line.h"
#include "core/text.h"
#include "core/version.h"

namespace tipc::report {
namespace {
namespace fs = std::filesystem;

// Prints "python X.Y.Z", then "NAME VERSION" for each framework installed. A distribution's
// metadata answers without importing it (importing torch takes seconds); a framework
// installed without metadata is imported.
constexpr const char* kVersionScript = R"py(
import sys, importlib, importlib.util
print("python", sys.version.split()[0])
for name, dists in (("paddle", ("paddlepaddle-gpu", "paddlepaddle")), ("torch", ("torch",))):
    version = None
    for dist in dists:
        try:
            import importlib.metadata as md
            version = md.version(dist)
            break
        except Exception:
            pass
    if version is None and importlib.util.find_spec(name) is not None:
        try:
            version = importlib.import_module(name).__version__
        except Exception:
            pass
    if version:
        print(name, version)
)py";

CommandOutcome run_probe(const std::vector<std::string>& argv, const std::string& cwd,
                         double timeout_seconds = kProbeTimeoutSeconds) {
  CommandSpec spec;
  spec.argv = argv;
  spec.cwd = cwd;
  spec.timeout_seconds = timeout_seconds;
  spec.separate_stderr = true;
  constexpr std::size_t kOutputKept = 64 * 1024;
  spec.output_limit = kOutputKept;
  return run_command(spec);
}

std::string first_line(std::string_view text) { return std::string(trim(text.substr(0, text.find('\n')))); }

// The value of the first line "KEY<separator>VALUE" of a file (/proc/cpuinfo, /etc/os-release).
std::string file_value(const std::string& path, const std::string& key, char separator) {
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    if (!line.starts_with(key)) continue;
    const std::string_view rest = trim(std::string_view(line).substr(key.size()));
    if (rest.empty() || rest.front() != separator) continue;
    std::string value(trim(rest.substr(1)));
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"') value = value.substr(1, value.size() - 2);
    return value;
  }
  return "";
}

std::string host_name() {
  std::array<char, 256> name{};
  return gethostname(name.data(), name.size() - 1) == 0 ? std::string(name.data()) : kUnknown;
}

std::string os_text() {
  utsname uts{};
  const std::string kernel = uname(&uts) == 0 ? fmt::format("{} {} {}", uts.sysname, uts.release, uts.machine) : "";
  const std::string distribution = file_value("/etc/os-release", "PRETTY_NAME", '=');
  if (distribution.empty()) return kernel.empty() ? kUnknown : kernel;
  return kernel.empty() ? distribution : distribution + ", " + kernel;
}

std::uint64_t memory_bytes() {
  std::istringstream total(file_value("/proc/meminfo", "MemTotal", ':'));  // "16316412 kB"
  std::uint64_t kib = 0;
  total >> kib;
  return kib * 1024;
}

// nvidia-smi's CSV: one "name, driver" line per GPU.
std::vector<GpuModel> gpu_models() {
  const CommandOutcome listing =
      run_probe({"nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"}, "");
  std::vector<GpuModel> gpus;
  if (!listing.ok()) return gpus;
  std::istringstream lines(listing.output);
  for (std::string line; std::getline(lines, line);) {
    line = first_line(line);
    if (line.empty()) continue;
    const auto comma = line.rfind(',');
    if (comma == std::string::npos) {
      gpus.push_back({line, ""});
    } else {
      const std::string_view fields(line);
      gpus.push_back({std::string(trim(fields.substr(0, comma))), std::string(trim(fields.substr(comma + 1)))});
    }
  }
  return gpus;
}

std::optional<RepositoryState> repository_state(const std::string& repo_root) {
  const CommandOutcome commit = run_probe({"git", "rev-parse", "--verify", "HEAD"}, repo_root);
  if (!commit.ok()) return std::nullopt;
  const CommandOutcome branch = run_probe({"git", "rev-parse", "--abbrev-ref", "HEAD"}, repo_root);
  const CommandOutcome status = run_probe({"git", "status", "--porcelain", "--untracked-files=no"}, repo_root);
  RepositoryState state;
  state.commit = first_line(commit.output);
  state.branch = branch.ok() ? first_line(branch.output) : kUnknown;
  state.dirty = !status.ok() || !status.output.empty();
  return state;
}

}  // namespace

InterpreterInfo probe_interpreter(const std::string& interpreter, const std::string& cwd, double timeout_seconds) {
  InterpreterInfo info;
  info.command = interpreter;
  const CommandOutcome answer = run_probe({interpreter, "-c", kVersionScript}, cwd, timeout_seconds);
  if (!answer.ok()) return info;
  std::istringstream lines(answer.output);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string name, version;
    if (!(words >> name >> version)) continue;
    if (name == "python")
      info.python_version = version;
    else if (name == "paddle" || name == "torch")
      info.frameworks[name] = version;
  }
  return info;
}

Environment probe_environment(const EnvironmentInputs& inputs) {
  Environment environment;
  environment.host = host_name();
  environment.os = os_text();
  environment.cpu_model = file_value("/proc/cpuinfo", "model name", ':');
  environment.cpu_cores = static_cast<int>(std::thread::hardware_concurrency());
  environment.memory_bytes = memory_bytes();
  environment.gpus = gpu_models();
  if (!inputs.interpreter.empty())
    environment.interpreter = probe_interpreter(inputs.interpreter, inputs.interpreter_cwd);
  environment.repository = repository_state(inputs.repo_root);
  environment.tool_version = kToolVersion;
  environment.command_line = inputs.command_line;
  return environment;
}

EnvironmentInputs environment_inputs(const std::string& repo_root, const std::vector<plan::Plan>& plans,
                                     const std::optional<std::string>& python) {
  EnvironmentInputs inputs{repo_root, python.value_or(""), repo_root, own_command_line()};
  using plan::StageKind;
  for (const plan::Plan& plan : plans) {
    for (const plan::Stage& stage : plan.stages) {
      const bool python_stage = stage.kind == StageKind::kTrain || stage.kind == StageKind::kEval ||
                                stage.kind == StageKind::kExport || stage.kind == StageKind::kInfer;
      if (!python_stage || stage.argv.empty()) continue;
      if (inputs.interpreter.empty()) inputs.interpreter = stage.argv.front();
      inputs.interpreter_cwd = (fs::path(repo_root) / stage.cwd).lexically_normal().string();
      return inputs;
    }
  }
  return inputs;
}

}  // namespace tipc::report
