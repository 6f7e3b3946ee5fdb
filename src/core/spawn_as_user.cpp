#include "core/spawn_as_user.h"

#include <fcntl.h>
#include <linux/capability.h>
#include <pthread.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <string>
#include <vector>

#include "core/program_path.h"

namespace tipc {
namespace {

// Shared with the child (CLONE_VM): what it needs, and the errno of the step that failed.
struct ChildStart {
  const SpawnRequest* request;
  const char* program;
  unsigned id;
  sigset_t mask;
  int error = 0;
};

// The rest of the child runs on our memory (CLONE_VM) on a stack of its own: only system
// calls, no allocation, and not instrumented by AddressSanitizer, whose stack poisoning
// would outlive a child that never returns. setgroups, setresgid and setresuid go through
// syscall(2): glibc's wrappers would make every thread of tipc-run change its ids.
__attribute__((no_sanitize_address)) bool drop_privileges(unsigned id) {
  if (syscall(SYS_setgroups, 0, nullptr) != 0) return false;
  for (int cap = 0; prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) == 0; ++cap) {
  }
  if (errno != EINVAL) return false;  // past the last capability: the bounding set is empty
  if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0 && errno != EINVAL) return false;
  if (syscall(SYS_setresgid, id, id, id) != 0 || syscall(SYS_setresuid, id, id, id) != 0) return false;
  __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
  __user_cap_data_struct none[2] = {};  // also clears the inheritable set setresuid leaves
  if (syscall(SYS_capset, &header, none) != 0) return false;
  return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0;
}

// Puts `fd` on `target`, without close-on-exec (dup2 onto itself would keep the flag).
__attribute__((no_sanitize_address)) bool move_to(int fd, int target) {
  if (fd == target) return fcntl(fd, F_SETFD, 0) == 0;
  return dup2(fd, target) == target;
}

// Handlers are ours, and this child runs on our memory until it execs: back to the defaults.
__attribute__((no_sanitize_address)) void default_signal_handlers() {
  for (int sig = 1; sig < NSIG; ++sig) {
    struct sigaction action {};
    if (sigaction(sig, nullptr, &action) != 0 || action.sa_handler == SIG_IGN || action.sa_handler == SIG_DFL) continue;
    action.sa_handler = SIG_DFL;
    sigaction(sig, &action, nullptr);
  }
}

__attribute__((no_sanitize_address)) int start_child(void* data) {
  auto& start = *static_cast<ChildStart*>(data);
  const SpawnRequest& request = *start.request;
  default_signal_handlers();
  const int null_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
  const bool ready = setpgid(0, 0) == 0 && null_fd >= 0 && move_to(null_fd, 0) && move_to(request.out_fd, 1) &&
                     move_to(request.err_fd, 2) && (!request.cwd || chdir(request.cwd) == 0) &&
                     drop_privileges(start.id) && sigprocmask(SIG_SETMASK, &start.mask, nullptr) == 0;
  if (ready) execve(start.program, request.argv, request.envp);
  start.error = errno ? errno : EPERM;
  _exit(127);
}

}  // namespace

int spawn_as_user(const SpawnRequest& request, unsigned id, pid_t& pid) {
  const std::string program = program_on_path(request.argv[0]);
  if (program.empty()) return ENOENT;
  ChildStart start{&request, program.c_str(), id, {}};
  // Every signal waits while the child borrows our memory; it gets the mask it asked for.
  sigset_t all, previous;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, &previous);
  start.mask = request.mask ? *request.mask : previous;
  std::vector<char> stack(64 * 1024);
  const auto top = reinterpret_cast<std::uintptr_t>(stack.data() + stack.size()) & ~std::uintptr_t{15};
  pid = clone(start_child, reinterpret_cast<void*>(top), CLONE_VM | CLONE_VFORK | SIGCHLD, &start);
  const int clone_error = pid < 0 ? errno : 0;
  pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  if (clone_error != 0) return clone_error;
  if (start.error == 0) return 0;  // CLONE_VFORK: we resume only once it has exec'd or exited
  while (waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
  }
  return start.error;
}

}  // namespace tipc
