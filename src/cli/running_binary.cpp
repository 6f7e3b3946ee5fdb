#include "cli/running_binary.h"

#include <filesystem>

namespace tipc::cli {

std::string running_binary() {
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? "tipc-run" : self.string();
}

}  // namespace tipc::cli
