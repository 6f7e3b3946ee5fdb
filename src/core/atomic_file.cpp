#include "core/atomic_file.h"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <filesystem>
#include <fstream>

#include "core/error.h"

namespace tipc {
namespace {

namespace fs = std::filesystem;

// The pid in `name` when it is `prefix` followed by a pid (the temp file of a write), else 0.
pid_t writer_of(const std::string& name, const std::string& prefix) {
  if (!name.starts_with(prefix)) return 0;
  pid_t pid = 0;
  const char* end = name.data() + name.size();
  const auto [stop, error] = std::from_chars(name.data() + prefix.size(), end, pid);
  return error == std::errc() && stop == end && pid > 0 ? pid : 0;
}

// kill(pid, 0) fails with ESRCH for a pid no process has (EPERM: another user's, alive).
bool process_is_gone(pid_t pid) { return ::kill(pid, 0) != 0 && errno == ESRCH; }

// The temp files earlier writes of `target` left when their process died mid-write (kill -9,
// or a crash): NAME.tmp.PID beside NAME whose PID is gone. A live writer's file is its own.
void remove_stale_temp_files(const fs::path& target) {
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  const std::string prefix = target.filename().string() + ".tmp.";
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const pid_t writer = writer_of(it->path().filename().string(), prefix);
    std::error_code not_removed;  // another run removed it first: as good
    if (writer > 0 && writer != ::getpid() && process_is_gone(writer)) fs::remove(it->path(), not_removed);
  }
}

Error cannot_write(const std::string& path, const std::string& reason) {
  return Error::plain("cannot write " + path + ": " + reason);
}

// `write`'s text in `temp`, whole; on any failure (a full disk, a size limit, a writer that
// set failbit) `temp` is removed and the error names `path`.
Result<void> write_temp_file(const fs::path& temp, const std::string& path,
                             const std::function<void(std::ostream&)>& write) {
  errno = 0;
  std::ofstream file(temp, std::ios::binary | std::ios::trunc);
  if (file) write(file);
  if (file) file.close();  // flushes: a full disk shows here at the latest
  if (file) return {};
  const int reason = errno;
  std::error_code ec;
  fs::remove(temp, ec);
  return fail(cannot_write(path, reason != 0 ? errno_text(reason) : "the text could not be written"));
}

}  // namespace

Result<void> write_file_atomically(const std::string& path, const std::string& text) {
  return write_file_atomically(path, [&text](std::ostream& out) { out << text; });
}

Result<void> write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& write) {
  std::error_code ec;
  const fs::path target(path);
  if (target.has_parent_path()) fs::create_directories(target.parent_path(), ec);
  remove_stale_temp_files(target);
  const fs::path temp = target.string() + ".tmp." + std::to_string(::getpid());
  TRY(write_temp_file(temp, path, write));
  fs::rename(temp, target, ec);
  if (ec) {
    std::error_code not_removed;
    fs::remove(temp, not_removed);
    return fail(cannot_write(path, ec.message()));
  }
  return {};
}

}  // namespace tipc
