#pragma once
// The little of the operating system that tipc-trace-stand-in (stand_in/main.cpp) uses: raw
// system calls returning -errno on failure, memory from mmap, its arguments and environment.
//
// Why no C library: every program start through glibc runs its CPU feature detection, a
// few dozen CPUID instructions, each a trap to the hypervisor on a virtual machine: 0.7 ms
// of CPU a start on the project's 2-core machine against 0.3 ms for a program without it
// (bench/RESULTS.md, "A stand-in without the C library"). A trace starts the stand-in about
// 30 times, so on x86-64 it is built freestanding (CMakeLists.txt: -nostdlib -static, no
// stack protector, which would read a TLS canary nobody set up) with its own entry point.
// Elsewhere it is an ordinary program whose calls go through libc's syscall(2).
//
// Only headers that define constants and types are included; nothing here links libc on
// x86-64.
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#if defined(__x86_64__) && !defined(TIPC_STAND_IN_WITH_LIBC)
#define TIPC_STAND_IN_FREESTANDING 1
#else
#include <unistd.h>
#endif

namespace tipc::stand_in {

// The program, as the entry point calls it: returns the exit status.
int run(int argc, char** argv, char** envp);

#if TIPC_STAND_IN_FREESTANDING
inline long system_call(long number, long a = 0, long b = 0, long c = 0, long d = 0, long e = 0, long f = 0) {
  long result;
  register long r10 asm("r10") = d;
  register long r8 asm("r8") = e;
  register long r9 asm("r9") = f;
  asm volatile("syscall"
               : "=a"(result)
               : "a"(number), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
               : "rcx", "r11", "memory");
  return result;
}
#else
inline long system_call(long number, long a = 0, long b = 0, long c = 0, long d = 0, long e = 0, long f = 0) {
  const long result = ::syscall(number, a, b, c, d, e, f);
  return result == -1 ? -errno : result;
}
#endif

inline long as_long(const void* pointer) { return reinterpret_cast<long>(pointer); }

inline long open_file(const char* path, int flags, int mode = 0) {
  return system_call(SYS_openat, AT_FDCWD, as_long(path), flags, mode);
}
inline long read_some(int fd, void* buffer, size_t size) {
  return system_call(SYS_read, fd, as_long(buffer), static_cast<long>(size));
}
inline long write_some(int fd, const void* data, size_t size) {
  return system_call(SYS_write, fd, as_long(data), static_cast<long>(size));
}
inline void close_file(int fd) { system_call(SYS_close, fd); }
inline long end_offset(int fd) { return system_call(SYS_lseek, fd, 0, SEEK_CUR); }
inline long make_directory(const char* path, int mode) {
  return system_call(SYS_mkdirat, AT_FDCWD, as_long(path), mode);
}
inline long read_link(const char* path, char* buffer, size_t size) {
  return system_call(SYS_readlinkat, AT_FDCWD, as_long(path), as_long(buffer), static_cast<long>(size));
}
inline long current_directory(char* buffer, size_t size) {
  return system_call(SYS_getcwd, as_long(buffer), static_cast<long>(size));
}
inline long file_status(int fd, struct stat* status) { return system_call(SYS_fstat, fd, as_long(status)); }
inline long execute(const char* path, char* const* argv, char* const* envp) {
  return system_call(SYS_execve, as_long(path), as_long(argv), as_long(envp));
}
// Fresh zeroed memory, or nullptr; never given back (the program is short-lived).
inline void* allocate(size_t size) {
  const long address =
      system_call(SYS_mmap, 0, static_cast<long>(size), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return address < 0 && address > -4096 ? nullptr : reinterpret_cast<void*>(address);
}

}  // namespace tipc::stand_in
