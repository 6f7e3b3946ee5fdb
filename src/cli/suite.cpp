#include "cli/suite.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <ostream>
#include <set>

#include <fmt/format.h>

#include "plan/alignment_stages.h"
#include "plan/chain_planner.h"
#include "cli/traced_plans.h"
#include "core/plural.h"
#include "plan/plan_file.h"
#include "run/run_verdict.h"

namespace tipc::cli {
namespace fs = std::filesystem;
namespace {

// A train_infer_python config starts with a ===...train_params...=== header.
bool is_train_config(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line == "\r") continue;
    return line.find("train_params") != std::string::npos && line.find("===") != std::string::npos;
  }
  return false;
}

// Check stages run this very binary's comparison subcommands.
std::string running_binary() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  return ec ? "tipc-run" : self.string();
}

}  // namespace

Result<std::vector<std::string>> config_files(const std::string& argument) {
  std::error_code ec;
  if (!fs::is_directory(argument, ec)) return std::vector<std::string>{argument};
  std::vector<std::string> files;
  for (auto it = fs::recursive_directory_iterator(argument, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    if (it->is_regular_file() && it->path().extension() == ".txt" && is_train_config(it->path())) {
      files.push_back(it->path().string());
    }
  }
  if (ec) return fail(Error::at(argument, 0, "", "cannot list the directory: " + ec.message()));
  if (files.empty()) return fail(Error::at(argument, 0, "", "no train_params config (*.txt) in this directory"));
  std::sort(files.begin(), files.end());
  return files;
}

std::vector<std::string> Suite::valid_files() const {
  std::vector<std::string> files;
  for (const auto& plan : plans) files.push_back(plan.config_path);
  return files;
}

namespace {

plan::PlanOptions plan_options_for(const Project& project, const Options& options) {
  plan::PlanOptions plan_options;
  plan_options.mode = options.mode;
  plan_options.compat = options.compat;
  plan_options.repo_root = project.root;
  plan_options.python = options.python;
  plan_options.launcher = project.launcher;
  plan_options.cpu_train_processes = project.settings.cpu_train_processes;
  if (const char* cvd = std::getenv("CUDA_VISIBLE_DEVICES")) plan_options.initial_cuda_visible_devices = cvd;
  return plan_options;
}

// The config's problems, each naming the config (a problem of the whole file may not).
void add_problems(Suite& suite, const std::string& file, const Error& error) {
  suite.invalid_files.push_back(file);
  for (Diagnostic problem : error.diagnostics) {
    if (problem.file.empty()) problem.file = file;
    suite.problems.push_back(std::move(problem));
  }
}

}  // namespace

namespace {

// The plan of every config, in file order: traced from its runner where one plans it
// (--plan-from auto or runner), native otherwise.
std::vector<Result<plan::Plan>> plan_each(const std::vector<std::string>& files, const Project& project,
                                          const Options& options, const RunnerChoice& choice, Suite& suite) {
  const plan::PlanOptions plan_options = plan_options_for(project, options);
  std::vector<std::optional<Result<plan::Plan>>> slots(files.size());
  std::vector<std::pair<std::string, RunnerCall>> to_trace;
  std::vector<std::size_t> traced;
  for (std::size_t i = 0; i < files.size(); ++i) {
    auto runner = options.plan_from == PlanFrom::kDialect ? Result<std::optional<RunnerCall>>{}
                                                 : find_runner(files[i], project.root, choice);
    if (!runner) slots[i] = fail(runner.error());
    else if (*runner) {
      to_trace.emplace_back(files[i], **runner);
      traced.push_back(i);
      auto& runners = suite.runners;
      if (std::find(runners.begin(), runners.end(), (*runner)->runner) == runners.end()) runners.push_back((*runner)->runner);
    } else if (options.plan_from == PlanFrom::kRunner) {
      slots[i] = fail(Error::at(files[i], 0, "", fmt::format("--plan-from runner: no test_tipc/{} next to it (give "
                                                             "--runner PATH, or --plan-from dialect)",
                                                             kRunnerFileName)));
    } else if (const std::string chain = native_chain(files[i], choice); !chain.empty()) {
      slots[i] = plan::plan_chain_file(files[i], chain, plan_options);
    } else if (project.dialect_error) {
      slots[i] = fail(*project.dialect_error);
    } else {
      slots[i] = plan::plan_file(files[i], project.dialect, plan_options);
    }
  }
  suite.traced = traced.size();
  auto traced_plans = plan_from_runners(to_trace, project, options);
  for (std::size_t t = 0; t < traced.size(); ++t) slots[traced[t]] = std::move(traced_plans[t]);
  std::vector<Result<plan::Plan>> plans;
  for (auto& slot : slots) plans.push_back(std::move(*slot));
  return plans;
}

}  // namespace

Result<Suite> plan_configs(const std::vector<std::string>& files, const Project& project, const Options& options) {
  // The MODE is the same for every config: one error, not one per file. Without a dialect
  // the runners decide which modes they know; a mode of another chain is its runner's.
  const auto chains = TRY(load_chains_for(options));
  const bool chain_mode = chains && dialect::chain_knows_mode(*chains, options.mode);
  if (!options.compat && !project.dialect_error && !chain_mode) {
    TRY(plan::check_mode(project.dialect, options.mode));
  }
  Suite suite;
  suite.configs = files.size();
  auto plans = plan_each(files, project, options, {options.runner, options.mode, chains ? &*chains : nullptr}, suite);
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (plans[i]) suite.plans.push_back(std::move(*plans[i]));
    else add_problems(suite, files[i], plans[i].error());
  }
  // The reference runner has no alignment checks; --compat plans stay exactly its plans.
  if (!options.compat) {
    TRY(plan::add_alignment_stages(suite.plans, project.settings.alignment, running_binary()));
  }
  return suite;
}

void print_planners(const Suite& suite, const Project& project, std::ostream& out, std::ostream& warnings) {
  const bool native_plans = suite.traced < suite.configs;
  if (!project.dialect_error && (native_plans || project.dialect_choice.doubt.empty())) {
    print_dialect_choice(project.dialect_choice, out, warnings);
  }
  if (suite.traced == 0) return;
  out << fmt::format("tipc-run: {} planned by tracing the repository's runner: {}\n", plural(suite.traced, "config"),
                     fmt::join(suite.runners, ", "));
}

void print_invalid_configs(const Suite& suite, std::ostream& out) {
  for (const auto& problem : suite.problems) out << "tipc-run: error: " << problem.str() << '\n';
  out << invalid_configs_summary(suite);
}

std::string invalid_configs_summary(const Suite& suite) {
  if (suite.configs < 2 || suite.invalid_files.empty()) return "";
  return fmt::format("tipc-run: {} of {} configs invalid, left out{}: {}\n", suite.invalid_files.size(), suite.configs,
                     suite.plans.empty() ? " (nothing to run)" : "", fmt::join(suite.invalid_files, ", "));
}

int suite_exit_code(const Suite& suite, int run_exit_code) {
  return run::exit_code_with_invalid_configs(run_exit_code, !suite.invalid_files.empty());
}

}  // namespace tipc::cli
