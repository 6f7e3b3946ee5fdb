// tipc-run: reads a TIPC config, plans its stages and (soon) runs them.
// main() is the list of phases; each phase lives in its own file.
#include <filesystem>
#include <iostream>

#include "cli/options.h"
#include "cli/plan_output.h"
#include "cli/repo_root.h"
#include "dialect/dialect.h"
#include "plan/plan_file.h"

namespace {

int report(const tipc::Error& error) {
  std::cerr << (error.exit_code == tipc::kExitPassed ? "" : "tipc-run: error: ") << error.str() << '\n';
  return error.exit_code;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace tipc;
  // 1. Options.
  const auto options = cli::parse_options(argc, argv);
  if (!options) {
    std::cout << options.error().str();
    return options.error().exit_code;
  }
  // 2. Repository root and dialect (detected from the root unless named).
  const std::string root = options->repo_root.value_or(cli::find_repo_root(options->config));
  const std::string dialect_dir = options->dialect_dir.value_or(dialect::default_dialect_directory());
  std::string dialect_name = options->dialect.value_or("");
  if (dialect_name.empty()) {
    auto detected = dialect::detect_dialect(dialect_dir, root);
    if (!detected) return report(detected.error());
    dialect_name = detected->empty() ? "paddleocr" : *detected;
  }
  const auto dialect = dialect::load_dialect(dialect_dir, dialect_name);
  if (!dialect) return report(dialect.error());

  // 3. Plan: pure, nothing is written or started.
  plan::PlanOptions plan_options;
  plan_options.mode = options->mode;
  plan_options.compat = options->compat;
  plan_options.repo_root = root;
  plan_options.python = options->python;
  if (const char* cvd = std::getenv("CUDA_VISIBLE_DEVICES")) plan_options.initial_cuda_visible_devices = cvd;
  if (options->launcher) {
    auto launcher = dialect::load_launcher(dialect::launchers_file(dialect_dir), *options->launcher);
    if (!launcher) return report(launcher.error());
    plan_options.launcher = *launcher;
  }
  const auto plan = plan::plan_file(options->config, *dialect, plan_options);
  if (!plan) return report(plan.error());
  for (const auto& warning : plan->warnings) std::cerr << "tipc-run: warning: " << warning.str() << '\n';

  // 4. Dry run: print the plan.
  if (options->dry_run) {
    if (options->format == "jsonl") cli::print_plan_jsonl(*plan, std::cout);
    else cli::print_plan_text(*plan, std::cout);
    return kExitPassed;
  }
  std::cerr << "tipc-run: running stages is not implemented yet; use --dry-run to print the plan\n";
  return kExitUsage;
}
