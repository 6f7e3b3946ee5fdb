#include "stand_in/programs.h"

#include "stand_in/text.h"

namespace tipc::stand_in {
namespace {

constexpr int kMostFiles = 64;  // more are handed to the system's program
constexpr size_t kBufferSize = 64 * 1024;
char buffer[kBufferSize];

long read_retrying(int fd) {
  for (;;) {
    const long n = read_some(fd, buffer, kBufferSize);
    if (n != -EINTR) return n;
  }
}

bool is_option(const char* argument) { return argument[0] == '-' && argument[1] != '\0'; }

// Whether fd is the regular file `output` (cat refuses to copy a file into itself).
bool is_the_output(int fd, const struct stat& output) {
  struct stat input;
  return S_ISREG(output.st_mode) && file_status(fd, &input) == 0 && input.st_dev == output.st_dev &&
         input.st_ino == output.st_ino;
}

// tee's copy: standard input to each output until its end; an output that fails is
// named once and dropped, and makes the exit status 1.
int copy_to_all(int* outputs, const char* const* names, int count) {
  int status = 0;
  for (;;) {
    const long n = read_retrying(0);
    if (n == 0) return status;
    if (n < 0) {
      complain("tee", "read error", n);
      return 1;
    }
    for (int i = 0; i < count; ++i) {
      if (outputs[i] < 0) continue;
      if (const long error = write_all(outputs[i], buffer, static_cast<size_t>(n)); error != 0) {
        complain("tee", names[i], error);
        outputs[i] = -1;
        status = 1;
      }
    }
  }
}

// cat's copy of one input to standard output: 0, 1 after a read error (named), or -1 after
// a write error (named), which ends cat.
int copy_to_output(int input, const char* name) {
  for (;;) {
    const long n = read_retrying(input);
    if (n == 0) return 0;
    if (n < 0) {
      complain("cat", name, n);
      return 1;
    }
    if (const long error = write_all(1, buffer, static_cast<size_t>(n)); error != 0) {
      complain("cat", "write error", error);
      return -1;
    }
  }
}

}  // namespace

int run_system_program(const char* name, char* const* argv, char* const* envp) {
  long error = -ENOENT;
  char path[4096];
  for (const char* directory : {"/bin/", "/usr/bin/"}) {
    if (join(path, sizeof path, {directory, name})) error = execute(path, argv, envp);
  }
  if (!join(path, sizeof path, {"cannot run ", name})) path[0] = '\0';
  complain("tipc-trace-stand-in", path, error);
  return 127;
}

bool make_with_parents(const char* path, int mode) {
  char copy[4096];
  if (*path == '\0' || !join(copy, sizeof copy, {path})) return false;
  for (char* slash = copy + 1; *slash != '\0'; ++slash) {
    if (*slash != '/') continue;
    *slash = '\0';
    make_directory(copy, mode);
    *slash = '/';
  }
  make_directory(copy, mode);
  const long fd = open_file(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return false;
  close_file(static_cast<int>(fd));
  return true;
}

int make_like_mkdir(int argc, char* const* argv, char* const* envp) {
  bool parents = false;
  int directories = 0;
  for (int i = 1; i < argc; ++i) {
    if (equal(argv[i], "-p") || equal(argv[i], "--parents")) {
      parents = true;
    } else if (argv[i][0] == '-') {
      return run_system_program("mkdir", argv, envp);  // -m MODE, -v, --, `-`
    } else {
      ++directories;
    }
  }
  if (!parents || directories == 0) return run_system_program("mkdir", argv, envp);
  for (int i = 1; i < argc; ++i) {
    if (argv[i][0] != '-' && !make_with_parents(argv[i], 0777)) return run_system_program("mkdir", argv, envp);
  }
  return 0;
}

int copy_like_tee(int argc, char* const* argv, char* const* envp) {
  bool append = false;
  const char* names[kMostFiles + 1] = {"standard output"};
  int count = 1;
  for (int i = 1; i < argc; ++i) {
    if (equal(argv[i], "-a") || equal(argv[i], "--append")) {
      append = true;
    } else if (argv[i][0] == '-' || count > kMostFiles) {
      return run_system_program("tee", argv, envp);  // -i, -p, --, `-`, or very many files
    } else {
      names[count++] = argv[i];
    }
  }
  // Opened only once every argument was read: `tee log -a` appends.
  int outputs[kMostFiles + 1] = {1};
  const int flags = O_WRONLY | O_CREAT | O_CLOEXEC | (append ? O_APPEND : O_TRUNC);
  for (int i = 1; i < count; ++i) {
    const long fd = open_file(names[i], flags, 0666);
    if (fd < 0) return run_system_program("tee", argv, envp);  // it names the file and copies to the others
    outputs[i] = static_cast<int>(fd);
  }
  return copy_to_all(outputs, names, count);
}

int copy_like_cat(int argc, char* const* argv, char* const* envp) {
  int inputs[kMostFiles] = {0};
  const char* names[kMostFiles] = {"-"};
  int count = argc > 1 ? 0 : 1;
  struct stat output;
  if (file_status(1, &output) != 0) output.st_mode = 0;
  for (int i = 1; i < argc; ++i) {
    if (is_option(argv[i]) || count == kMostFiles) return run_system_program("cat", argv, envp);
    const long fd = equal(argv[i], "-") ? 0 : open_file(argv[i], O_RDONLY | O_CLOEXEC);
    if (fd < 0) return run_system_program("cat", argv, envp);  // it names the file and goes on
    inputs[count] = static_cast<int>(fd);
    names[count++] = argv[i];
  }
  for (int i = 0; i < count; ++i) {
    if (is_the_output(inputs[i], output)) return run_system_program("cat", argv, envp);
  }
  int status = 0;
  for (int i = 0; i < count; ++i) {
    const int copied = copy_to_output(inputs[i], names[i]);
    if (copied < 0) return 1;
    status |= copied;
  }
  return status;
}

}  // namespace tipc::stand_in
