#pragma once
// Tracing a repository's own runner script: it runs in a scratch copy of the repository
// (trace/scratch_tree.h), isolated (trace/sandbox.h), with stand-ins for the programs it
// would start (trace/stand_ins.h) and its `eval` recorded (trace/bash_env.h). The result is
// the exact list of what it evaluated and started (trace/trace.h); nothing of it is run.
#include <vector>

#include "core/error.h"
#include "trace/trace.h"
#include "trace/trace_request.h"

namespace tipc::trace {

// An error names the runner when it fails, hangs past the timeout or does not start, with
// its stderr; the scratch directory is removed in every case and nothing it started is left.
// With request.cache_dir set, a trace of the same inputs is read back instead (trace_cache.h).
Result<Trace> trace_runner(const TraceRequest& request);

// Many traces, `jobs` at a time; the results in the order of the requests.
std::vector<Result<Trace>> trace_runners(const std::vector<TraceRequest>& requests, int jobs);

// Status probes: for a runner whose trace started `calls` programs, one trace per call with
// that call failing (exit 1) and every other succeeding, `jobs` at a time. Comparing each
// probe's status lines with the trace's shows whose exit status each line reports
// (plan/traced_status.h, status_sources).
std::vector<Result<Trace>> trace_each_call_failing(const TraceRequest& request, std::size_t calls, int jobs);

}  // namespace tipc::trace
