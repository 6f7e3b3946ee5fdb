#pragma once
// What to trace: a repository's own runner script, started as the reference starts it
// (`bash <runner> <config_arg> <MODE> [extra]` from run_dir), with stand-ins for the
// programs it would start.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "trace/passed_env.h"

namespace tipc::trace {

enum class Isolation {
  automatic,  // bubblewrap when it works here, else the fallback (with a warning)
  bwrap,      // bubblewrap or an error
  none,       // the documented fallback (trace/sandbox.h), with a warning
};

struct TraceRequest {
  std::string repo_root;      // absolute
  std::string runner;         // relative to repo_root
  std::string run_dir = ".";  // relative to repo_root
  std::string config_arg;     // as passed to the runner, relative to run_dir
  std::string mode;
  std::vector<std::string> extra_args;  // after MODE
  std::string interpreter = "python";   // the word of the config's `python:` line
  std::string model_name;               // the config's model_name (PaddleClas reads <dir>/<model>/train.log)
  // Variables the runner is started with besides the trace's own (trace/passed_env.h);
  // every call records them as its environment's (TracedCall::env).
  PassedEnvironment passed_env;
  double timeout_seconds = 60;
  Isolation isolation = Isolation::automatic;
  std::string cache_dir;  // where traces are kept by their inputs' digest; "" = no cache
  // A status probe: the stand-in call with this ordinal (from 0, in the order they start)
  // exits 1, the others 0 (trace_each_call_failing).
  std::optional<std::size_t> failing_call;
};

}  // namespace tipc::trace
