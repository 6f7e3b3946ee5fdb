// tipc-trace-stand-in: what the tracer (trace/tracer.h) puts on the traced runner's PATH
// in place of the interpreter and the tools the chains start. It records how it was
// started (argv, cwd, environment, where its standard streams point), creates the train.log
// the runner checks next, prints one line and exits 0. In a status probe
// (TIPC_TRACE_FAIL_CALL=N) the N-th call of the trace (from 0) fails instead: exit 1, no
// train.log, as a crashed program would.
//
// TIPC_TRACE_ACTIONS (trace/stand_ins.h) says what it does when started under another name.
// A housekeeping program's call is recorded tagged "H" instead of "C", then the stand-in does
// what the trace needs: runs the system's program ("real": mkdir, rm, cp, mv, ln inside the
// scratch tree; `mkdir -p` it does itself), copies its input as tee does ("log": the record names the pipe its input
// came from, which names the log), nothing ("none": a download), or the unpacking script
// ("unpack": tar, unzip, git). Those calls are not counted by status probes and make no
// train.log. Not recorded at all: "quiet" (sleep, pip, nvidia-smi: exit 0) and "cat".
//
// It is started about 30 times a trace, so it is a small program without the C library
// (stand_in/system.h says why): no allocation beyond its buffers, one write a record.
#include "stand_in/programs.h"
#include "stand_in/text.h"

namespace tipc::stand_in {
namespace {

constexpr size_t kPathMax = 4096;

// A list of NUL-terminated fields: one record of the call log, in one buffer sized up front
// for the whole call (argv and the environment are what can be long).
struct Record {
  char* data = nullptr;
  size_t size = 0;
  size_t capacity = 0;

  void add(const char* field) {
    const size_t n = length(field) + 1;
    if (size + n > capacity) return;  // cannot happen: record_size() counted every field
    for (size_t i = 0; i < n; ++i) data[size + i] = field[i];
    size += n;
  }
  void add_count(long count) {
    char text[24];
    format_count(text, count);
    add(text);
  }
};

size_t record_size(int argc, char* const* argv, char* const* envp) {
  size_t bytes = 4 * (kPathMax + 1) + 3 * 24 + 2;  // cwd, three targets, the counts, the tag
  for (int i = 0; i < argc; ++i) bytes += length(argv[i]) + 1;
  for (char* const* entry = envp; *entry != nullptr; ++entry) bytes += length(*entry) + 1;
  return bytes;  // TIPC_TRACE_EVAL's value is counted with the environment
}

// Where a descriptor points, as /proc shows it ("pipe:[123]" for a pipe).
void add_target(Record& record, int fd) {
  char link[48];
  char number[24];
  format_count(number, fd);
  join(link, sizeof link, {"/proc/self/fd/", number});
  char target[kPathMax];
  const long n = read_link(link, target, sizeof target - 1);
  target[n < 0 ? 0 : n] = '\0';
  record.add(target);
}

// Appends the call's record to the log in one write: O_APPEND, so that concurrent
// stand-ins never interleave their records. 0, else the exit status after saying why.
int record_call(const char* log, const char* tag, int argc, char* const* argv, char* const* envp) {
  Record record;
  record.capacity = record_size(argc, argv, envp);
  record.data = static_cast<char*>(allocate(record.capacity));
  if (record.data == nullptr) return 70;
  char cwd[kPathMax];
  if (current_directory(cwd, sizeof cwd) < 0) cwd[0] = '\0';
  const char* token = variable(envp, "TIPC_TRACE_EVAL");
  record.add(tag);
  record.add(argv[0]);  // as the runner spelled it: the tracer keeps an absolute interpreter's path
  record.add(cwd);
  for (int fd = 0; fd <= 2; ++fd) add_target(record, fd);
  record.add(token ? token : "");
  record.add_count(argc - 1);
  for (int i = 1; i < argc; ++i) record.add(argv[i]);
  long count = 0;
  while (envp[count] != nullptr) ++count;
  record.add_count(count);
  for (long i = 0; i < count; ++i) record.add(envp[i]);
  const long fd = open_file(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  const long error = fd < 0 ? fd : write_all(static_cast<int>(fd), record.data, record.size);
  if (error == 0) return 0;
  char what[kPathMax + 32];
  if (!join(what, sizeof what, {"cannot append to ", log})) what[0] = '\0';
  complain("tipc-trace-stand-in", what, error);
  return 70;
}

void touch_train_log(const char* directory, const char* model) {
  char path[kPathMax];
  if (!join(path, sizeof path, {directory, *model ? "/" : "", model})) return;
  make_with_parents(path, 0755);
  if (!join(path, sizeof path, {directory, *model ? "/" : "", model, "/train.log"})) return;
  const long fd = open_file(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  if (fd >= 0) close_file(static_cast<int>(fd));
}

// KEY=VALUE with VALUE under test_tipc/output/ and a last component without '.': a
// training output directory, whose train.log the runner reads after this call.
void create_train_logs(const char* argument, const char* model) {
  const char* equals = find(argument, '=');
  if (equals == nullptr || !contains(equals + 1, "test_tipc/output/")) return;
  char value[kPathMax];
  if (!join(value, sizeof value, {equals + 1})) return;
  size_t n = length(value);
  while (n > 1 && value[n - 1] == '/') value[--n] = '\0';
  const char* last = find_last(value, '/');
  if (find(last ? last + 1 : value, '.') != nullptr) return;
  touch_train_log(value, "");
  if (*model) touch_train_log(value, model);
}

// Whether this is the call a status probe fails: 1 or 0, -1 when the count cannot be kept.
// The calls count themselves by appending a byte each to TIPC_TRACE_CALL_COUNTER (O_APPEND:
// concurrent calls get distinct offsets).
int is_the_failing_call(char* const* envp) {
  const char* failing = variable(envp, "TIPC_TRACE_FAIL_CALL");
  const char* counter = variable(envp, "TIPC_TRACE_CALL_COUNTER");
  if (failing == nullptr || counter == nullptr) return 0;
  const long fd = open_file(counter, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  const long error = fd < 0 ? fd : write_all(static_cast<int>(fd), "c", 1);
  if (error != 0) {
    complain("tipc-trace-stand-in", counter, error);
    return -1;
  }
  return end_offset(static_cast<int>(fd)) - 1 == parse_count(failing) ? 1 : 0;
}

// What TIPC_TRACE_ACTIONS ("mkdir=real:...:wget=none:tar=unpack") says to do when started
// as `name`; "" for a recorded program (the interpreter, a conversion tool).
void find_action(const char* table, const char* name, char* action, size_t capacity) {
  const size_t n = length(name);
  action[0] = '\0';
  for (const char* entry = table; entry != nullptr && *entry != '\0'; entry = find(entry, ':')) {
    if (*entry == ':') ++entry;
    const char* equals = find(entry, '=');
    if (equals == nullptr) return;
    if (static_cast<size_t>(equals - entry) == n && starts_with(entry, name)) {
      size_t i = 0;
      for (const char* c = equals + 1; *c != '\0' && *c != ':' && i + 1 < capacity; ++c) action[i++] = *c;
      action[i] = '\0';
      return;
    }
  }
}

int unpack(const char* name, int argc, char* const* argv, char* const* envp) {
  const char* script = variable(envp, "TIPC_TRACE_UNPACK");
  auto** args = static_cast<const char**>(allocate((static_cast<size_t>(argc) + 3) * sizeof(char*)));
  if (script == nullptr || args == nullptr) return 0;
  args[0] = "sh";
  args[1] = script;
  args[2] = name;
  for (int i = 1; i < argc; ++i) args[i + 2] = argv[i];
  return run_system_program("sh", const_cast<char* const*>(args), envp);
}

// After recording a housekeeping call: do what the trace needs of it (see the top).
int act_as_housekeeping(const char* action, const char* name, int argc, char* const* argv, char* const* envp) {
  if (equal(action, "none")) return 0;
  if (equal(action, "unpack")) return unpack(name, argc, argv, envp);
  if (equal(action, "log")) return copy_like_tee(argc, argv, envp);
  if (equal(name, "mkdir")) return make_like_mkdir(argc, argv, envp);
  return run_system_program(name, argv, envp);
}

// The interpreter's call: the train.logs its output directories need, one line, exit 0;
// exit 1 for the call a status probe fails.
int act_as_interpreter(const char* name, int argc, char* const* argv, char* const* envp) {
  const int failing = is_the_failing_call(envp);
  if (failing < 0) return 70;
  const bool fail = failing == 1;
  const char* model = variable(envp, "TIPC_TRACE_MODEL");
  for (int i = 1; i < argc && !fail; ++i) create_train_logs(argv[i], model ? model : "");
  for (const char* part : {"tipc-run trace stand-in: ", name, " (recorded, not run", fail ? ", failing" : "", ")\n"}) {
    write_text(1, part);
  }
  return fail ? 1 : 0;
}

}  // namespace

int run(int argc, char** argv, char** envp) {
  const char* log = variable(envp, "TIPC_TRACE_CALLS");
  if (log == nullptr || argc < 1) {
    write_text(2, "tipc-trace-stand-in: not started by a trace (TIPC_TRACE_CALLS is not set)\n");
    return 2;
  }
  const char* slash = find_last(argv[0], '/');
  const char* name = slash ? slash + 1 : argv[0];
  const char* table = variable(envp, "TIPC_TRACE_ACTIONS");
  char action[16];
  find_action(table ? table : "", name, action, sizeof action);
  if (equal(action, "quiet")) return 0;
  if (equal(action, "cat")) return copy_like_cat(argc, argv, envp);
  if (const int status = record_call(log, *action ? "H" : "C", argc, argv, envp); status != 0) return status;
  if (*action) return act_as_housekeeping(action, name, argc, argv, envp);
  return act_as_interpreter(name, argc, argv, envp);
}

}  // namespace tipc::stand_in
