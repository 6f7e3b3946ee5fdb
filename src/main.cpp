// tipc-run: reads TIPC configs, plans their stages and runs them.
// main() is the list of phases: subcommands, options, then the run pipeline (cli/run_pipeline).
#include <csignal>
#include <iostream>
#include <optional>

#include "cli/options.h"
#include "cli/run_exit_code.h"
#include "cli/run_pipeline.h"
#include "cli/subcommand.h"
#include "cli/visible_console.h"

int main(int argc, char** argv) {
  using namespace tipc;
  // Paths, config values, archive entries and logs may hold terminal escapes: everything
  // printed through std::cout and std::cerr is shown as visible text.
  cli::make_console_streams_visible();
  // A file size limit (ulimit -f) makes a write fail with EFBIG, which is reported where
  // it happens, instead of killing tipc-run mid-run. Stages get the default back.
  std::signal(SIGXFSZ, SIG_IGN);
  // 0. Subcommands that are not a chain run: `tipc-run diff A B ...`.
  if (argc > 1) {
    if (const auto* subcommand = cli::find_subcommand(argv[1])) return subcommand->main({argv + 2, argv + argc});
  }

  // 1. Options.
  const auto options = cli::parse_options(argc, argv);
  if (!options) {
    (options.error().exit_code == kExitPassed ? std::cout : std::cerr) << options.error().str();
    return options.error().exit_code;
  }
  const int exit_code = cli::run_chain(*options);
  return options->bisect ? cli::bisect_exit_code(exit_code) : exit_code;
}
