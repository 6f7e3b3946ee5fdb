#pragma once
// Traces kept on disk by the digest of everything that decides them, so that a suite is
// traced once: the runner directory's files, the config bytes, the shadowed directories,
// mode, arguments and options, and the tracer's own stand-in lists and eval wrapper.
#include <optional>
#include <string>

#include "core/unique_fd.h"
#include "trace/scratch_tree.h"
#include "trace/trace.h"
#include "trace/trace_request.h"

namespace tipc::trace {

std::string trace_cache_key(const TraceRequest& request, const RepoInputs& inputs);

// nullopt when there is no entry, or it cannot be read (it is then traced again).
std::optional<Trace> load_cached_trace(const std::string& cache_dir, const std::string& key);

// Best effort: a cache that cannot be written only costs the next run a trace.
void store_cached_trace(const std::string& cache_dir, const std::string& key, const Trace& trace);

// Held while a trace of `key` is made, so that tracers sharing the cache (threads, or
// tipc-runs of two CI jobs at once) make each trace once: the second one waits for the
// claim and reads the first one's entry. A claim covers one of 256 stripes of keys (lock
// files `locks/00`..`locks/ff` in the cache), so the cache never holds more than 256 of
// them. Best effort: where the lock cannot be made, the trace is made without it.
class CacheClaim {
 public:
  CacheClaim(const std::string& cache_dir, const std::string& key);

 private:
  UniqueFd lock_{-1};  // closing it releases the lock
};

}  // namespace tipc::trace
