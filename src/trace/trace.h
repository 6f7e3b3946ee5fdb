#pragma once
// What tracing a repository's own runner recorded: every string the runner evaluated and
// every program it started through a stand-in, in order. The tracer (trace/tracer.h)
// produces it; the traced planner (plan/traced_planner.h) turns it into a Plan. Paths are
// relative to the repository root: the scratch tree the trace ran in never leaks out.
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tipc::trace {

inline constexpr std::size_t kNoEval = static_cast<std::size_t>(-1);

// One program the runner started through a stand-in (an interpreter or a tool such as
// paddle2onnx), as it was started.
struct TracedCall {
  std::string program;            // the name it was invoked as: python3.7, python, paddle2onnx
  std::vector<std::string> args;  // the arguments after that name, exactly as received
  std::string cwd;                // relative to the repository root ("." = the root)
  // The variables the runner set or changed relative to the environment it started with
  // (its exports, CUDA_VISIBLE_DEVICES among them); a variable it unset maps to nullopt.
  std::map<std::string, std::optional<std::string>> env;
  // Where fd 1 and fd 2 pointed: a path relative to the repository root for a file inside
  // it, the absolute path for one outside, "" for the runner's own stdout/stderr. A pipe into
  // `tee FILE` (`2>&1 | tee -a LOG`) counts as FILE, which is where the output went.
  std::string stdout_path;
  std::string stderr_path;
  // Whether its standard input was a pipe the runner built (`cat train.log | python
  // extract_loss.py`): what it read came from the shell, not from a file a plan can give it.
  bool stdin_from_pipe = false;
  // Index into Trace::evals of the evaluated string this call ran under; kNoEval when the
  // runner started it directly (a pre-step outside any evaluated string).
  std::size_t eval_index = kNoEval;
};

// A housekeeping program the runner started (mkdir, rm, cp, mv, ln, wget, curl, tar, unzip,
// git: trace/stand_ins.h): no stage, but what the runner prepares for the calls after it,
// replayed at run time as a setup step in the runner's order (plan/setup_stages.h).
struct TracedHousekeeping {
  TracedCall call;              // as started; stdout/stdin fields as for a call
  std::size_t before_call = 0;  // how many calls (Trace::calls) the runner had started before it
};

// A file of status lines the runner wrote (results_python.log and its siblings).
struct StatusLog {
  std::string path;  // relative to the repository root
  std::string text;  // its bytes, as the runner left them
};

struct Trace {
  std::string runner;         // the runner script, relative to the repository root
  std::string run_dir = ".";  // where it was started, relative to the repository root
  std::string config_arg;     // the config argument as passed to the runner
  std::string mode;
  std::vector<std::string> extra_args;           // arguments after MODE
  std::vector<std::string> evals;                // every string the runner evaluated, byte for byte
  std::vector<TracedCall> calls;                 // in the order they started
  std::vector<TracedHousekeeping> housekeeping;  // in the order they started
  std::vector<StatusLog> status_logs;
  int exit_code = 0;                  // the runner's own exit status
  std::string stderr_text;            // what the runner printed on stderr (bounded)
  std::vector<std::string> warnings;  // e.g. that the trace ran without isolation (trace/sandbox.h)
};

}  // namespace tipc::trace
