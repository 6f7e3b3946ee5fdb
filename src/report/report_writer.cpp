#include "report/report_writer.h"

#include <filesystem>

#include <fmt/format.h>

#include "core/atomic_file.h"
#include "report/benchmark_record.h"
#include "report/bundle.h"
#include "report/html_report.h"
#include "report/json_report.h"
#include "report/junit_report.h"
#include "report/markdown_report.h"
#include "report/report_loader.h"

namespace tipc::report {

const std::vector<ReportFile>& report_files() {
  static const std::vector<ReportFile> files = {
      {"report.json", render_json_report, write_json_report},
      {"junit.xml", render_junit_report},
      {"summary.md", render_markdown_report},
      {"report.html", render_html_report},
  };
  return files;
}

namespace {

std::string absolute_dir(const std::string& dir) { return std::filesystem::absolute(dir).lexically_normal().string(); }

// `report`'s files into `dir`, which report.report_dir names.
Result<void> write_report_files(const RunReport& report, const std::string& dir) {
  for (const ReportFile& file : report_files()) {
    const std::string path = (std::filesystem::path(dir) / file.name).string();
    auto written = file.write ? write_file_atomically(path, [&](std::ostream& out) { file.write(report, out); })
                              : write_file_atomically(path, file.render(report));
    if (!written) return written;
  }
  return {};
}

}  // namespace

Result<void> write_reports(const RunReport& model, const std::string& dir) {
  RunReport report = model;
  report.report_dir = absolute_dir(dir);
  return write_report_files(report, dir);
}

std::string report_directory(const std::string& repo_root, const std::vector<const plan::Plan*>& plans) {
  if (plans.size() == 1) return run::plan_output_path(repo_root, *plans.front());
  return (std::filesystem::path(repo_root) / "test_tipc" / "output").string();
}

void ReportWriter::run_started(const run::RunInfo& info) {
  journal_.run_started(info);
  report_.reset();
  plan_files_.clear();
  for (const auto* plan : info.plans) plan_files_.push_back(run::plan_file_path(repo_root_, *plan));
  directory_ = report_directory(repo_root_, info.plans);
  // This run is compared with its baseline, if at all, once it finished (cli).
  for (const auto* plan : info.plans) remove_baseline_file(run::plan_output_path(repo_root_, *plan));
  if (!environment_) return;
  // Not recorded is not a failed run: the reports then show no environment.
  for (const auto* plan : info.plans) {
    if (auto ok = write_environment_file(run::plan_output_path(repo_root_, *plan), *environment_); !ok) {
      out_ << "tipc-run: warning: " << ok.error().str() << '\n';
    }
  }
}

// The reports' directory, and the bundle when asked for.
Result<std::string> ReportWriter::write_all() {
  // Loaded into report_ and rendered from there: a copy of a 1000-stage model is about 2 MB.
  report_ = TRY(load_run_report_files(plan_files_));
  report_->report_dir = absolute_dir(directory_);
  TRY(write_report_files(*report_, directory_));
  TRY(write_benchmark_records(*report_));  // Paddle's benchmark database reads these
  if (bundle_) {
    TRY(write_bundle(*report_, directory_, *bundle_));
  }
  return directory_;
}

void ReportWriter::stage_finished(const run::StageRecord& record) { journal_.stage_finished(record); }

void ReportWriter::run_finished(const run::RunSummary& summary) {
  journal_.run_finished(summary);
  if (!state_error().empty()) {
    out_ << "tipc-run: no reports: " << state_error() << '\n';
    return;
  }
  std::vector<std::string> names;
  for (const ReportFile& file : report_files()) names.push_back(file.name);
  if (const auto written = write_all()) {
    out_ << fmt::format("tipc-run: reports in {} ({}){}\n", *written, fmt::join(names, ", "),
                        bundle_ ? ", bundle " + *bundle_ : "");
  } else {
    out_ << "tipc-run: warning: reports: " << written.error().str() << '\n';
    if (bundle_) bundle_error_ = fmt::format("no bundle {}: {}", *bundle_, written.error().str());
  }
}

}  // namespace tipc::report
