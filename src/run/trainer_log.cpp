#include "run/trainer_log.h"

#include <glob.h>

namespace tipc::run {

std::vector<std::string> trainer_log_files(const std::string& pattern) {
  if (pattern.find_first_of("*?[") == std::string::npos) return {pattern};
  glob_t matches{};
  std::vector<std::string> files;
  if (glob(pattern.c_str(), 0, nullptr, &matches) == 0)
    files.assign(matches.gl_pathv, matches.gl_pathv + matches.gl_pathc);
  globfree(&matches);
  return files;
}

TrainerLogCopy::TrainerLogCopy(const std::string& pattern, const std::vector<LogPattern>& checks)
    : files_(trainer_log_files(pattern)), scanner_(checks) {}

// A file that cannot be opened is left out, as cat leaves it out.
std::string_view TrainerLogCopy::next(std::span<char> buffer) {
  while (true) {
    if (!in_.is_open()) {
      if (next_file_ == files_.size()) return {};
      in_.open(files_[next_file_++], std::ios::binary);
      if (!in_.is_open()) continue;
      found_ = true;
    }
    in_.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    const std::string_view piece(buffer.data(), static_cast<std::size_t>(in_.gcount()));
    if (!piece.empty()) {
      scanner_.feed(piece);
      return piece;
    }
    in_.close();
    in_.clear();
  }
}

TrainerLogOutcome TrainerLogCopy::finish() && {
  if (found_) scanner_.finish();
  return {found_, scanner_.findings()};
}

TrainerLogOutcome append_trainer_log(const std::string& pattern, const std::string& to,
                                     const std::vector<LogPattern>& checks) {
  TrainerLogCopy copy(pattern, checks);
  std::vector<char> buffer(64 << 10);
  std::ofstream out;
  for (auto piece = copy.next(buffer); !piece.empty(); piece = copy.next(buffer)) {
    if (!out.is_open()) out.open(to, std::ios::binary | std::ios::app);
    out.write(piece.data(), static_cast<std::streamsize>(piece.size()));
  }
  return std::move(copy).finish();
}

}  // namespace tipc::run
