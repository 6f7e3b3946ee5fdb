#pragma once
// Turning a command string into an argv without running a shell.
//
// The reference hands every command string to `eval` while IFS is `|` (docs/reference-runner.md#the-shell-re-parse): a
// `|` acts as a space, quotes are removed, redirections are applied by the shell. We
// tokenise the same way for the constructs the real configs use (words, '..', "..",
// backslashes, `> file`, `2>&1`) and report everything else a shell would interpret
// ($, backticks, ;, &&, globs ...) instead of executing it (D6 in docs/reference-runner.md).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"

namespace tipc::plan {

struct ShellWords {
  std::vector<std::string> words;             // argv, redirections removed
  std::optional<std::string> stdout_file;     // `> file`
  bool stderr_to_stdout = false;              // `2>&1`
  std::vector<std::string> shell_constructs;  // what a shell would have interpreted, for warnings
};

struct ShellSplitOptions {
  bool pipe_is_space = true;  // the reference's IFS='|' re-join
};

Result<ShellWords> split_shell_words(std::string_view text, const ShellSplitOptions& options);

// The word as a POSIX shell reads it back: unchanged when nothing in it is special,
// otherwise single-quoted. For showing commands; tipc-run itself never runs a shell.
std::string quote_shell_word(const std::string& word);
// The argv as one line a person can paste into a shell.
std::string join_shell_words(const std::vector<std::string>& argv);

}  // namespace tipc::plan
