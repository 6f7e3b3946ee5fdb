#include "cli/report_command.h"

#include <filesystem>
#include <iostream>
#include <optional>
#include <variant>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "cli/subcommand.h"
#include "core/error.h"
#include "history/report_trends.h"
#include "report/bundle.h"
#include "report/report_loader.h"
#include "report/report_writer.h"

namespace tipc::cli {
namespace {

struct ReportArgs {
  std::vector<std::string> dirs;
  std::optional<std::string> output;  // where the merged reports of several dirs go
  std::optional<std::string> bundle;
  bool strict = false;
  bool allow_nothing = false;
  std::optional<std::string> history;  // where report.html's history section comes from
  bool no_history = false;
};

// Returns the parsed arguments, or the exit code (0 after --help).
std::variant<ReportArgs, int> parse_report_args(const std::vector<std::string>& args, std::ostream& out,
                                                std::ostream& err) {
  ReportArgs parsed;
  CLI::App app{
      "Rebuild a run's reports (report.json, junit.xml, summary.md, report.html) from the state it left on disk",
      "tipc-run report"};
  app.add_option("DIR", parsed.dirs,
                 "a run's output directory (test_tipc/output/<model>/<mode>, or test_tipc/output); several (the "
                 "shards of a --shard run): one report of them all, written to --output")
      ->required();
  app.add_option("-o,--output", parsed.output, "where the reports go (default: the one DIR; required with several)");
  app.add_option("--bundle", parsed.bundle, "also write the acceptance bundle to this .tar.gz");
  app.add_flag("--strict", parsed.strict, "UNSUPPORTED stages fail the run");
  app.add_flag("--allow-nothing", parsed.allow_nothing, "exit 0, not 5, when no stage of the last run ran");
  auto* history = app.add_option("--history", parsed.history,
                                 "the run history report.html's history section is read from (default: the run's)");
  app.add_flag("--no-history", parsed.no_history, "no history section in report.html")->excludes(history);
  if (const auto code = parse_subcommand(app, args, out, err)) return *code;
  if (parsed.dirs.size() > 1 && !parsed.output) {
    err << "tipc-run report: error: " << parsed.dirs.size()
        << " directories are merged into one report: say where it goes with --output DIR\n";
    return kExitUsage;
  }
  return parsed;
}

}  // namespace

int report_main(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  auto parsed = parse_report_args(args, out, err);
  if (const int* code = std::get_if<int>(&parsed)) return *code;
  const ReportArgs& report_args = std::get<ReportArgs>(parsed);
  const std::string dir = report_args.output.value_or(report_args.dirs.front());
  auto report = report_args.dirs.size() == 1 ? report::load_run_report(report_args.dirs.front())
                                             : report::load_merged_report(report_args.dirs);
  if (!report) return subcommand_error("report", report.error(), err);
  if (!report_args.no_history) report->trends = history::recorded_report_trends(*report, report_args.history, err);
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);  // a failure shows as the report's write error
  if (auto ok = report::write_reports(*report, dir); !ok) return subcommand_error("report", ok.error(), err);
  if (report_args.bundle) {
    if (auto ok = report::write_bundle(*report, dir, *report_args.bundle); !ok) {
      return subcommand_error("report", ok.error(), err);
    }
  }
  // The verdict of the whole plan: the stages a filtered or resumed run did not run count with their last result.
  const run::RunVerdict verdict = report->verdict();
  const int flaky = report->count(run::Status::kFlaky);
  out << fmt::format(
      "tipc-run report: {}: {}: {} passed, {} failed, {} timed out, {} unsupported, {} skipped, "
      "{} unresolved{}\n",
      dir, verdict.headline(), report->count(run::Status::kPass), report->count(run::Status::kFail),
      report->count(run::Status::kTimeout), report->count(run::Status::kUnsupported),
      report->count(run::Status::kSkipped), report->count(run::Status::kUnresolved),
      flaky > 0 ? fmt::format(", {} flaky", flaky) : "");
  if (const std::string why = verdict.explanation(); !why.empty()) out << "tipc-run report: " << why << '\n';
  for (const auto& problem : report->invalid_configs) {
    out << fmt::format("tipc-run report: invalid config, left out: {}:{}: {}\n", problem.file, problem.line,
                       problem.message);
  }
  // The report itself was not interrupted: a run that was is no pass, and exits 1 here.
  const int code = report->exit_code({report_args.strict, report_args.allow_nothing});
  return code == kExitInterrupted ? kExitFailed : code;
}

int report_main(const std::vector<std::string>& args) { return report_main(args, std::cout, std::cerr); }

}  // namespace tipc::cli
