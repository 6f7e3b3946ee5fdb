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
// Nothing ran: no stage of the run passed or failed (pytest's 5 for "no tests collected").
inline constexpr int kExitNothingRan = 5;
// A comparison found a regression that fails (`tipc-run compare`, `--baseline`): distinct from
// a stage's failure, so CI can tell "slower" from "broken".
inline constexpr int kExitRegressed = 6;
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

namespace detail {
template <typename T>
T take_value(Result<T>&& result) {
  return std::move(*result);
}
inline void take_value(Result<void>&&) {}
}  // namespace detail

// TRY(expression): the value of a Result, or an early return of its error from the enclosing
// function (which must return a Result). It keeps the happy path readable where
// `if (!x) return fail(x.error());` would follow every call; a Result<void> gives no value.
// A GNU statement expression (GCC and Clang), as ccache's and systemd's equivalents use, because
// only a statement can return from the caller.
#define TRY(...)                                                                     \
  ({                                                                                 \
    auto tipc_try_result_ = (__VA_ARGS__);                                           \
    if (!tipc_try_result_) return ::tipc::fail(std::move(tipc_try_result_).error()); \
    ::tipc::detail::take_value(std::move(tipc_try_result_));                         \
  })

// The text of an errno value ("No such file or directory"), for messages.
std::string errno_text(int code);

}  // namespace tipc
