#include "support/fake_executor.h"

#include <algorithm>

#include "run/trainer_log.h"
#include "run/working_directory.h"

namespace tipc::run {

Result<void> FakeExecutor::start(const Launch& launch) {
  const auto it = scripts.find(launch.id);
  const Script& script = it == scripts.end() ? default_script : it->second;
  if (!script.launch_error.empty()) return fail(Error::plain(script.launch_error));
  if (script.cwd_error != 0) return fail(working_directory_error(launch.cwd, script.cwd_error));
  records.push_back({launch.id, now_, -1, launch.env, {}, launch, false});
  const std::size_t start = starts_[launch.id]++;
  const int exit_code = start < script.first_exit_codes.size() ? script.first_exit_codes[start] : script.exit_code;
  const double appending = launch.trainer_log.empty() ? 0 : script.appending_seconds;
  running_[launch.id] = {records.size() - 1, now_ + script.seconds, script.signal, exit_code, appending};
  return {};
}

std::optional<Finished> FakeExecutor::wait(Clock::time_point until) {
  const double limit = std::chrono::duration<double>(until - epoch_).count();
  auto next = std::min_element(running_.begin(), running_.end(),
                               [](const auto& a, const auto& b) { return a.second.end < b.second.end; });
  const double interrupt = interrupt_at >= now_ && !interrupt_fired_ ? interrupt_at : -1;
  if (interrupt >= 0 && interrupt <= limit && (next == running_.end() || interrupt < next->second.end)) {
    now_ = interrupt;
    interrupt_fired_ = true;
    return std::nullopt;
  }
  if (next == running_.end() || next->second.end > limit) {
    now_ = std::max(now_, limit);
    return std::nullopt;
  }
  now_ = std::max(now_, next->second.end);
  Record& record = records[next->second.record];
  record.end = now_;
  Finished done{next->first, std::nullopt, next->second.signal, {}, "", "", std::nullopt, std::nullopt, ""};
  if (!done.signal) done.exit_code = next->second.exit_code;
  const auto script = scripts.find(done.id);
  if (script != scripts.end()) done.log_findings = script->second.log_findings;
  // The copy happens at once; the virtual clock says it took the script's appending_seconds.
  if (const Launch& launch = record.launch; !launch.trainer_log.empty()) {
    TrainerLogOutcome appended = append_trainer_log(launch.trainer_log, launch.log_path, launch.checks);
    done.trainer_log_found = appended.found;
    done.log_findings.insert(done.log_findings.end(), appended.findings.begin(), appended.findings.end());
    done.processes_ended = epoch_ + to_duration(now_ - next->second.appending);
  }
  running_.erase(next);
  return done;
}

void FakeExecutor::signal(const std::string& id, int signal) {
  const auto it = running_.find(id);
  if (it == running_.end()) return;
  if (it->second.appending > 0 && now_ >= it->second.end - it->second.appending) return;  // no process left
  records[it->second.record].signals.push_back(signal);
  const auto script = scripts.find(id);
  const bool ignores = signal == SIGTERM && script != scripts.end() && script->second.ignores_sigterm;
  if (ignores) return;
  it->second.end = now_;
  it->second.signal = signal;
}

std::optional<int> FakeExecutor::process_group(const std::string& id) const {
  const auto it = running_.find(id);
  if (it == running_.end()) return std::nullopt;
  return 1000 + static_cast<int>(it->second.record);
}

std::optional<Clock::time_point> FakeExecutor::last_output(const std::string& id) const {
  const auto it = running_.find(id);
  if (it == running_.end()) return std::nullopt;
  const auto script = scripts.find(id);
  const double silent_after = script == scripts.end() ? default_script.silent_after : script->second.silent_after;
  const double start = records[it->second.record].start;
  return epoch_ + to_duration(silent_after < 0 ? now_ : std::min(now_, start + silent_after));
}

void FakeExecutor::dump_stacks(const std::string& id) {
  if (const auto it = running_.find(id); it != running_.end()) records[it->second.record].stacks_dumped = true;
}

}  // namespace tipc::run
