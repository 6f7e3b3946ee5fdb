#include "trace/trace_cache.h"

#include <fcntl.h>
#include <sys/file.h>

#include <cerrno>
#include <filesystem>
#include <fstream>

#include "core/json_file.h"
#include "core/sha256.h"
#include "trace/bash_env.h"
#include "trace/stand_ins.h"
#include "trace/trace_json.h"

namespace tipc::trace {
namespace {

// 2: calls in the order of their evaluated strings; 3: whether a call's stdin was a pipe;
// 4: the housekeeping calls, and no MODE argument for a runner that reads $2 as something else;
// 5: the log of a call piped into `tee`; 6: the variables passed in.
constexpr const char* kFormat = "tipc-run trace 6";

// Every field is followed by a NUL and lists by their length, so no two inputs feed the
// same bytes.
class KeyWriter {
 public:
  void field(const std::string& text) { hash_.update(text.data(), text.size() + 1); }
  void list(const std::vector<std::string>& items) {
    field(std::to_string(items.size()));
    for (const auto& item : items) field(item);
  }
  std::string digest() const { return hash_.hex_digest(); }

 private:
  Sha256 hash_;
};

std::string entry_path(const std::string& cache_dir, const std::string& key) { return cache_dir + "/" + key + ".json"; }

}  // namespace

std::string trace_cache_key(const TraceRequest& request, const RepoInputs& inputs) {
  KeyWriter key;
  for (const auto& text : {std::string(kFormat), request.repo_root, request.runner, request.run_dir, request.config_arg,
                           request.mode, request.interpreter, request.model_name, bash_env_script()}) {
    key.field(text);
  }
  key.field(std::to_string(static_cast<int>(request.isolation)));
  key.field(request.failing_call ? std::to_string(*request.failing_call) : "none");
  key.list(request.extra_args);
  key.field(std::to_string(request.passed_env.size()));
  for (const auto& [name, value] : request.passed_env) {
    key.field(name);
    key.field(value);
  }
  key.list(recorded_programs(request.interpreter));
  key.list(unrecorded_programs());
  key.field(stand_in_actions());
  key.field(unpacking_stand_in_script());
  key.list(inputs.directories);
  key.field(std::to_string(inputs.files.size()));
  for (const auto& [path, bytes] : inputs.files) {
    key.field(path);
    key.field(bytes);
  }
  return key.digest();
}

std::optional<Trace> load_cached_trace(const std::string& cache_dir, const std::string& key) {
  std::ifstream in(entry_path(cache_dir, key), std::ios::binary);
  if (!in) return std::nullopt;
  const auto json = nlohmann::json::parse(in, nullptr, false);
  if (json.is_discarded()) return std::nullopt;
  auto trace = trace_from_json(json);
  if (!trace) return std::nullopt;
  return std::move(*trace);
}

void store_cached_trace(const std::string& cache_dir, const std::string& key, const Trace& trace) {
  // A cache entry that cannot be written costs the next run one trace, nothing else.
  static_cast<void>(write_json_atomically(entry_path(cache_dir, key), trace_to_json(trace)));
}

CacheClaim::CacheClaim(const std::string& cache_dir, const std::string& key) {
  const std::string locks = cache_dir + "/locks";
  std::error_code ec;
  std::filesystem::create_directories(locks, ec);  // also the cache itself, before its first entry
  if (ec) return;
  lock_ = UniqueFd(open((locks + "/" + key.substr(0, 2)).c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0644));
  while (lock_.get() >= 0 && flock(lock_.get(), LOCK_EX) != 0 && errno == EINTR) {
  }
}

}  // namespace tipc::trace
