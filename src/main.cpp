// tipc-run: reads TIPC configs, plans their stages and runs them.
// main() is the list of phases; each phase lives in its own file under src/cli.
#include <csignal>
#include <iostream>
#include <optional>

#include "cli/history_recording.h"
#include "cli/options.h"
#include "cli/plan_output.h"
#include "cli/plan_warnings.h"
#include "cli/project.h"
#include "cli/run_phase.h"
#include "cli/stage_selection.h"
#include "cli/subcommand.h"
#include "cli/suite.h"
#include "cli/suite_modes.h"
#include "cli/visible_console.h"

namespace {

int report(const tipc::Error& error) {
  std::cerr << "tipc-run: error: " << error.str() << '\n';
  return error.exit_code;
}

// The plans as planned, for the reports (they describe the plans whole): a copy where --only
// or -k will cut stages out of `plans`, else `plans` themselves (a copy of a 1000-stage plan
// is 2.5 MB, held for the whole run).
class WholePlans {
 public:
  WholePlans(const std::vector<tipc::plan::Plan>& plans, const tipc::cli::Options& options)
      : plans_(plans), copy_(options.only.empty() && options.patterns.empty() ? decltype(copy_){} : plans) {}
  const std::vector<tipc::plan::Plan>& get() const { return copy_.empty() ? plans_ : copy_; }

 private:
  const std::vector<tipc::plan::Plan>& plans_;
  std::vector<tipc::plan::Plan> copy_;
};

// Keeps this run's part of the plans: its shard's configs (kept whole in `whole_plans`,
// which the reports describe), then the stages --only and -k select; prints the plans'
// warnings, each once per suite. An exit code when there is nothing to go on with.
std::optional<int> keep_selected(tipc::cli::Suite& suite, const tipc::cli::Options& options,
                                 std::optional<WholePlans>& whole_plans) {
  using namespace tipc;
  if (!cli::keep_shard(suite.plans, options.shard, options.dry_run ? std::cerr : std::cout)) {  // an empty shard
    return run::judge({}, false, suite.config_count()).exit_code({options.strict, options.allow_nothing});
  }
  whole_plans.emplace(suite.plans, options);  // taken before select_stages cuts any out
  if (auto ok = cli::select_stages(suite.plans, options.only, options.patterns); !ok) {
    // A selection of nothing is a usage error (a typo, most likely), unless nothing is accepted.
    if (!options.allow_nothing) return report(ok.error());
    std::cerr << "tipc-run: warning: " << ok.error().str() << " (accepted: --allow-nothing)\n";
  }
  if (!options.quiet) cli::print_plan_warnings(suite.plans, std::cerr);  // -q: errors and the verdict only
  return std::nullopt;
}

// Steps 2 to 5: the chain run the options describe; its exit code.
int run_chain(const tipc::cli::Options& given) {
  using namespace tipc;
  // 2. The project: repository root, settings, dialect, launcher; the settings' MODEs when
  //    the command line named none.
  const auto project = cli::load_project(given);
  if (!project) return report(project.error());
  const auto with_modes = cli::with_settings_modes(given, project->settings);
  if (!with_modes) return report(with_modes.error());
  const cli::Options& options = *with_modes;

  // 3. Plans, one per config (a directory is a suite), traced from the repository's runner
  //    or native. Nothing is written or started. Who planned them, and why, heads the
  //    console (stderr on a dry run: its stdout is the plan). An invalid config is
  //    reported and left out; the others are still planned.
  const auto& chains = project->chains;
  const auto files = cli::select_config_files(options.config, cli::config_exclusions(options, project->settings),
                                              chains ? &*chains : nullptr);
  if (!files) return report(files.error());
  auto suite = cli::plan_suite(*files, *project, options);
  if (!suite) return report(suite.error());
  suite->excluded = files->excluded;
  std::ostream& console = options.dry_run ? std::cerr : std::cout;
  if (!options.quiet) cli::print_exclusions(*files, console, std::cerr);
  if (!options.quiet) console << cli::configs_taking_no_mode_line(*suite, options.modes);
  if (!options.quiet) cli::print_planners(*suite, *project, console, std::cerr);
  cli::print_invalid_configs(*suite, std::cerr);
  if (suite->plans.empty()) return kExitUsage;
  auto& plans = suite->plans;
  std::optional<WholePlans> whole_plans;
  if (const auto stop = keep_selected(*suite, options, whole_plans)) return *stop;

  // 4. A dry run prints the plans and stops.
  if (options.dry_run) {
    for (const auto& plan : plans) {
      if (options.format == "jsonl") cli::print_plan_jsonl(plan, std::cout);
      else cli::print_plan_text(plan, std::cout);
    }
    return suite->invalid_files.empty() ? kExitPassed : kExitUsage;
  }

  // 5. Data, resources, stages, reports.
  const int exit_code =
      cli::run_plans(plans, whole_plans->get(), *project, options, {suite->problems, suite->excluded, suite->in_other_modes},
                     suite->config_count());
  std::cout << cli::invalid_configs_summary(*suite);
  return exit_code;
}

}  // namespace

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
  const int exit_code = run_chain(*options);
  return options->bisect ? cli::bisect_exit_code(exit_code) : exit_code;
}
