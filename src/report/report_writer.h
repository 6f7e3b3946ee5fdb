#pragma once
// Writes a run's state and, when it finishes, its reports. The reports are loaded from the
// state the run left on disk (report_loader.h), exactly as `tipc-run report DIR` does, never
// from the events, so both give the same files. It owns the run's JournalWriter and hands
// it each event first: one listener, so the journal is complete before the reports read it.
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "core/error.h"
#include "report/run_report.h"
#include "run/events.h"
#include "run/journal.h"

namespace tipc::report {

// A report file and its renderer (a pure function of the model); `write`, where set, writes
// the same text piece by piece, and the file is written with it.
struct ReportFile {
  const char* name;
  std::string (*render)(const RunReport&);
  void (*write)(const RunReport&, std::ostream&) = nullptr;
};

// Every report file, in the order they are written: report.json, junit.xml, summary.md, report.html.
// The one place a new report (report.html) is added.
const std::vector<ReportFile>& report_files();

// Renders every report file into `dir`, each atomically (a temp file, then a rename);
// report.html's links are relative to `dir`.
Result<void> write_reports(const RunReport& report, const std::string& dir);

// Where a run's reports go: the plan's output directory for one plan, else
// <repo>/test_tipc/output.
std::string report_directory(const std::string& repo_root, const std::vector<const plan::Plan*>& plans);

class ReportWriter : public run::Listener {
 public:
  // `state`: what the journal records; `out` gets one line naming the reports (or why there
  // are none); `bundle` is --bundle's file.
  ReportWriter(run::RunContext state, std::optional<std::string> bundle, std::ostream& out)
      : repo_root_(state.repo_root), journal_(std::move(state)), bundle_(std::move(bundle)), out_(out) {}
  // Kept beside each plan file when the run starts (environment.h), so that every report shows it.
  void set_environment(Environment environment) { environment_ = std::move(environment); }
  void run_started(const run::RunInfo& info) override;
  void stage_finished(const run::StageRecord& record) override;
  void run_finished(const run::RunSummary& summary) override;
  // The whole plan as the reports describe it (this run merged with the results it did not
  // replace); nullopt until the run finished, or when the state files could not be written or read.
  const std::optional<RunReport>& report() const { return report_; }
  // The first failure to write the run's state (JournalWriter::write_error); "" while none.
  // Then no reports are written: they would not show this run's results.
  const std::string& state_error() const { return journal_.write_error(); }
  // Why --bundle's file was not written (the reports or the bundle failed); "" when it was,
  // or when none was asked for. A run asked for a bundle does not pass without one.
  const std::string& bundle_error() const { return bundle_error_; }

 private:
  Result<std::string> write_all();

  std::string repo_root_;
  run::JournalWriter journal_;
  std::optional<std::string> bundle_;
  std::string bundle_error_;
  std::ostream& out_;
  std::vector<std::string> plan_files_;
  std::string directory_;
  std::optional<RunReport> report_;
  std::optional<Environment> environment_;
};

}  // namespace tipc::report
