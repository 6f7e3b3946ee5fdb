#include "cli/acceptance_command.h"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <filesystem>
#include <iostream>
#include <map>
#include <optional>
#include <variant>

#include "align/checks/acceptance.h"
#include "align/checks/acceptance_report.h"
#include "align/checks/diff_log.h"
#include "cli/subcommand.h"
#include "compat/reprod_log_rules.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "report/bundle.h"

namespace tipc::cli {
namespace {

namespace fs = std::filesystem;

struct AcceptanceArgs {
  std::string dir;
  std::optional<std::string> config;
  std::optional<std::string> bundle;
  std::vector<std::string> attach;
  bool compat = false;
};

// Returns the parsed arguments, or the exit code (0 after --help).
std::variant<AcceptanceArgs, int> parse_acceptance_args(const std::vector<std::string>& args, std::ostream& out,
                                                        std::ostream& err) {
  AcceptanceArgs parsed;
  CLI::App app{"Run the five reprod_log acceptance checks of a paper reproduction", "tipc-run acceptance"};
  app.add_option("DIR", parsed.dir, "reproduction folder (also searched: DIR/log_reprod, DIR/diff)")->required();
  app.add_option("--config", parsed.config, "YAML file: acceptance: {forward: 1e-6, ..., train_align: 0.0015}");
  CLI::Option* bundle = app.add_option("--bundle", parsed.bundle,
                                       "also write the logs this run wrote (never an earlier run's) to this .tar.gz");
  app.add_option("--attach", parsed.attach,
                 "also put this file (an init-check or padiff report, a plot) in the bundle, under its file name; "
                 "repeatable")
      ->check(CLI::ExistingFile)
      ->allow_extra_args(false)
      ->needs(bundle);
  app.add_flag("--compat", parsed.compat,
               "reprod_log's behaviour: NaN passes, extra nested keys are ignored, integers wrap around");
  if (const auto code = parse_subcommand(app, args, out, err)) return *code;
  return parsed;
}

fs::path log_path(const std::string& dir, const align::CheckOutcome& outcome) {
  return fs::path(dir) / (outcome.check.name + "_diff.log");
}

// An earlier run's log of a check that wrote none now (its pair is missing or unreadable)
// would pass for this run's: it becomes <check>_diff.log.stale, replacing an older one.
Result<void> retire_stale_log(const fs::path& log, std::ostream& err) {
  std::error_code ec;
  if (!fs::exists(log, ec)) return {};
  const fs::path stale = log.string() + ".stale";
  fs::rename(log, stale, ec);
  if (ec) return fail(Error::at(log.string(), 0, "", "cannot rename an earlier run's log: " + ec.message()));
  err << "tipc-run acceptance: renamed the earlier run's " << log.filename().string() << " to "
      << stale.filename().string() << '\n';
  return {};
}

// One log per compared check, as the acceptance bundle wants. Missing or unreadable pairs
// get none: reprod_log would have raised before logging anything. Returns the logs written.
Result<std::vector<std::string>> write_logs(const std::string& dir, const align::AcceptanceReport& report,
                                            std::ostream& err) {
  const std::string timestamp = align::reprod_log_timestamp();
  std::vector<std::string> written;
  for (const align::CheckOutcome& outcome : report.outcomes) {
    const fs::path log = log_path(dir, outcome);
    TRY(outcome.diff ? write_file_atomically(log.string(), align::render_diff_log(*outcome.diff, timestamp))
                     : retire_stale_log(log, err));
    if (outcome.diff) written.push_back(log.string());
  }
  return written;
}

// The bundle holds exactly the logs written above and the attached files, under their file
// names; two files of one name are an error (one would hide the other).
Result<void> write_acceptance_bundle(const std::vector<std::string>& logs, const std::vector<std::string>& attached,
                                     const std::string& bundle_path) {
  std::vector<report::BundleMember> members;
  std::map<std::string, std::string> paths_by_name;
  for (const auto* files : {&logs, &attached}) {
    for (const std::string& file : *files) {
      const std::string name = fs::path(file).filename().string();
      if (const auto [it, added] = paths_by_name.emplace(name, file); !added)
        return fail(
            Error::plain(fmt::format("--attach: {} and {} would both be '{}' in the bundle", it->second, file, name)));
      members.push_back({name, file});
    }
  }
  return report::write_bundle_members(members, bundle_path);
}

Result<std::vector<align::AcceptanceCheck>> configured_checks(const AcceptanceArgs& args) {
  auto checks = align::default_acceptance_checks();
  if (!args.config) return checks;
  return align::apply_threshold_file(std::move(checks), *args.config);
}

}  // namespace

int acceptance_main(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  auto parsed = parse_acceptance_args(args, out, err);
  if (const int* code = std::get_if<int>(&parsed)) return *code;
  const AcceptanceArgs& acceptance_args = std::get<AcceptanceArgs>(parsed);
  std::error_code ec;
  if (!fs::is_directory(acceptance_args.dir, ec)) {
    err << "tipc-run acceptance: error: " << acceptance_args.dir << ": not a directory\n";
    return kExitUsage;
  }
  const auto checks = configured_checks(acceptance_args);
  if (!checks) return subcommand_error("acceptance", checks.error(), err);
  const auto report = align::run_acceptance(acceptance_args.dir, *checks, compat::diff_rules(acceptance_args.compat));
  out << align::render_acceptance_table(acceptance_args.dir, report) << std::flush;
  for (const std::string& finding : align::acceptance_findings(report))
    err << "tipc-run acceptance: " << finding << '\n';
  const auto logs = write_logs(acceptance_args.dir, report, err);
  if (!logs) return subcommand_error("acceptance", logs.error(), err);
  if (acceptance_args.bundle) {
    if (auto bundled = write_acceptance_bundle(*logs, acceptance_args.attach, *acceptance_args.bundle); !bundled) {
      return subcommand_error("acceptance", bundled.error(), err);
    }
  }
  return report.exit_code();
}

int acceptance_main(const std::vector<std::string>& args) { return acceptance_main(args, std::cout, std::cerr); }

}  // namespace tipc::cli
