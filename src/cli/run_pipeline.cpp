#include "cli/run_pipeline.h"

#include <iostream>
#include <optional>

#include "cli/plan_output.h"
#include "cli/project.h"
#include "cli/run_exit_code.h"
#include "cli/run_phase.h"
#include "cli/suite.h"
#include "cli/suite_modes.h"
#include "plan/stage_selection.h"
#include "report/plan_warnings.h"

namespace tipc::cli {
namespace {

// The plans as planned, for the reports (they describe the plans whole): a copy where --only
// or -k will cut stages out of `plans`, else `plans` themselves (a copy of a 1000-stage plan
// is 2.5 MB, held for the whole run).
class WholePlans {
 public:
  WholePlans(const std::vector<plan::Plan>& plans, const Options& options)
      : plans_(plans), copy_(options.only.empty() && options.patterns.empty() ? decltype(copy_){} : plans) {}
  const std::vector<plan::Plan>& get() const { return copy_.empty() ? plans_ : copy_; }

 private:
  const std::vector<plan::Plan>& plans_;
  std::vector<plan::Plan> copy_;
};

// Keeps this run's part of the plans: its shard's configs (kept whole in `whole_plans`,
// which the reports describe), then the stages --only and -k select; prints the plans'
// warnings, each once per suite. An exit code when there is nothing to go on with.
std::optional<int> keep_selected(Suite& suite, const Options& options, std::optional<WholePlans>& whole_plans) {
  if (!plan::keep_shard(suite.plans, options.shard, options.dry_run ? std::cerr : std::cout)) {  // an empty shard
    return run::judge({}, false, suite.config_count()).exit_code({options.strict, options.allow_nothing});
  }
  whole_plans.emplace(suite.plans, options);  // taken before select_stages cuts any out
  if (auto ok = plan::select_stages(suite.plans, options.only, options.patterns); !ok) {
    // A selection of nothing is a usage error (a typo, most likely), unless nothing is accepted.
    if (!options.allow_nothing) return report_error(ok.error());
    std::cerr << "tipc-run: warning: " << ok.error().str() << " (accepted: --allow-nothing)\n";
  }
  if (!options.quiet) report::print_plan_warnings(suite.plans, std::cerr);  // -q: errors and the verdict only
  return std::nullopt;
}

// What finding the project takes from the options.
ProjectRequest project_request(const Options& options) {
  return {options.config,      options.repo_root, options.settings,  options.dialect,
          options.dialect_dir, options.launcher,  options.trace_env, options.plan_from == PlanFrom::kDialect};
}

// What planning the suite takes from the options.
SuiteRequest suite_request(const Options& options) {
  return {options.modes,  options.mode,   options.rules, options.python, options.plan_from,
          options.runner, options.strict, options.jobs,  options.offline};
}

}  // namespace

int run_chain(const Options& given) {
  // 2. The project: repository root, settings, dialect, launcher; the settings' MODEs when
  //    the command line named none.
  const auto project = load_project(project_request(given));
  if (!project) return report_error(project.error());
  const auto with_modes = with_settings_modes(given, project->settings);
  if (!with_modes) return report_error(with_modes.error());
  const Options& options = *with_modes;

  // 3. Plans, one per config (a directory is a suite), traced from the repository's runner
  //    or native. Nothing is written or started. Who planned them, and why, heads the
  //    console (stderr on a dry run: its stdout is the plan). An invalid config is
  //    reported and left out; the others are still planned.
  const auto& chains = project->chains;
  const auto files = plan::select_config_files(
      options.config, plan::config_exclusions(options.excludes, project->settings), chains ? &*chains : nullptr);
  if (!files) return report_error(files.error());
  auto suite = plan_suite(*files, *project, suite_request(options));
  if (!suite) return report_error(suite.error());
  suite->excluded = files->excluded;
  std::ostream& console = options.dry_run ? std::cerr : std::cout;
  if (!options.quiet) print_exclusions(*files, console, std::cerr);
  if (!options.quiet) console << configs_taking_no_mode_line(*suite, options.modes);
  if (!options.quiet) print_planners(*suite, *project, console, std::cerr);
  print_invalid_configs(*suite, std::cerr);
  if (suite->plans.empty()) return kExitUsage;
  auto& plans = suite->plans;
  std::optional<WholePlans> whole_plans;
  if (const auto stop = keep_selected(*suite, options, whole_plans)) return *stop;

  // 4. A dry run prints the plans and stops.
  if (options.dry_run) {
    for (const auto& plan : plans) {
      if (options.format == "jsonl")
        print_plan_jsonl(plan, std::cout);
      else
        print_plan_text(plan, std::cout);
    }
    return suite->invalid_files.empty() ? kExitPassed : kExitUsage;
  }

  // 5. Data, resources, stages, reports.
  const int exit_code = run_plans(plans, whole_plans->get(), *project, options,
                                  {suite->problems, suite->excluded, suite->in_other_modes}, suite->config_count());
  std::cout << invalid_configs_summary(*suite);
  return exit_code;
}

}  // namespace tipc::cli
