// tipc-run: reads TIPC configs, plans their stages and runs them.
// main() is the list of phases; each phase lives in its own file under src/cli.
#include <csignal>
#include <iostream>

#include "cli/options.h"
#include "cli/plan_output.h"
#include "cli/project.h"
#include "cli/run_phase.h"
#include "cli/subcommand.h"
#include "cli/suite.h"

namespace {

int report(const tipc::Error& error) {
  std::cerr << "tipc-run: error: " << error.str() << '\n';
  return error.exit_code;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace tipc;
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
  // 2. The project: repository root, settings, dialect, launcher.
  const auto project = cli::load_project(*options);
  if (!project) return report(project.error());

  // 3. Plans, one per config (a directory is a suite). Pure: nothing is written or started.
  const auto files = cli::config_files(options->config);
  if (!files) return report(files.error());
  auto plans = cli::plan_configs(*files, *project, *options);
  if (!plans) return report(plans.error());
  if (auto ok = cli::select_stages(*plans, options->only, options->pattern.value_or("")); !ok) return report(ok.error());
  for (const auto& plan : *plans) {
    for (const auto& warning : plan.warnings) std::cerr << "tipc-run: warning: " << warning.str() << '\n';
  }

  // 4. A dry run prints the plans and stops.
  if (options->dry_run) {
    for (const auto& plan : *plans) {
      if (options->format == "jsonl") cli::print_plan_jsonl(plan, std::cout);
      else cli::print_plan_text(plan, std::cout);
    }
    return kExitPassed;
  }

  // 5. Data, resources, stages, reports.
  return cli::run_plans(*plans, *project, *options, *files);
}
