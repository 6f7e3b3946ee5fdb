#pragma once
// One error convention for the whole project: recoverable failures travel as
// tl::expected<T, Error>; only main() turns an Error into a message and an exit code.
#include <string>
#include <vector>

#include <tl/expected.hpp>

namespace tipc {

// Exit codes decided once (lit / ninja convention).
inline constexpr int kExitPassed = 0;
inline constexpr int kExitFailed = 1;
inline constexpr int kExitUsage = 2;
inline constexpr int kExitInterrupted = 130;

// One finding about an input: where it is and what is wrong.
struct Diagnostic {
  std::string file;
  int line = 0;  // physical, 1-based; 0 when the whole file is meant
  std::string key;
  std::string message;

  std::string str() const;
};

struct Error {
  std::vector<Diagnostic> diagnostics;
  int exit_code = kExitUsage;

  static Error at(std::string file, int line, std::string key, std::string message);
  static Error plain(std::string message);
  std::string str() const;
};

template <typename T>
using Result = tl::expected<T, Error>;

inline tl::unexpected<Error> fail(Error error) { return tl::unexpected<Error>(std::move(error)); }

// The text of an errno value ("No such file or directory"), for messages.
std::string errno_text(int code);

}  // namespace tipc
