#include "core/atomic_file.h"

#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <fstream>

#include "core/error.h"

namespace tipc {

Result<void> write_file_atomically(const std::string& path, const std::string& text) {
  return write_file_atomically(path, [&text](std::ostream& out) { out << text; });
}

Result<void> write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& write) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path target(path);
  if (target.has_parent_path()) fs::create_directories(target.parent_path(), ec);
  const fs::path temp = target.string() + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream file(temp, std::ios::binary | std::ios::trunc);
    write(file);
    if (!file.flush()) return fail(Error::plain("cannot write " + temp.string() + ": " + errno_text(errno)));
  }
  fs::rename(temp, target, ec);
  if (ec) {
    fs::remove(temp, ec);
    return fail(Error::plain("cannot write " + path + ": " + ec.message()));
  }
  return {};
}

}  // namespace tipc
