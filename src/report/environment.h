#pragma once
// Where a run ran: the machine, its GPUs, the chain's interpreter, the repository's commit
// and tipc-run itself. Gathered once when a run starts (report/environment_probe.h), kept with
// the run's state (.tipc-environment.json beside each plan file) so that `tipc-run report
// DIR` shows it as the end of the run does, and shown in every report (report.json's
// "environment", docs/report-schema.md).
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/error.h"

namespace tipc::report {

inline constexpr const char* kEnvironmentFileName = ".tipc-environment.json";
inline constexpr const char* kUnknown = "unknown";

struct GpuModel {
  std::string name;    // "NVIDIA H100 80GB HBM3"
  std::string driver;  // "550.54.15"
};

// What the chain's interpreter said of itself; "unknown" when it could not be asked.
struct InterpreterInfo {
  std::string command;                            // as the plan names it: "python3.10", "/opt/venv/bin/python"
  std::string python_version = kUnknown;          // "3.11.2"
  std::map<std::string, std::string> frameworks;  // "paddle" -> "2.6.1", "torch" -> "2.1.2"; those installed
};

// The repository's git state; absent when it is not a git repository (or git is missing).
struct RepositoryState {
  std::string commit;  // full hash
  std::string branch;  // "HEAD" when detached
  bool dirty = false;  // tracked files differ from the commit (untracked files do not count)
};

struct Environment {
  std::string host;
  std::string os;         // "Debian GNU/Linux 12 (bookworm), Linux 6.1.0-18-amd64 x86_64"
  std::string cpu_model;  // /proc/cpuinfo's first "model name"
  int cpu_cores = 0;      // logical CPUs
  std::uint64_t memory_bytes = 0;
  std::vector<GpuModel> gpus;                  // nvidia-smi's; empty without one
  std::optional<InterpreterInfo> interpreter;  // absent when the plans name none
  std::optional<RepositoryState> repository;
  std::string tool_version;
  std::vector<std::string> command_line;  // tipc-run's argv
};

nlohmann::ordered_json environment_json(const Environment& environment);
// Whatever an older or damaged writer left: a missing or mistyped field keeps its default.
Environment environment_from_json(const nlohmann::json& json);

// `dir`/.tipc-environment.json, written atomically.
Result<void> write_environment_file(const std::string& dir, const Environment& environment);
// nullopt when the file is missing or is not a JSON object (a run of an older tipc-run).
std::optional<Environment> read_environment_file(const std::string& dir);

// The environment as label and text, in the order summary.md and report.html show it:
// "Host", "OS", "CPU", "Memory", "GPUs", "Python", "Repository", "tipc-run", "Command".
// `given_gpus` ("0, 1 (--gpus)"; "" for none) are the GPUs the run was given: "GPUs" names
// them where nvidia-smi named no model.
std::vector<std::pair<std::string, std::string>> environment_facts(const Environment& environment,
                                                                   const std::string& given_gpus = "");

}  // namespace tipc::report
