#include "cli/suite.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <ostream>
#include <set>

#include <fmt/format.h>

#include "cli/running_binary.h"
#include "config/project_settings.h"
#include "core/locations.h"
#include "core/plural.h"
#include "data/download_cache.h"
#include "plan/alignment_stages.h"
#include "plan/mode_split.h"
#include "plan/output_separation.h"
#include "plan/plan_file.h"
#include "plan/suite_planner.h"
#include "run/confinement.h"
#include "run/run_verdict.h"
#include "setup/offline_downloads.h"
#include "trace/tracer.h"

namespace tipc::cli {
namespace fs = std::filesystem;
void print_exclusions(const plan::SelectedConfigs& selected, std::ostream& out, std::ostream& warnings) {
  for (const plan::ConfigExclusion& unused : selected.unused) {
    warnings << fmt::format("tipc-run: warning: {} {}: excludes no config\n", unused.source, unused.glob);
  }
  if (selected.excluded.empty()) return;
  out << fmt::format("tipc-run: {} excluded: {}\n", plural(selected.excluded.size(), "config"),
                     fmt::join(selected.excluded, ", "));
}

run::ConfigCount Suite::config_count() const {
  return {static_cast<int>(configs), static_cast<int>(invalid_files.size())};
}

namespace {

plan::PlanOptions plan_options_for(const Project& project, const SuiteRequest& given) {
  plan::PlanOptions plan_options;
  plan_options.mode = given.mode;
  plan_options.rules = given.rules;
  plan_options.repo_root = project.root;
  plan_options.python = given.python;
  plan_options.launcher = project.launcher;
  plan_options.cpu_train_processes = project.settings.cpu_train_processes_for(given.mode);
  if (const char* cvd = std::getenv("CUDA_VISIBLE_DEVICES")) plan_options.initial_cuda_visible_devices = cvd;
  return plan_options;
}

// The config's problems, each naming the config first: a problem of the whole file may name
// no file, and one found in another file (its runner) names that file ("CONFIG: RUNNER: ...").
void add_problems(Suite& suite, const std::string& file, const Error& error) {
  suite.invalid_files.push_back(file);
  for (Diagnostic problem : error.diagnostics) {
    if (problem.file.empty()) problem.file = file;
    std::error_code ec;
    const bool another_file =
        fs::path(problem.file).filename() != fs::path(file).filename() && fs::is_regular_file(problem.file, ec);
    if (another_file) problem = {file, 0, "", problem.str()};
    suite.problems.push_back(std::move(problem));
  }
}

// A plan with a stage that would write a file another stage writes, in a way no order
// settles, is left out as invalid, naming both stages and why: one run must never overwrite
// its own logs.
void leave_out_clashing_plans(Suite& suite) {
  std::map<std::size_t, Error> clashing;
  for (const auto& clash : plan::find_output_clashes(suite.plans)) {
    const plan::Plan& second = suite.plans[clash.second_plan];
    const std::string first =
        clash.first_plan == clash.second_plan
            ? "stage " + clash.first_stage
            : fmt::format("stage {} of {}", clash.first_stage, suite.plans[clash.first_plan].config_path);
    clashing[clash.second_plan].diagnostics.push_back(
        {second.config_path, 0, "",
         fmt::format("stage {} would write {}, which {} writes too: {}", clash.second_stage, clash.path, first,
                     clash.reason)});
  }
  for (auto it = clashing.rbegin(); it != clashing.rend(); ++it) {
    add_problems(suite, suite.plans[it->first].config_path, it->second);
    suite.plans.erase(suite.plans.begin() + static_cast<std::ptrdiff_t>(it->first));
  }
}

}  // namespace

namespace {

// What reading the config changed that the reference would not (CRLF line ends), first.
void add_reading_warnings(const config::ConfigText& text, plan::Plan& plan) {
  auto warnings = config::normalisation_warnings(text);
  plan.warnings.insert(plan.warnings.begin(), warnings.begin(), warnings.end());
}

plan::PlanSource plan_source(PlanFrom from) {
  if (from == PlanFrom::kRunner) return plan::PlanSource::kRunner;
  return from == PlanFrom::kDialect ? plan::PlanSource::kDialect : plan::PlanSource::kAuto;
}

// What planning a MODE's configs takes (plan/suite_planner.h), from the command line and
// the repository.
plan::SuitePlanRequest suite_plan_request(const Project& project, const SuiteRequest& given) {
  plan::SuitePlanRequest request;
  request.options = plan_options_for(project, given);
  request.source = plan_source(given.plan_from);
  request.runner = given.runner;
  request.chains = project.chains ? &*project.chains : nullptr;
  request.dialect = project.dialect_error ? nullptr : &project.dialect;
  request.dialect_error = project.dialect_error;
  request.dialect_sure = !project.dialect_error && project.dialect_choice.doubt.empty();
  request.strict = given.strict;
  request.trace = {
      project.trace_env, trace_cache_directory(), trace::trace_jobs(given.jobs), {running_binary(), given.offline, {}}};
  return request;
}

// What the command line adds to a plan: --offline refuses a traced runner's downloads that
// are not cached; the default mode refuses an output directory outside the repository and
// warns of what reading the config changed.
Result<plan::Plan> checked_plan(Result<plan::Plan> plan, bool traced, const config::ConfigText& text,
                                const Project& project, const SuiteRequest& given) {
  if (!plan) return plan;
  if (traced && given.offline) {
    setup::refuse_uncached_downloads(*plan, project.root, data::DownloadCache(download_cache_directory()));
  }
  if (!given.rules->checks_config()) return plan;
  if (const auto outside = run::output_outside_repository(*plan, text, project.root)) return fail(Error{{*outside}});
  add_reading_warnings(text, *plan);
  return plan;
}

// The plan of every config, in file order (plan::plan_configs decides who plans each). A
// config that cannot be read, or whose model_name leaves the output tree, is never planned
// or traced.
std::vector<Result<plan::Plan>> plan_each(const std::vector<plan::ConfigFile>& files, const Project& project,
                                          const SuiteRequest& given, Suite& suite) {
  std::vector<std::optional<Result<plan::Plan>>> slots(files.size());
  std::vector<const config::ConfigText*> readable;
  std::vector<std::size_t> at;  // the file of each readable config
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (!files[i].text) {
      slots[i] = fail(files[i].text.error());
    } else if (const auto unconfined =
                   given.rules->checks_config() ? run::unconfined_model_name(*files[i].text) : std::nullopt) {
      slots[i] = fail(Error{{*unconfined}});
    } else {
      readable.push_back(&*files[i].text);
      at.push_back(i);
    }
  }
  auto planned = plan::plan_configs(readable, suite_plan_request(project, given));
  suite.traced = static_cast<std::size_t>(std::count(planned.traced.begin(), planned.traced.end(), true));
  suite.runners = std::move(planned.runners);
  for (std::size_t k = 0; k < at.size(); ++k) {
    slots[at[k]] = checked_plan(std::move(planned.plans[k]), planned.traced[k], *readable[k], project, given);
  }
  std::vector<Result<plan::Plan>> plans;
  for (auto& slot : slots) plans.push_back(std::move(*slot));
  return plans;
}

}  // namespace

Result<Suite> plan_mode_configs(const std::vector<plan::ConfigFile>& files, const Project& project,
                                const SuiteRequest& given) {
  const auto& chains = project.chains;
  // The reference's rules take any MODE; without a dialect the runners decide which they know.
  if (given.rules->checks_config() && !project.dialect_error) {
    TRY(plan::check_suite_mode(files, project.dialect, chains ? &*chains : nullptr, given.mode));
  }
  // The data every config of the MODE needs: a missing archive is found before a dry run's plan.
  if (given.rules->checks_config()) {  // the reference's rules take the paths as they are
    if (auto unconfined = config::unconfined_data_paths(project.settings, given.mode); !unconfined.empty()) {
      return fail(Error{std::move(unconfined)});
    }
  }
  if (auto missing = config::missing_data_archives(project.settings, given.mode, project.root); !missing.empty()) {
    return fail(Error{std::move(missing)});
  }
  Suite suite;
  suite.configs = files.size();
  auto plans = plan_each(files, project, given, suite);
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (plans[i])
      suite.plans.push_back(std::move(*plans[i]));
    else
      add_problems(suite, files[i].path, plans[i].error());
  }
  return suite;
}

Result<void> finish_suite(Suite& suite, const Project& project, const SuiteRequest& given) {
  suite.separated = plan::separate_shared_outputs(suite.plans);
  for (auto& plan : suite.plans) plan::separate_shared_logs(plan);
  // The reference runner has no alignment checks; its rules' plans stay exactly its plans.
  if (given.rules->checks_config()) {
    TRY(plan::add_alignment_stages(suite.plans, project.settings.alignment, running_binary()));
  }
  for (auto& plan : suite.plans) plan::order_shared_outputs(plan);
  leave_out_clashing_plans(suite);
  return {};
}

Result<Suite> plan_configs(const std::vector<plan::ConfigFile>& files, const Project& project,
                           const SuiteRequest& given) {
  Suite suite = TRY(plan_mode_configs(files, project, given));
  TRY(finish_suite(suite, project, given));
  return suite;
}

void print_planners(const Suite& suite, const Project& project, std::ostream& out, std::ostream& warnings) {
  const bool native_plans = suite.traced < suite.configs;
  if (!project.dialect_error && (native_plans || project.dialect_choice.doubt.empty())) {
    print_dialect_choice(project.dialect_choice, out, warnings);
    for (const auto& warning : project.dialect.warnings) warnings << "tipc-run: warning: " << warning.str() << '\n';
  }
  if (suite.separated > 0) {
    out << fmt::format(
        "tipc-run: {} share an output directory with another config: each writes below it, in a "
        "directory named after its config file\n",
        plural(suite.separated, "config"));
  }
  if (suite.traced == 0) return;
  out << fmt::format("tipc-run: {} planned by tracing the repository's runner: {}\n", plural(suite.traced, "config"),
                     fmt::join(suite.runners, ", "));
}

namespace {

// "tipc-run: 2 of 9 configs invalid, left out: a.txt, b.txt"; "" when none is (or one config).
std::string invalid_configs_line(const Suite& suite) {
  if (suite.configs < 2 || suite.invalid_files.empty()) return "";
  return fmt::format("tipc-run: {} of {} configs invalid, left out{}: {}\n", suite.invalid_files.size(), suite.configs,
                     suite.plans.empty() ? " (nothing to run)" : "", fmt::join(suite.invalid_files, ", "));
}

}  // namespace

void print_invalid_configs(const Suite& suite, std::ostream& out) {
  for (const auto& problem : suite.problems) out << "tipc-run: error: " << problem.str() << '\n';
  out << invalid_configs_line(suite);
}

std::string invalid_configs_summary(const Suite& suite) {
  const std::size_t other_modes = suite.in_other_modes.size();
  return invalid_configs_line(suite) +
         (suite.excluded.empty() ? ""
                                 : fmt::format("tipc-run: {} excluded\n", plural(suite.excluded.size(), "config"))) +
         (other_modes == 0 ? "" : fmt::format("tipc-run: {} in none of the MODEs\n", plural(other_modes, "config")));
}

}  // namespace tipc::cli
