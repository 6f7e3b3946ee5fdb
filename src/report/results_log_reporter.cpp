#include "report/results_log_reporter.h"

#include <filesystem>
#include <fstream>

namespace tipc::report {
namespace fs = std::filesystem;
namespace {

std::string without_escape_codes(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\x1b' && i + 1 < text.size() && text[i + 1] == '[') {
      const std::size_t end = text.find('m', i);
      if (end != std::string::npos) {
        i = end;
        continue;
      }
    }
    out += text[i];
  }
  return out;
}

}  // namespace

std::string ResultsLogReporter::path_of(const plan::Plan& plan) const {
  return (fs::path(repo_root_) / plan.run_dir / plan.results_log).lexically_normal().string();
}

void ResultsLogReporter::run_started(const run::RunInfo& info) {
  for (const auto* plan : info.plans) {
    const std::string path = path_of(*plan);
    std::error_code ec;
    fs::create_directories(fs::path(path).parent_path(), ec);
    if (!compat_ && !keep_existing_) std::ofstream(path, std::ios::trunc);  // a fresh log per run (D12)
    banner_written_[plan] = plan->banner.empty();
  }
}

bool ResultsLogReporter::reference_success(const run::StageRecord& record, bool compat) {
  if (!compat) return record.verdict.result == run::Status::kPass;
  const run::Observation& o = record.observation;
  if (o.trainer_log_found) return *o.trainer_log_found;  // the reference's `cat train.log` (D2)
  return o.exit_code == 0;
}

void ResultsLogReporter::stage_finished(const run::StageRecord& record) {
  if (!record.observation.started) return;  // the reference writes lines only for commands it ran
  const plan::Plan& plan = *record.plan;
  std::ofstream out(path_of(plan), std::ios::app | std::ios::binary);
  if (!banner_written_[&plan]) {
    out << plan.banner << '\n';
    banner_written_[&plan] = true;
  }
  const auto line = plan::render_status_line(plan, *record.stage, reference_success(record, compat_));
  if (!line) return;
  out << (compat_ ? *line : without_escape_codes(*line)) << '\n';
}

}  // namespace tipc::report
