#include "run/journal.h"

#include <fcntl.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "run/scheduler.h"

namespace tipc::run {
namespace fs = std::filesystem;

std::string stage_fingerprint(const plan::Stage& stage) {
  std::uint64_t hash = 1469598103934665603ull;  // FNV-1a: stable across builds and machines
  auto mix = [&](const std::string& text) {
    for (unsigned char c : text) hash = (hash ^ c) * 1099511628211ull;
    hash = (hash ^ 0xff) * 1099511628211ull;  // separator
  };
  for (const auto& word : stage.argv) mix(word);
  mix(stage.cwd);
  for (const auto& [name, value] : stage.env) mix(name + "=" + value.value_or("<unset>"));
  return fmt::format("{:016x}", hash);
}

std::string journal_path(const std::string& repo_root, const plan::Plan& plan) {
  return (fs::path(repo_root) / plan.run_dir / plan.output_dir / ".tipc-journal.jsonl").lexically_normal().string();
}

std::set<std::string> passed_in_journal(const std::string& repo_root, const std::vector<const plan::Plan*>& plans) {
  std::set<std::string> passed;
  for (const auto* plan : plans) {
    std::map<std::string, std::pair<std::string, std::string>> last;  // id -> (result, fingerprint)
    std::ifstream in(journal_path(repo_root, *plan));
    for (std::string line; std::getline(in, line);) {
      const auto entry = nlohmann::json::parse(line, nullptr, false);
      if (entry.is_discarded() || !entry.contains("stage")) continue;  // a line cut by a crash
      last[entry["stage"]] = {entry.value("result", ""), entry.value("fingerprint", "")};
    }
    for (const auto& stage : plan->stages) {
      const auto it = last.find(stage.id);
      if (it != last.end() && it->second.first == "PASS" && it->second.second == stage_fingerprint(stage)) {
        passed.insert(stage_key(*plan, stage));
      }
    }
  }
  return passed;
}

void JournalWriter::run_started(const RunInfo& info) {
  for (const auto* plan : info.plans) {
    const std::string path = journal_path(repo_root_, *plan);
    std::error_code ec;
    fs::create_directories(fs::path(path).parent_path(), ec);
    if (!keep_existing_) std::ofstream(path, std::ios::trunc);
  }
}

void JournalWriter::stage_finished(const StageRecord& record) {
  if (record.resumed) return;
  const nlohmann::json entry = {{"stage", record.stage->id},
                                {"fingerprint", stage_fingerprint(*record.stage)},
                                {"result", to_string(record.verdict.result)},
                                {"reason", record.verdict.reason},
                                {"seconds", record.end_seconds >= 0 ? record.end_seconds - record.start_seconds : 0}};
  const std::string line = entry.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  // One O_APPEND write per entry: a crash leaves at most one cut line, which readers skip.
  const int fd = open(journal_path(repo_root_, *record.plan).c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return;
  [[maybe_unused]] const auto n = write(fd, line.data(), line.size());
  fsync(fd);
  close(fd);
}

}  // namespace tipc::run
