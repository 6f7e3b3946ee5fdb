#include "report/results_log_reporter.h"

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <iostream>

#include <fmt/format.h>

#include "core/error.h"
#include "plan/traced_status.h"

namespace tipc::report {
namespace fs = std::filesystem;
std::string ResultsLogReporter::path_of(const plan::Plan& plan) const {
  return (fs::path(repo_root_) / plan.run_dir / plan.results_log).lexically_normal().string();
}

void ResultsLogReporter::run_started(const run::RunInfo& info) {
  for (const auto* plan : info.plans) {
    const std::string path = path_of(*plan);
    std::error_code ec;
    fs::create_directories(fs::path(path).parent_path(), ec);
    if (!compat_ && !keep_existing_) {  // a fresh log per run (D12)
      std::ofstream fresh(path, std::ios::trunc);
      if (!fresh) note_write_error(path);
    }
    banner_written_[plan] = plan->banner.empty() && (!compat_ || plan->leading_status_lines.empty());
  }
}

bool ResultsLogReporter::compat_word(const run::StageRecord& record) {
  const bool own = reference_success(record, true);
  compat_success_[{record.plan, record.stage->id}] = own;
  if (record.stage->results_log.status_from.empty()) return own;
  const auto other = compat_success_.find({record.plan, record.stage->results_log.status_from});
  return other == compat_success_.end() ? own : other->second;
}

bool ResultsLogReporter::reference_success(const run::StageRecord& record, bool compat) {
  if (!compat) return run::is_passed(record.verdict.result);
  const run::Observation& o = record.observation;
  if (o.trainer_log_found) return *o.trainer_log_found;  // the reference's `cat train.log` (D2)
  return o.exit_code == 0;
}

// Compat: the runner writes a server's line as soon as it has started it in the background,
// with the status of `cmd &`, which is 0 (a server that later dies is not in its log).
void ResultsLogReporter::stage_started(const run::StageRecord& record) {
  if (compat_ && record.stage->service) append_status_line(record, true);
}

// The runner runs every command in turn and reports each with the status bash gave it; a
// line here stands for a command tipc-run itself tried. So a stage that ran has one. In
// compat, so has a stage tipc-run tried and could not start (a launch error: a program that
// cannot be executed, a working directory that cannot be entered): the runner's bash fails
// such a command too (126, 127, a failed `cd`), and its line says `Run failed`. A stage
// tipc-run never tried has none, in either mode, although the runner, which stops for
// nothing, would have run it: UNSUPPORTED (impossible here, as planned), SKIPPED (after a
// failed dependency, --fail-fast, an interrupt), passed by --resume. Its word would be a guess;
// the console and the reports give its result and why.
bool ResultsLogReporter::writes_line(const run::StageRecord& record) const {
  return record.observation.started || (compat_ && !record.observation.launch_error.empty());
}

void ResultsLogReporter::stage_finished(const run::StageRecord& record) {
  if (!writes_line(record)) return;
  if (compat_ && record.stage->service) return;  // written when it started
  append_status_line(record, compat_ ? compat_word(record) : reference_success(record, false));
}

void ResultsLogReporter::append_status_line(const run::StageRecord& record, bool success) {
  const plan::Plan& plan = *record.plan;
  std::string text;
  if (!banner_written_[&plan]) {  // with the lines a runner wrote before any stage's (compat)
    if (!plan.banner.empty()) text = plan.banner + '\n';
    if (compat_) {
      for (const auto& leading : plan.leading_status_lines) text += leading + '\n';
    }
    banner_written_[&plan] = true;
  }
  if (const auto line = plan::render_status_line(plan, *record.stage, success)) {
    text += (compat_ ? *line : plan::without_escape_codes(*line)) + '\n';
  }
  if (compat_) {
    for (const auto& trailing : record.stage->results_log.trailing_status_lines) text += trailing + '\n';
  }
  if (text.empty()) return;
  const std::string path = path_of(plan);
  std::ofstream out(path, std::ios::app | std::ios::binary);
  if (!out || !out.write(text.data(), static_cast<std::streamsize>(text.size())) || !out.flush()) note_write_error(path);
}

void ResultsLogReporter::note_write_error(const std::string& path) {
  const int code = errno;
  if (!write_error_.empty()) return;
  write_error_ = fmt::format("cannot write {}: {}", path, errno_text(code));
  std::cerr << "tipc-run: error: " << write_error_ << '\n';
}

}  // namespace tipc::report
