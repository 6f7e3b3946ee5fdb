#include "cli/history_import.h"

#include <filesystem>
#include <ostream>
#include <variant>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "history/history_location.h"
#include "cli/subcommand.h"
#include "core/error.h"
#include "history/run_history.h"
#include "report/bundle_reader.h"
#include "report/report_loader.h"

namespace tipc::cli {
namespace {
namespace fs = std::filesystem;

constexpr std::string_view kCommand = "history import";

struct ImportArgs {
  std::vector<std::string> inputs;
  std::optional<std::string> history;
};

std::variant<ImportArgs, int> parse_import_args(const std::vector<std::string>& args, std::ostream& out,
                                                std::ostream& err) {
  ImportArgs parsed;
  CLI::App app{"Record existing runs in the run history: output directories and bundles", "tipc-run history import"};
  app.add_option("DIR_OR_BUNDLE", parsed.inputs,
                 "an output directory holding a run's state, or a bundle (--bundle FILE.tar.gz)")
      ->required();
  app.add_option("--history", parsed.history,
                 "the run history (default: the settings' history:, else test_tipc/output/.tipc-history.sqlite)");
  if (const auto code = parse_subcommand(app, args, out, err)) return *code;
  return parsed;
}

// The run an input holds, and where its reports are: the directory, or the bundle itself.
struct ImportedRun {
  report::RunReport report;
  std::string location;
};

Result<ImportedRun> load_input(const std::string& input) {
  std::error_code ec;
  const std::string location = fs::absolute(input, ec).lexically_normal().string();
  ImportedRun run{{}, location};
  if (fs::is_directory(input, ec)) {
    run.report = TRY(report::load_run_report(input));
  } else if (fs::is_regular_file(input, ec)) {
    run.report = TRY(report::load_bundle_report(input));
  } else {
    return fail(Error::at(input, 0, "", "no such directory or bundle"));
  }
  if (!run.report.finished) {
    return fail(Error::at(input, 0, "",
                          "the run did not finish (interrupted, or still running): only finished runs are recorded"));
  }
  return run;
}

Result<history::RunHistory> open_history(const std::optional<std::string>& history_option) {
  const history::RepositoryHere repository = TRY(history::repository_here());
  const auto path = history::history_path_of(history_option, repository.settings, repository.root);
  if (!path) {
    return fail(Error::plain("the settings turn the run history off (history: false): name one with --history"));
  }
  std::error_code ec;
  fs::create_directories(fs::path(*path).parent_path(), ec);
  return history::RunHistory::open(*path);
}

// Says what became of `input`; false when it failed.
bool import_one(history::RunHistory& history, const std::string& input, std::ostream& out, std::ostream& err) {
  auto run = load_input(input);
  auto recorded = run ? history.record_new(run->report, run->location) : tl::unexpected(run.error());
  if (!recorded) {
    subcommand_error(kCommand, recorded.error(), err);
    return false;
  }
  out << fmt::format("{} {} as run {}\n", recorded->already ? "already recorded" : "imported", input, recorded->id);
  return true;
}

}  // namespace

int history_import_main(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  auto parsed = parse_import_args(args, out, err);
  if (const int* code = std::get_if<int>(&parsed)) return *code;
  const ImportArgs& import_args = std::get<ImportArgs>(parsed);
  auto history = open_history(import_args.history);
  if (!history) return subcommand_error(kCommand, history.error(), err);
  std::size_t failed = 0;
  for (const std::string& input : import_args.inputs) failed += import_one(*history, input, out, err) ? 0 : 1;
  if (failed > 0) {
    err << fmt::format("tipc-run {}: {} of {} inputs not imported into {}\n", kCommand, failed,
                       import_args.inputs.size(), history->path());
    return kExitUsage;
  }
  return kExitPassed;
}

}  // namespace tipc::cli
