#include "trace/trace_log.h"

#include <filesystem>

#include "core/regular_file.h"

namespace tipc::trace {
namespace {

// The NUL-terminated fields of a log file, in order.
class Fields {
 public:
  explicit Fields(std::string bytes) : bytes_(std::move(bytes)) {}
  bool done() const { return at_ >= bytes_.size(); }
  bool next(std::string& field) {
    const std::size_t end = bytes_.find('\0', at_);
    if (end == std::string::npos) return false;
    field.assign(bytes_, at_, end - at_);
    at_ = end + 1;
    return true;
  }
  // A list's count comes first; the runner wrote the log, so the count is believed only as
  // far as the bytes left can hold that many fields (one NUL each).
  bool next_list(std::vector<std::string>& list) {
    std::string count;
    if (!next(count) || count.empty() || count.size() > 9 ||
        count.find_first_not_of("0123456789") != std::string::npos) {
      return false;
    }
    const std::size_t items = std::stoul(count);
    if (items > bytes_.size() - at_) return false;
    list.resize(items);
    for (auto& item : list) {
      if (!next(item)) return false;
    }
    return true;
  }

 private:
  std::string bytes_;
  std::size_t at_ = 0;
};

constexpr std::size_t kLogLimit = std::size_t{256} << 20;

Result<Fields> read_fields(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(std::filesystem::symlink_status(path, ec))) return Fields("");
  auto bytes = read_runner_file(path, kLogLimit);
  if (!bytes) return fail(Error::at(path, 0, "", "the trace log is not a regular file of at most 256 MiB"));
  return Fields(std::move(*bytes));
}

Error cut(const std::string& path) { return Error::at(path, 0, "", "the trace log ends inside a record"); }

}  // namespace

std::optional<std::string> read_runner_file(const std::string& path, std::size_t limit) {
  auto bytes = read_regular_file(path, {"a file the traced runner left", "read", false}, limit + 1);
  if (!bytes || bytes->size() > limit) return std::nullopt;
  return std::move(*bytes);
}

Result<std::vector<RawCall>> read_calls(const std::string& path) {
  auto fields = TRY(read_fields(path));
  std::vector<RawCall> calls;
  while (!fields.done()) {
    RawCall c;
    std::string tag;
    const bool tagged = fields.next(tag) && (tag == "C" || tag == "H");
    c.housekeeping = tag == "H";
    if (!tagged || !fields.next(c.program) || !fields.next(c.cwd) || !fields.next(c.stdin_target) ||
        !fields.next(c.stdout_target) || !fields.next(c.stderr_target) || !fields.next(c.eval_token) ||
        !fields.next_list(c.args) || !fields.next_list(c.environment)) {
      return fail(cut(path));
    }
    calls.push_back(std::move(c));
  }
  return calls;
}

Result<std::vector<RawEval>> read_evals(const std::string& path) {
  auto fields = TRY(read_fields(path));
  std::vector<RawEval> evals;
  while (!fields.done()) {
    RawEval e;
    if (!fields.next(e.token) || !fields.next(e.text)) return fail(cut(path));
    evals.push_back(std::move(e));
  }
  return evals;
}

std::string PathMap::text(std::string text) const {
  for (std::size_t at = text.find(scratch_repo_); at != std::string::npos;
       at = text.find(scratch_repo_, at + repo_text_.size())) {
    text.replace(at, scratch_repo_.size(), repo_text_);
  }
  return text;
}

std::string PathMap::directory(const std::string& path) const {
  if (path == scratch_repo_) return ".";
  if (path.starts_with(scratch_repo_ + "/")) return path.substr(scratch_repo_.size() + 1);
  // Above the repository (a runner's `cd ..` after a `cd deploy` that failed): as far above
  // the real one, "..", "../..".
  if (scratch_repo_.starts_with(path == "/" ? path : path + "/")) {
    return std::filesystem::path(path).lexically_relative(scratch_repo_).string();
  }
  return path;
}

std::string PathMap::target(const std::string& link) const {
  if (!link.starts_with("/")) return "";
  return directory(link);
}

}  // namespace tipc::trace
