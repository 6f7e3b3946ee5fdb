#include "cli/compare_command.h"

#include <future>
#include <iostream>
#include <optional>
#include <variant>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "cli/subcommand.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "gate/comparison_files.h"
#include "gate/comparison_text.h"
#include "gate/run_comparison.h"
#include "history/history_location.h"
#include "history/run_reference.h"

namespace tipc::cli {
namespace {

struct CompareArgs {
  std::string base, current;
  std::optional<std::string> history, settings, markdown, json, junit;
  bool all = false;
  std::size_t runs = 1;  // --runs N: a commit's or branch's last N runs, pooled
};

std::variant<CompareArgs, int> parse_compare_args(const std::vector<std::string>& args, std::ostream& out,
                                                  std::ostream& err) {
  CompareArgs parsed;
  CLI::App app{
      "Compare a run with a baseline: stage results and figures (throughput, costs, memory, metrics, "
      "latency), noise told from change",
      "tipc-run compare"};
  const char* what =
      "an output directory with a run's state, a bundle (--bundle FILE.tar.gz), a run id of the run "
      "history (12, run:12), or a commit prefix or branch (its latest recorded run)";
  app.add_option("BASE", parsed.base, fmt::format("the baseline: {}", what))->required();
  app.add_option("NEW", parsed.current, fmt::format("the run to judge: {}", what))->required();
  app.add_option("--history", parsed.history,
                 "the run history (default: the settings' history:, else test_tipc/output/.tipc-history.sqlite)");
  app.add_option("--settings", parsed.settings,
                 "the settings file whose gates: apply (default: test_tipc/tipc-run.yaml of the repository around the "
                 "current directory, when it exists)");
  app.add_option("--markdown", parsed.markdown, "also write the comparison as Markdown (a pull-request comment)");
  app.add_option("--json", parsed.json, "also write it as JSON");
  app.add_option("--junit", parsed.junit, "also write it as JUnit XML (one testcase per gated figure)");
  app.add_flag("--all", parsed.all, "list the unchanged figures too");
  app.add_option("--runs", parsed.runs,
                 "for a commit or branch: its last N recorded runs as one side, each figure tested over the runs' "
                 "medians (default 1: the latest run, tested over its steps)")
      ->check(CLI::Range(1, 1000));
  if (const auto code = parse_subcommand(app, args, out, err)) return *code;
  return parsed;
}

Result<void> write_outputs(const CompareArgs& args, const gate::ComparedRuns& runs,
                           const gate::RunComparison& comparison, const std::vector<gate::ComparisonRow>& rows) {
  if (args.markdown) TRY(write_file_atomically(*args.markdown, gate::markdown_comparison(runs, rows)));
  if (args.json) TRY(write_file_atomically(*args.json, gate::comparison_json(runs, comparison).dump(2) + "\n"));
  if (args.junit) TRY(write_file_atomically(*args.junit, gate::comparison_junit(runs, rows)));
  return {};
}

}  // namespace

int compare_main(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  auto parsed = parse_compare_args(args, out, err);
  if (const int* code = std::get_if<int>(&parsed)) return *code;
  const CompareArgs& compare = std::get<CompareArgs>(parsed);
  // The settings (their gates: and history:) of --settings, or of the repository's settings file.
  const auto repository = history::repository_here(compare.settings);
  if (!repository) return subcommand_error("compare", repository.error(), err);
  const std::string history_path = history::history_to_read(compare.history, *repository);
  // Both runs are read at once: a 1,000-stage directory's report.json is MBs of JSON. (With
  // both policies, libstdc++ reads the base here when no thread can be started.)
  auto base_read = std::async(std::launch::async | std::launch::deferred, history::load_run_reference, compare.base,
                              history_path, compare.runs);
  const auto current = history::load_run_reference(compare.current, history_path, compare.runs);
  const auto base = base_read.get();
  if (!base) return subcommand_error("compare", base.error(), err);
  if (!current) return subcommand_error("compare", current.error(), err);
  const gate::RunComparison comparison =
      gate::compare_runs(*base, *current, gate::rules_from_settings(repository->settings.gates));
  const std::vector<gate::ComparisonRow> rows = gate::comparison_rows(comparison);
  const gate::ComparedRuns runs{base->label, current->label};
  out << gate::console_comparison(runs, rows, compare.all);
  if (auto written = write_outputs(compare, runs, comparison, rows); !written) {
    return subcommand_error("compare", written.error(), err);
  }
  return comparison.failed() ? kExitRegressed : kExitPassed;
}

int compare_main(const std::vector<std::string>& args) { return compare_main(args, std::cout, std::cerr); }

}  // namespace tipc::cli
