#include "report/status_log.h"

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <utility>

#include <fmt/format.h>

#include "core/error.h"

namespace tipc::report {
namespace fs = std::filesystem;

StatusLog::StatusLog(std::string repo_root) : repo_root_(std::move(repo_root)) {}

std::string StatusLog::path_of(const plan::Plan& plan) const {
  return (fs::path(repo_root_) / plan.run_dir / plan.results_log).lexically_normal().string();
}

void StatusLog::open_logs(const run::RunInfo& info, bool fresh) {
  for (const auto* plan : info.plans) {
    opened_.erase(plan);
    const std::string path = path_of(*plan);
    std::error_code ec;
    fs::create_directories(fs::path(path).parent_path(), ec);
    if (fresh) {
      std::ofstream emptied(path, std::ios::trunc);
      if (!emptied) note_write_error(path);
    }
  }
}

void StatusLog::append(const plan::Plan& plan, const std::string& opening, const std::string& lines) {
  const std::string text = opened_.insert(&plan).second ? opening + lines : lines;
  if (text.empty()) return;
  const std::string path = path_of(plan);
  std::ofstream out(path, std::ios::app | std::ios::binary);
  if (!out || !out.write(text.data(), static_cast<std::streamsize>(text.size())) || !out.flush())
    note_write_error(path);
}

void StatusLog::note_write_error(const std::string& path) {
  const int code = errno;
  if (!write_error_.empty()) return;
  write_error_ = fmt::format("cannot write {}: {}", path, errno_text(code));
  std::cerr << "tipc-run: error: " << write_error_ << '\n';
}

}  // namespace tipc::report
