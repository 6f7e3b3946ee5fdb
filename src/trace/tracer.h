#pragma once
// Tracing a repository's own runner script: it runs in a scratch copy of the repository
// (trace/scratch_tree.h), isolated (trace/sandbox.h), with stand-ins for the programs it
// would start (trace/stand_ins.h) and its `eval` recorded (trace/bash_env.h). The result is
// the exact list of what it evaluated and started (trace/trace.h); nothing of it is run.
#include <cstdint>
#include <optional>
#include <vector>

#include "core/error.h"
#include "trace/trace.h"
#include "trace/trace_request.h"

namespace tipc::trace {

// An error names the runner when it fails, hangs past the timeout or does not start, with
// its stderr; the scratch directory is removed in every case and nothing it started is left.
// With request.cache_dir set, a trace of the same inputs is read back instead (trace_cache.h).
Result<Trace> trace_runner(const TraceRequest& request);

// How many traces run at once: `given` (the run's -j), else twice the cores, since a trace
// spends much of its time waiting on its own processes (bash waits for each command
// substitution, bwrap for its namespaces; bench/RESULTS.md); in either case no more than
// the available memory holds at kTraceMemoryBytes a trace, and at least one.
inline constexpr std::uint64_t kTraceMemoryBytes = 64ull << 20;
int trace_jobs(std::optional<int> given, unsigned cores, std::optional<std::uint64_t> available_bytes);
// The same for this machine: its cores, and MemAvailable of /proc/meminfo when it can be read.
int trace_jobs(std::optional<int> given);

// Many traces, `jobs` at a time; the results in the order of the requests.
std::vector<Result<Trace>> trace_runners(const std::vector<TraceRequest>& requests, int jobs);

// Status probes: for a runner whose trace started `calls` programs, one trace per call with
// that call failing (exit 1) and every other succeeding, `jobs` at a time. Comparing each
// probe's status lines with the trace's shows whose exit status each line reports
// (plan/traced_status.h, status_sources).
std::vector<Result<Trace>> trace_each_call_failing(const TraceRequest& request, std::size_t calls, int jobs);

}  // namespace tipc::trace
