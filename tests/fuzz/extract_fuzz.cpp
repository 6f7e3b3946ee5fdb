// libFuzzer target: archive extraction (data/extract.h). The input is written as an
// archive file into a fresh sandbox directory and unpacked by prepare_data with
// creates = "data" into a destination ten levels below the sandbox root; then the sandbox
// is removed.
//
// Nothing may ever be written outside the sandbox, and this is asserted two ways:
//  * while prepare_data runs, every file-system call the extractor makes on its own
//    (open, openat, mkdir, mkdirat, mkdtemp, symlinkat, linkat, unlinkat, fchmod, pwrite)
//    goes through a wrapper (the link uses --wrap) that aborts unless the path it names,
//    and the real path of the descriptor it uses or returns, lies inside the sandbox;
//  * afterwards the whole sandbox is walked: the archive and a canary file are unchanged,
//    nothing but the destination's `data` tree and its stamp appeared (nothing at all on
//    failure, not even the scratch directory), no device, FIFO or socket was created, no
//    file is setuid, setgid or group/other-writable, directories are 0755, every symlink
//    resolves (the way the kernel would) inside the destination, and every hardlink's
//    other names are in the tree too.
// A successful extraction is repeated and must then be skipped by the stamp.
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/sha256.h"
#include "data/extract.h"
#include "fuzz_check.h"

namespace fs = std::filesystem;

namespace {

std::string g_root;         // the sandbox root, a real path without symlinks
bool g_armed = false;       // the wrappers check only while prepare_data runs
std::size_t g_checked = 0;  // calls the wrappers checked during this input

[[noreturn]] void escape(const char* call, const std::string& path) {
  std::fprintf(stderr, "extract_fuzz: %s touched '%s', outside the sandbox %s\n", call, path.c_str(), g_root.c_str());
  std::abort();
}

bool inside(const std::string& path) {
  const std::string normal = fs::path(path).lexically_normal().string();
  return normal == g_root || normal.starts_with(g_root + "/");
}

// The real path of a descriptor, as the kernel knows it (symlinks resolved).
std::string fd_path(int fd) {
  char buffer[PATH_MAX];
  if (fd == AT_FDCWD) return ::getcwd(buffer, sizeof buffer) != nullptr ? buffer : "";
  const std::string link = "/proc/self/fd/" + std::to_string(fd);
  const ssize_t n = ::readlink(link.c_str(), buffer, sizeof buffer);
  return n > 0 ? std::string(buffer, static_cast<std::size_t>(n)) : "";
}

std::string at_path(int dir_fd, const char* name) {
  if (name == nullptr) return "";
  if (name[0] == '/') return name;
  return fd_path(dir_fd) + "/" + name;
}

void check_path(const char* call, const std::string& path) {
  if (!g_armed) return;
  ++g_checked;
  if (!inside(path)) escape(call, path);
}

void check_fd(const char* call, int fd) {
  if (!g_armed || fd < 0) return;
  ++g_checked;
  const std::string path = fd_path(fd);
  if (!inside(path)) escape(call, path);
}

mode_t mode_argument(int flags, va_list args) {
  return (flags & O_CREAT) != 0 || (flags & O_TMPFILE) == O_TMPFILE ? static_cast<mode_t>(va_arg(args, int)) : 0;
}

}  // namespace

extern "C" {
int __real_open(const char* path, int flags, ...);
int __real_openat(int dir_fd, const char* path, int flags, ...);
int __real_mkdir(const char* path, mode_t mode);
int __real_mkdirat(int dir_fd, const char* path, mode_t mode);
char* __real_mkdtemp(char* pattern);
int __real_symlinkat(const char* target, int dir_fd, const char* path);
int __real_linkat(int old_dir_fd, const char* old_path, int new_dir_fd, const char* new_path, int flags);
int __real_unlinkat(int dir_fd, const char* path, int flags);
int __real_fchmod(int fd, mode_t mode);
ssize_t __real_pwrite(int fd, const void* data, size_t size, off_t offset);

int __wrap_open(const char* path, int flags, ...) {
  va_list args;
  va_start(args, flags);
  const mode_t mode = mode_argument(flags, args);
  va_end(args);
  check_path("open", at_path(AT_FDCWD, path));
  const int fd = __real_open(path, flags, mode);
  check_fd("open (result)", fd);
  return fd;
}

int __wrap_openat(int dir_fd, const char* path, int flags, ...) {
  va_list args;
  va_start(args, flags);
  const mode_t mode = mode_argument(flags, args);
  va_end(args);
  check_path("openat", at_path(dir_fd, path));
  const int fd = __real_openat(dir_fd, path, flags, mode);
  check_fd("openat (result)", fd);
  return fd;
}

int __wrap_mkdir(const char* path, mode_t mode) {
  check_path("mkdir", at_path(AT_FDCWD, path));
  return __real_mkdir(path, mode);
}

int __wrap_mkdirat(int dir_fd, const char* path, mode_t mode) {
  check_path("mkdirat", at_path(dir_fd, path));
  return __real_mkdirat(dir_fd, path, mode);
}

char* __wrap_mkdtemp(char* pattern) {
  check_path("mkdtemp", at_path(AT_FDCWD, pattern));
  return __real_mkdtemp(pattern);
}

int __wrap_symlinkat(const char* target, int dir_fd, const char* path) {
  check_path("symlinkat", at_path(dir_fd, path));
  return __real_symlinkat(target, dir_fd, path);
}

int __wrap_linkat(int old_dir_fd, const char* old_path, int new_dir_fd, const char* new_path, int flags) {
  check_path("linkat (target)", at_path(old_dir_fd, old_path));
  check_path("linkat", at_path(new_dir_fd, new_path));
  return __real_linkat(old_dir_fd, old_path, new_dir_fd, new_path, flags);
}

int __wrap_unlinkat(int dir_fd, const char* path, int flags) {
  check_path("unlinkat", at_path(dir_fd, path));
  return __real_unlinkat(dir_fd, path, flags);
}

int __wrap_fchmod(int fd, mode_t mode) {
  check_fd("fchmod", fd);
  return __real_fchmod(fd, mode);
}

ssize_t __wrap_pwrite(int fd, const void* data, size_t size, off_t offset) {
  check_fd("pwrite", fd);
  return __real_pwrite(fd, data, size, offset);
}
}  // extern "C"

namespace {

constexpr std::string_view kCanary = "canary: must stay as it is\n";
constexpr int kMaxSymlinkHops = 40;

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void write_file(const fs::path& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  FUZZ_CHECK(out.good());
}

std::vector<std::string> components(const std::string& path) {
  std::vector<std::string> parts;
  for (const auto& part : fs::path(path)) {
    const std::string text = part.string();
    if (!text.empty() && text != "/" && text != ".") parts.push_back(text);
  }
  return parts;
}

// Where the symlink at `link` leads, following links as the kernel does and continuing
// lexically past missing components; nothing for a loop.
std::optional<std::string> resolve_link(const fs::path& link) {
  std::vector<std::string> dir = components(link.parent_path().string());
  std::deque<std::string> pending{link.filename().string()};
  int hops = 0;
  while (!pending.empty()) {
    std::string part = std::move(pending.front());
    pending.pop_front();
    if (part == "..") {
      if (!dir.empty()) dir.pop_back();
      continue;
    }
    dir.push_back(std::move(part));
    std::string here;
    for (const auto& d : dir) here += "/" + d;
    std::error_code ec;
    if (!fs::is_symlink(fs::symlink_status(here, ec))) continue;
    if (++hops > kMaxSymlinkHops) return std::nullopt;
    const std::string target = fs::read_symlink(here, ec).string();
    FUZZ_CHECK(!ec);
    dir.pop_back();
    if (!target.empty() && target.front() == '/') dir.clear();
    const auto next = components(target);
    pending.insert(pending.begin(), next.begin(), next.end());
  }
  std::string out;
  for (const auto& d : dir) out += "/" + d;
  return out.empty() ? "/" : out;
}

bool is_under(const fs::path& path, const fs::path& dir) {
  const std::string p = path.string(), d = dir.string();
  return p == d || p.starts_with(d + "/");
}

struct Sandbox {
  fs::path run, archive, canary, dest, data, stamp;
  std::vector<fs::path> chain;  // run/d1 ... run/d1/.../d8
};

Sandbox make_sandbox(std::string_view archive_bytes) {
  Sandbox s;
  s.run = fs::path(g_root) / "run";
  fs::create_directory(s.run);
  s.archive = s.run / "archive";
  s.canary = s.run / "canary";
  write_file(s.archive, archive_bytes);
  write_file(s.canary, kCanary);
  fs::path dir = s.run;
  for (int i = 1; i <= 8; ++i) {
    dir /= "d" + std::to_string(i);
    s.chain.push_back(dir);
  }
  fs::create_directories(dir);
  s.dest = dir / "dest";
  s.data = s.dest / "data";
  s.stamp = s.dest / ".data.tipc-stamp";
  return s;
}

// The walk of the whole sandbox after prepare_data (see the top of the file).
void check_sandbox(const Sandbox& s, std::string_view archive_bytes, bool extracted, const std::string& digest) {
  FUZZ_CHECK(slurp(s.archive) == archive_bytes);
  FUZZ_CHECK(slurp(s.canary) == kCanary);
  std::map<std::pair<dev_t, ino_t>, nlink_t> links_seen;
  std::map<std::pair<dev_t, ino_t>, nlink_t> links_expected;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(g_root, ec), end; it != end; it.increment(ec)) {
    FUZZ_CHECK(!ec);
    const fs::path path = it->path();
    const auto expected_outside = [&] {
      if (path == s.run || path == s.archive || path == s.canary) return true;
      for (const auto& d : s.chain) {
        if (path == d) return true;
      }
      return path == s.dest;
    };
    if (expected_outside()) continue;
    if (!extracted || !(is_under(path, s.data) || path == s.stamp)) {
      std::fprintf(stderr, "extract_fuzz: unexpected entry '%s' after %s extraction\n", path.c_str(),
                   extracted ? "a successful" : "a failed");
      std::abort();
    }
    struct stat st {};
    FUZZ_CHECK(::lstat(path.c_str(), &st) == 0);
    if (path == s.stamp) {
      FUZZ_CHECK(S_ISREG(st.st_mode) && slurp(path) == digest + "\n");
      continue;
    }
    FUZZ_CHECK(S_ISREG(st.st_mode) || S_ISDIR(st.st_mode) || S_ISLNK(st.st_mode));
    if (S_ISREG(st.st_mode)) {
      FUZZ_CHECK((st.st_mode & 07022) == 0);  // no setuid/setgid/sticky, no group/other write
      if (st.st_nlink > 1) {
        links_expected[{st.st_dev, st.st_ino}] = st.st_nlink;
        ++links_seen[{st.st_dev, st.st_ino}];
      }
    }
    if (S_ISDIR(st.st_mode)) FUZZ_CHECK((st.st_mode & 07777) == 0755);
    if (S_ISLNK(st.st_mode)) {
      const auto target = resolve_link(path);
      if (!target || !is_under(*target, s.dest)) {
        std::fprintf(stderr, "extract_fuzz: symlink '%s' -> '%s' leads outside the destination (to '%s')\n",
                     path.c_str(), fs::read_symlink(path).c_str(), target ? target->c_str() : "a loop");
        std::abort();
      }
    }
  }
  // A hardlink's other names must all be in the tree: one to a file outside would show
  // up as a link count larger than the names found here.
  FUZZ_CHECK(links_seen == links_expected);
  if (extracted) FUZZ_CHECK(fs::exists(fs::symlink_status(s.data)) && fs::exists(s.stamp));
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/tipc-extract-fuzz-XXXXXX";
  FUZZ_CHECK(::mkdtemp(pattern.data()) != nullptr);
  g_root = fs::canonical(pattern).string();
  std::atexit([] {
    std::error_code ignored;
    fs::remove_all(g_root, ignored);
  });
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const Sandbox s = make_sandbox(bytes);
  tipc::Sha256 sha;
  sha.update(data, size);
  const std::string digest = sha.hex_digest();

  // Smaller limits than the defaults keep the disk use low; the checks are the same code.
  const tipc::data::ExtractLimits limits{
      .max_total_bytes = 64u << 20, .max_entries = 10000, .max_entry_bytes = 32u << 20};
  const tipc::data::DataStep step{s.archive.string(), s.dest.string(), "data"};
  g_checked = 0;
  g_armed = true;
  const auto report = tipc::data::prepare_data(step, limits);
  g_armed = false;
  // The scratch directory (mkdtemp) and its tree (mkdir) are made by every run, so a count
  // of zero means the wrappers are not linked in and nothing above was checked.
  FUZZ_CHECK(g_checked >= 2);
  if (std::getenv("TIPC_FUZZ_VERBOSE") != nullptr) {  // for triage: what became of the input
    const std::string what =
        report ? "extracted " + std::to_string(report->entries) + " entries" : report.error().str();
    std::fprintf(stderr, "extract_fuzz: %s (%zu calls checked)\n", what.c_str(), g_checked);
  }
  if (report) {
    FUZZ_CHECK(!report->skipped && report->archive_sha256 == digest);
    FUZZ_CHECK(report->entries >= 1 && report->entries <= limits.max_entries);
    FUZZ_CHECK(report->bytes <= limits.max_total_bytes);
  } else {
    FUZZ_CHECK(!report.error().diagnostics.empty());
  }
  check_sandbox(s, bytes, report.has_value(), digest);

  if (report) {
    g_armed = true;
    const auto again = tipc::data::prepare_data(step, limits);
    g_armed = false;
    FUZZ_CHECK(again && again->skipped && again->archive_sha256 == digest);
    check_sandbox(s, bytes, true, digest);
  }

  std::error_code ec;
  fs::remove_all(s.run, ec);
  FUZZ_CHECK(!ec);
  return 0;
}
