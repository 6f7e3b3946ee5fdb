#include "cli/history_import.h"

#include <ostream>
#include <variant>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "cli/subcommand.h"
#include "core/error.h"
#include "history/run_import.h"

namespace tipc::cli {
namespace {

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

// Says what became of `input`; false when it failed.
bool import_one(history::RunHistory& history, const std::string& input, std::ostream& out, std::ostream& err) {
  auto run = history::load_imported_run(input);
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
  auto history = history::open_history_here(import_args.history);
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
