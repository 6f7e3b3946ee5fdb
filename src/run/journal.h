#pragma once
// The run journal (<LOG>/.tipc-journal.jsonl): one line per finished stage, written
// as it finishes, so a killed run can be resumed: --resume skips the stages that
// PASSed with an unchanged command.
#include <set>
#include <string>
#include <vector>

#include "run/events.h"

namespace tipc::run {

// Changes whenever the stage's argv, working directory or environment change.
std::string stage_fingerprint(const plan::Stage& stage);

std::string journal_path(const std::string& repo_root, const plan::Plan& plan);

// Stage keys (stage_key) whose last journal entry is a PASS with the same fingerprint.
std::set<std::string> passed_in_journal(const std::string& repo_root, const std::vector<const plan::Plan*>& plans);

class JournalWriter : public Listener {
 public:
  JournalWriter(std::string repo_root, bool keep_existing)
      : repo_root_(std::move(repo_root)), keep_existing_(keep_existing) {}
  void run_started(const RunInfo& info) override;
  void stage_finished(const StageRecord& record) override;

 private:
  std::string repo_root_;
  bool keep_existing_;
};

}  // namespace tipc::run
