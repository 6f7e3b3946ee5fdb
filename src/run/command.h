#pragma once
// Short helper commands whose output tipc-run reads (nvidia-smi, sinfo, squeue, scancel):
// started without a shell, stdin from /dev/null, stdout and stderr captured together,
// killed when they overrun their time.
#include <optional>
#include <string>
#include <vector>

namespace tipc::run {

struct CommandResult {
  std::optional<int> exit_code;  // nullopt: it did not start, was killed or timed out
  std::string output;            // stdout and stderr, or why it did not start
  bool ok() const { return exit_code == 0; }
};

CommandResult run_command(const std::vector<std::string>& argv, double timeout_seconds = 30);

}  // namespace tipc::run
