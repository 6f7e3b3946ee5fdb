// tipc-trace-stand-in: what the tracer (trace/tracer.h) puts on the traced runner's PATH
// in place of the interpreter and the tools the chains start. It records how it was
// started (argv, cwd, environment, where its standard streams point), creates the train.log
// the runner checks next, prints one line and exits 0. In a status probe
// (TIPC_TRACE_FAIL_CALL=N) the N-th call of the trace (from 0) fails instead: exit 1, no
// train.log, as a crashed program would.
//
// Started as one of the runner's housekeeping programs (TIPC_TRACE_HOUSEKEEPING lists them
// with what to do: trace/stand_ins.h), it writes the same record tagged "H" instead of "C",
// then does what the trace needs: runs the system's program (mkdir, rm, cp, mv, ln inside the
// scratch tree; tee, whose record names the log a pipe into it went to), nothing (a
// download), or the unpacking script (tar, unzip, git). Those calls
// are not counted by status probes and make no train.log.
//
// It is started about 15 000 times for the recorded corpus, so it is a separate, small
// program that links only the C library (docs/architecture.md, src/trace/): no C++
// runtime, no allocation beyond one record buffer, one write per record.
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

extern char** environ;

namespace {

// A growing buffer of NUL-terminated fields: one record of the call log.
struct Record {
  char* data = nullptr;
  size_t size = 0;
  size_t capacity = 0;

  Record() = default;
  Record(const Record&) = delete;
  Record& operator=(const Record&) = delete;
  ~Record() { free(data); }

  void add(const char* field) {
    const size_t length = strlen(field) + 1;
    if (size + length > capacity) {
      capacity = (size + length) * 2;
      data = static_cast<char*>(realloc(data, capacity));
      if (data == nullptr) _exit(70);
    }
    memcpy(data + size, field, length);
    size += length;
  }
  void add_count(long count) {
    char text[32];
    snprintf(text, sizeof text, "%ld", count);
    add(text);
  }
};

// Where a descriptor points, as /proc shows it ("pipe:[123]" for a pipe).
void add_target(Record& record, int fd) {
  char link[64], target[PATH_MAX];
  snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  const ssize_t n = readlink(link, target, sizeof target - 1);
  target[n < 0 ? 0 : n] = '\0';
  record.add(target);
}

void make_directories(char* path) {
  for (char* slash = strchr(path + 1, '/'); slash != nullptr; slash = strchr(slash + 1, '/')) {
    *slash = '\0';
    mkdir(path, 0755);
    *slash = '/';
  }
  mkdir(path, 0755);
}

void touch_train_log(const char* directory, const char* model) {
  char path[PATH_MAX];
  if (snprintf(path, sizeof path, "%s%s%s", directory, *model ? "/" : "", model) >= PATH_MAX) return;
  make_directories(path);
  strncat(path, "/train.log", sizeof path - strlen(path) - 1);
  const int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  if (fd >= 0) close(fd);
}

// KEY=VALUE with VALUE under test_tipc/output/ and a last component without '.': a
// training output directory, whose train.log the runner reads after this call.
void create_train_logs(const char* argument, const char* model) {
  const char* equals = strchr(argument, '=');
  if (equals == nullptr || strstr(equals + 1, "test_tipc/output/") == nullptr) return;
  char value[PATH_MAX];
  if (snprintf(value, sizeof value, "%s", equals + 1) >= PATH_MAX) return;
  size_t length = strlen(value);
  while (length > 1 && value[length - 1] == '/') value[--length] = '\0';
  const char* last = strrchr(value, '/');
  if (strchr(last ? last + 1 : value, '.') != nullptr) return;
  touch_train_log(value, "");
  if (*model) touch_train_log(value, model);
}

// Whether this is the call a status probe fails: the calls count themselves by appending a
// byte each to TIPC_TRACE_CALL_COUNTER (O_APPEND: concurrent calls get distinct offsets).
bool is_the_failing_call() {
  const char* failing = getenv("TIPC_TRACE_FAIL_CALL");
  const char* counter = getenv("TIPC_TRACE_CALL_COUNTER");
  if (failing == nullptr || counter == nullptr) return false;
  const int fd = open(counter, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0 || write(fd, "c", 1) != 1) _exit(70);
  const off_t end = lseek(fd, 0, SEEK_CUR);
  close(fd);
  return end - 1 == atol(failing);
}

// What TIPC_TRACE_HOUSEKEEPING ("mkdir=real:...:wget=none:tar=unpack") says to do when
// started as `name`: "real", "none", "unpack", "log"; "" when it is not a housekeeping program.
const char* housekeeping_action(const char* name) {
  static char action[16];
  const char* table = getenv("TIPC_TRACE_HOUSEKEEPING");
  const size_t length = strlen(name);
  for (const char* entry = table; entry != nullptr && *entry != '\0'; entry = strchr(entry, ':')) {
    if (*entry == ':') ++entry;
    const char* equals = strchr(entry, '=');
    if (equals == nullptr) break;
    if (static_cast<size_t>(equals - entry) == length && strncmp(entry, name, length) == 0) {
      const size_t n = strcspn(equals + 1, ":");
      snprintf(action, sizeof action, "%.*s", static_cast<int>(n), equals + 1);
      return action;
    }
  }
  return "";
}

// After recording a housekeeping call: do what the trace needs of it (see the top).
int act_as_housekeeping(const char* action, const char* name, int argc, char** argv) {
  if (strcmp(action, "none") == 0) return 0;
  if (strcmp(action, "unpack") == 0) {
    const char* script = getenv("TIPC_TRACE_UNPACK");
    char** args = static_cast<char**>(calloc(static_cast<size_t>(argc) + 3, sizeof(char*)));
    if (script == nullptr || args == nullptr) return 0;
    args[0] = const_cast<char*>("sh");
    args[1] = const_cast<char*>(script);
    args[2] = const_cast<char*>(name);
    for (int i = 1; i < argc; ++i) args[i + 2] = argv[i];
    execv("/bin/sh", args);
    return 127;
  }
  char path[PATH_MAX];
  static const char* const directories[] = {"/bin/", "/usr/bin/"};
  for (const char* directory : directories) {
    snprintf(path, sizeof path, "%s%s", directory, name);
    execv(path, argv);
  }
  fprintf(stderr, "tipc-trace-stand-in: cannot run %s: %s\n", name, strerror(errno));
  return 127;
}

}  // namespace

int main(int argc, char** argv) {
  const char* log = getenv("TIPC_TRACE_CALLS");
  if (log == nullptr) {
    fprintf(stderr, "tipc-trace-stand-in: not started by a trace (TIPC_TRACE_CALLS is not set)\n");
    return 2;
  }
  const char* model = getenv("TIPC_TRACE_MODEL");
  const char* token = getenv("TIPC_TRACE_EVAL");
  const char* slash = strrchr(argv[0], '/');
  char cwd[PATH_MAX];
  if (getcwd(cwd, sizeof cwd) == nullptr) cwd[0] = '\0';
  const char* name = slash ? slash + 1 : argv[0];
  const char* housekeeping = housekeeping_action(name);
  Record record;
  record.add(*housekeeping ? "H" : "C");
  record.add(argv[0]);  // as the runner spelled it: the tracer keeps an absolute interpreter's path
  record.add(cwd);
  add_target(record, 0);
  add_target(record, 1);
  add_target(record, 2);
  record.add(token ? token : "");
  record.add_count(argc - 1);
  for (int i = 1; i < argc; ++i) record.add(argv[i]);
  long count = 0;
  while (environ[count] != nullptr) ++count;
  record.add_count(count);
  for (long i = 0; i < count; ++i) record.add(environ[i]);
  const int fd = open(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  // O_APPEND and a single write: concurrent stand-ins never interleave their records.
  if (fd < 0 || write(fd, record.data, record.size) != static_cast<ssize_t>(record.size)) {
    fprintf(stderr, "tipc-trace-stand-in: cannot append to %s: %s\n", log, strerror(errno));
    return 70;
  }
  close(fd);
  if (*housekeeping) return act_as_housekeeping(housekeeping, name, argc, argv);
  const bool fail = is_the_failing_call();
  for (int i = 1; i < argc && !fail; ++i) create_train_logs(argv[i], model ? model : "");
  printf("tipc-run trace stand-in: %s (recorded, not run%s)\n", name, fail ? ", failing" : "");
  return fail ? 1 : 0;
}
