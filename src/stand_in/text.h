#pragma once
// The string and output helpers of tipc-trace-stand-in, which has no C library
// (stand_in/system.h): what strlen, strcmp, strchr, getenv, atol and printf did for it.
#include <initializer_list>

#include "stand_in/system.h"

namespace tipc::stand_in {

inline size_t length(const char* text) {
  size_t n = 0;
  while (text[n] != '\0') ++n;
  return n;
}

inline bool starts_with(const char* text, const char* prefix) {
  while (*prefix != '\0' && *text == *prefix) ++text, ++prefix;
  return *prefix == '\0';
}

inline bool equal(const char* a, const char* b) { return starts_with(a, b) && a[length(b)] == '\0'; }

inline const char* find(const char* text, char wanted) {
  for (; *text != '\0'; ++text) {
    if (*text == wanted) return text;
  }
  return nullptr;
}

inline const char* find_last(const char* text, char wanted) {
  const char* found = nullptr;
  for (; *text != '\0'; ++text) {
    if (*text == wanted) found = text;
  }
  return found;
}

inline bool contains(const char* text, const char* needle) {
  for (; *text != '\0'; ++text) {
    if (starts_with(text, needle)) return true;
  }
  return false;
}

// The value of NAME in environment (a null-terminated list of "NAME=VALUE"), or nullptr.
inline const char* variable(char* const* environment, const char* name) {
  const size_t n = length(name);
  for (char* const* entry = environment; *entry != nullptr; ++entry) {
    if (starts_with(*entry, name) && (*entry)[n] == '=') return *entry + n + 1;
  }
  return nullptr;
}

// Appends the parts to out (capacity bytes, NUL-terminated); false when they do not fit.
inline bool join(char* out, size_t capacity, std::initializer_list<const char*> parts) {
  size_t used = 0;
  for (const char* part : parts) {
    for (; *part != '\0'; ++part) {
      if (used + 1 >= capacity) return false;
      out[used++] = *part;
    }
  }
  if (capacity == 0) return false;
  out[used] = '\0';
  return true;
}

// Writes value in decimal into out, which holds at least 24 bytes.
inline void format_count(char* out, long value) {
  char digits[24];
  int n = 0;
  unsigned long rest = value < 0 ? 0UL - static_cast<unsigned long>(value) : static_cast<unsigned long>(value);
  do {
    digits[n++] = static_cast<char>('0' + rest % 10);
    rest /= 10;
  } while (rest != 0);
  if (value < 0) *out++ = '-';
  while (n > 0) *out++ = digits[--n];
  *out = '\0';
}

// atol's reading: optional blanks and a sign, then digits.
inline long parse_count(const char* text) {
  while (*text == ' ' || *text == '\t') ++text;
  const bool negative = *text == '-';
  if (*text == '-' || *text == '+') ++text;
  long value = 0;
  for (; *text >= '0' && *text <= '9'; ++text) value = value * 10 + (*text - '0');
  return negative ? -value : value;
}

// Writes all of data to fd: 0, or the negative errno of the write that failed.
inline long write_all(int fd, const char* data, size_t size) {
  while (size > 0) {
    const long n = write_some(fd, data, size);
    if (n == -EINTR) continue;
    if (n <= 0) return n == 0 ? -EIO : n;
    data += n;
    size -= static_cast<size_t>(n);
  }
  return 0;
}

inline void write_text(int fd, const char* text) { write_all(fd, text, length(text)); }

// strerror's text for the errors a file operation meets (error is a negative errno).
inline const char* error_text(long error) {
  switch (-error) {
    case ENOENT: return "No such file or directory";
    case EACCES: return "Permission denied";
    case ENOSPC: return "No space left on device";
    case EROFS: return "Read-only file system";
    case ENOTDIR: return "Not a directory";
    case EISDIR: return "Is a directory";
    case EMFILE: return "Too many open files";
    case ENOMEM: return "Cannot allocate memory";
    case EPIPE: return "Broken pipe";
    case EIO: return "Input/output error";
    default: return "Unknown error";
  }
}

// "PROGRAM: WHAT: ERROR" on standard error, as the system's programs word it.
inline void complain(const char* program, const char* what, long error) {
  for (const char* part : {program, ": ", what, ": ", error_text(error), "\n"}) write_text(2, part);
}

}  // namespace tipc::stand_in
