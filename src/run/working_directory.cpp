#include "run/working_directory.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include <fmt/format.h>

namespace tipc::run {
namespace {
constexpr const char* kCwdKey = "cwd";
}  // namespace

Error working_directory_error(const std::string& cwd, int error_number) {
  return Error::at("", 0, kCwdKey,
                   fmt::format("cannot enter the working directory {}: {}", cwd, errno_text(error_number)));
}

bool is_working_directory_error(const Error& error) {
  return error.diagnostics.size() == 1 && error.diagnostics.front().key == kCwdKey;
}

Result<void> check_working_directory(const std::string& cwd) {
  struct stat status {};
  if (stat(cwd.c_str(), &status) != 0) return fail(working_directory_error(cwd, errno));
  if (!S_ISDIR(status.st_mode)) return fail(working_directory_error(cwd, ENOTDIR));
  if (access(cwd.c_str(), X_OK) != 0) return fail(working_directory_error(cwd, errno));
  return {};
}

}  // namespace tipc::run
