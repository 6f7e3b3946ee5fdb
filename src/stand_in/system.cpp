#include "stand_in/system.h"

#if TIPC_STAND_IN_FREESTANDING
// The entry point: the kernel leaves argc, then argv's pointers and a null, then the
// environment's and a null, on the stack; the ABI wants it 16-byte aligned for the call.
asm(".text\n"
    ".global _start\n"
    "_start:\n"
    "  xor %rbp, %rbp\n"
    "  mov %rsp, %rdi\n"
    "  and $-16, %rsp\n"
    "  call tipc_stand_in_start\n"
    "  hlt\n");

extern "C" [[noreturn]] void tipc_stand_in_start(long* stack) {
  const int argc = static_cast<int>(stack[0]);
  char** argv = reinterpret_cast<char**>(stack + 1);
  char** envp = argv + argc + 1;
  const int status = tipc::stand_in::run(argc, argv, envp);
  for (;;) tipc::stand_in::system_call(SYS_exit_group, status);
}

// The compiler may call these for copies and zeroing even in freestanding code (GCC's manual,
// "C Language Standards"); their loops must not become calls of themselves.
#if defined(__clang__)
#define TIPC_NOT_A_LIBRARY_CALL  // clang keeps -ffreestanding's loops as they are
#else
#define TIPC_NOT_A_LIBRARY_CALL __attribute__((optimize("no-tree-loop-distribute-patterns")))
#endif

extern "C" TIPC_NOT_A_LIBRARY_CALL void* memcpy(void* to, const void* from, size_t size) {
  auto* out = static_cast<unsigned char*>(to);
  const auto* in = static_cast<const unsigned char*>(from);
  for (size_t i = 0; i < size; ++i) out[i] = in[i];
  return to;
}

extern "C" TIPC_NOT_A_LIBRARY_CALL void* memmove(void* to, const void* from, size_t size) {
  auto* out = static_cast<unsigned char*>(to);
  const auto* in = static_cast<const unsigned char*>(from);
  if (out < in) return memcpy(to, from, size);
  for (size_t i = size; i > 0; --i) out[i - 1] = in[i - 1];
  return to;
}

extern "C" TIPC_NOT_A_LIBRARY_CALL void* memset(void* to, int value, size_t size) {
  auto* out = static_cast<unsigned char*>(to);
  for (size_t i = 0; i < size; ++i) out[i] = static_cast<unsigned char>(value);
  return to;
}

extern "C" TIPC_NOT_A_LIBRARY_CALL int memcmp(const void* a, const void* b, size_t size) {
  const auto* x = static_cast<const unsigned char*>(a);
  const auto* y = static_cast<const unsigned char*>(b);
  for (size_t i = 0; i < size; ++i) {
    if (x[i] != y[i]) return x[i] < y[i] ? -1 : 1;
  }
  return 0;
}
#else
int main(int argc, char** argv, char** envp) { return tipc::stand_in::run(argc, argv, envp); }
#endif
