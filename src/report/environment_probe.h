#pragma once
// Gathers a run's Environment (report/environment.h) once, when the run starts: the machine
// from /proc and uname, the GPUs from nvidia-smi, the interpreter by running it once with a
// short script, the repository from git. Whatever cannot be asked reads "unknown" or is
// left out; it never fails the run.
#include <optional>
#include <string>
#include <vector>

#include "plan/plan.h"
#include "report/environment.h"

namespace tipc::report {

struct EnvironmentInputs {
  std::string repo_root;                  // absolute; git is asked here
  std::string interpreter;                // "" : none asked
  std::string interpreter_cwd;            // where a relative interpreter path is resolved
  std::vector<std::string> command_line;  // tipc-run's argv
};

// Seconds the interpreter and each git or nvidia-smi call may take before they count as unknown.
inline constexpr double kProbeTimeoutSeconds = 10;

Environment probe_environment(const EnvironmentInputs& inputs);

// The interpreter's Python and framework versions; python_version "unknown" when it does not
// start, fails, outlasts `timeout_seconds` or prints something else.
InterpreterInfo probe_interpreter(const std::string& interpreter, const std::string& cwd,
                                  double timeout_seconds = kProbeTimeoutSeconds);

// The interpreter the plans run (--python, else the first train, eval, export or infer
// stage's program) and its stage's working directory under the repository; "" when none.
EnvironmentInputs environment_inputs(const std::string& repo_root, const std::vector<plan::Plan>& plans,
                                     const std::optional<std::string>& python);

}  // namespace tipc::report
