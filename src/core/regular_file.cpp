#include "core/regular_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include <fmt/format.h>

namespace tipc {
namespace {

std::string_view kind_of(mode_t mode) {
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISDIR(mode)) return "a directory";
  return "a special file";
}

tl::unexpected<Error> cannot(const std::string& path, std::string_view verb, const FileRole& role,
                             std::string_view why) {
  return fail(Error::at(path, 0, "", fmt::format("cannot {} {}: {}", verb, role.what, why)));
}

tl::unexpected<Error> not_regular(const std::string& path, const FileRole& role, mode_t mode) {
  return cannot(path, "read", role, fmt::format("it is {}, not a regular file", kind_of(mode)));
}

}  // namespace

Result<RegularFile> open_regular_file(const std::string& path, const FileRole& role) {
  UniqueFd fd(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | (role.follow_links ? 0 : O_NOFOLLOW)));
  if (!fd.valid()) {
    const int open_error = errno;
    // A socket cannot be opened at all (ENXIO): say what it is rather than "no such device".
    struct stat info {};
    if (::stat(path.c_str(), &info) == 0 && !S_ISREG(info.st_mode)) return not_regular(path, role, info.st_mode);
    return cannot(path, role.open_verb, role, errno_text(open_error));
  }
  struct stat info {};
  if (::fstat(fd.get(), &info) != 0) return cannot(path, "read", role, errno_text(errno));
  if (!S_ISREG(info.st_mode)) return not_regular(path, role, info.st_mode);
  const int flags = ::fcntl(fd.get(), F_GETFL);
  if (flags < 0 || ::fcntl(fd.get(), F_SETFL, flags & ~O_NONBLOCK) != 0) {
    return cannot(path, "read", role, errno_text(errno));
  }
  return RegularFile{std::move(fd), static_cast<std::uint64_t>(info.st_size)};
}

Result<std::string> read_regular_file(const std::string& path, const FileRole& role, std::size_t limit) {
  const RegularFile file = TRY(open_regular_file(path, role));
  std::string bytes;
  // The size fstat saw is a hint (the file may grow or shrink meanwhile), never a promise.
  bytes.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(file.size, limit)));
  char chunk[64 << 10];
  while (bytes.size() < limit) {
    const ssize_t got = ::read(file.fd.get(), chunk, std::min(sizeof chunk, limit - bytes.size()));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return cannot(path, "read", role, errno_text(errno));
    if (got == 0) break;
    bytes.append(chunk, static_cast<std::size_t>(got));
  }
  return bytes;
}

}  // namespace tipc
