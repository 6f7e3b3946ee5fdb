#include "trace/passed_env.h"

#include <algorithm>
#include <iterator>

namespace tipc::trace {

std::optional<std::string> passed_variable_refusal(const std::string& name) {
  const auto digit = [](char c) { return c >= '0' && c <= '9'; };
  const auto word_character = [&](char c) {
    return c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || digit(c);
  };
  if (name.empty() || digit(name[0]) || !std::all_of(name.begin(), name.end(), word_character)) {
    return "not a variable name (letters, digits and _, not starting with a digit)";
  }
  // The trace's own environment (tracer.cpp, start_environment) and tipc-run's variables.
  static const char* const own[] = {"PATH", "HOME", "LC_ALL", "TMPDIR"};
  if (name.starts_with("TIPC_") || std::find(std::begin(own), std::end(own), name) != std::end(own)) {
    return "the trace sets it itself: the stand-ins, its scratch home and temporary directory, its locale";
  }
  // What bash reads at its start: the file that records every evaluated string (BASH_ENV),
  // POSIX mode (in which `eval` is found before the function that records it), options.
  static const char* const shell[] = {"ENV", "SHELLOPTS", "BASHOPTS", "POSIXLY_CORRECT"};
  if (name.starts_with("BASH") || std::find(std::begin(shell), std::end(shell), name) != std::end(shell)) {
    return "it changes how bash runs the runner, and the trace relies on how that is";
  }
  if (name == "CUDA_VISIBLE_DEVICES") return "tipc-run allocates the GPUs and sets it for each stage";
  return std::nullopt;
}

}  // namespace tipc::trace
