#include "cli/subcommand.h"

#include <array>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "cli/acceptance_command.h"
#include "cli/compare_command.h"
#include "cli/compare_results_command.h"
#include "cli/diff_command.h"
#include "cli/help_command.h"
#include "cli/history_command.h"
#include "cli/init_check_command.h"
#include "cli/modes_command.h"
#include "cli/padiff_command.h"
#include "cli/report_command.h"
#include "cli/setup_command.h"
#include "core/error.h"

namespace tipc::cli {

namespace {

// The one-argument overloads: the commands write to stdout and stderr.
constexpr auto run_report = static_cast<Subcommand::Main>(report_main);
constexpr auto run_diff = static_cast<Subcommand::Main>(diff_main);
constexpr auto run_acceptance = static_cast<Subcommand::Main>(acceptance_main);
constexpr auto run_padiff = static_cast<Subcommand::Main>(padiff_main);
constexpr auto run_init_check = static_cast<Subcommand::Main>(init_check_main);
constexpr auto run_compare_results = static_cast<Subcommand::Main>(compare_results_main);
constexpr auto run_modes = static_cast<Subcommand::Main>(modes_main);
constexpr auto run_setup = static_cast<Subcommand::Main>(setup_main);
constexpr auto run_compare = static_cast<Subcommand::Main>(compare_main);
constexpr auto run_history = static_cast<Subcommand::Main>(history_main);

constexpr std::array kSubcommands{
    Subcommand{"report", "rebuild a run's reports (and its verdict) from the state it left on disk", run_report},
    Subcommand{"diff", "compare two reprod_log result files, like reprod_log's ReprodDiffHelper", run_diff},
    Subcommand{"acceptance", "the five reprod_log acceptance checks of a paper reproduction", run_acceptance},
    Subcommand{"padiff", "compare two PaDiff dumps layer by layer", run_padiff},
    Subcommand{"init-check", "compare the distributions of initialised weights", run_init_check},
    Subcommand{"compare-results", "compare inference logs with ground truth, like compare_results.py",
               run_compare_results},
    Subcommand{"compare", "compare a run with a baseline: results and figures, noise told from change", run_compare},
    Subcommand{"history", "the run history: the last runs, or one figure over them; `history import` records old runs",
               run_history},
    Subcommand{"help", "this help, or a subcommand's: tipc-run help SUBCOMMAND", help_main},
    Subcommand{"modes", "the modes of a config's chain, one a line (for the bash completion)", run_modes, false},
    Subcommand{"setup", "replay a runner's housekeeping (a plan's setup stage)", run_setup, false},
};

}  // namespace

std::span<const Subcommand> subcommands() { return kSubcommands; }

const Subcommand* find_subcommand(std::string_view name) {
  for (const Subcommand& s : kSubcommands) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

std::string subcommands_help() {
  std::string text = "Subcommands (tipc-run SUBCOMMAND --help for each):\n";
  for (const Subcommand& s : kSubcommands) {
    if (s.listed) text += fmt::format("  {:<17}{}\n", s.name, s.summary);
  }
  return text;
}

std::optional<int> parse_subcommand(CLI::App& app, const std::vector<std::string>& args, std::ostream& out,
                                    std::ostream& err) {
  std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 consumes from the back
  try {
    app.parse(reversed);
  } catch (const CLI::ParseError& e) {
    return app.exit(e, out, err) == 0 ? kExitPassed : kExitUsage;
  }
  return std::nullopt;
}

int subcommand_error(std::string_view name, const Error& error, std::ostream& err) {
  err << "tipc-run " << name << ": error: " << error.str() << '\n';
  return error.exit_code;
}

}  // namespace tipc::cli
