#include "cli/compare_results_command.h"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <iostream>
#include <map>
#include <optional>
#include <variant>

#include "align/checks/compare_results_report.h"
#include "align/checks/ground_truth_files.h"
#include "cli/subcommand.h"
#include "core/error.h"
#include "core/json_file.h"

namespace tipc::cli {
namespace {

const std::map<std::string, align::ResultFormat> kFormats = {{"tipc", align::ResultFormat::kTipc},
                                                             {"video", align::ResultFormat::kVideo},
                                                             {"metric", align::ResultFormat::kMetric}};

const std::map<std::string, align::Comparison> kComparisons = {{"allclose", align::Comparison::kAllclose},
                                                               {"labels", align::Comparison::kLabels}};

struct CompareResultsArgs {
  std::string gt_glob, log_glob;
  align::CompareRule rule;
  std::string format = "tipc";
  std::optional<std::string> json_path;
};

// Returns the parsed arguments, or the exit code (0 after --help).
std::variant<CompareResultsArgs, int> parse_compare_results_args(const std::vector<std::string>& args,
                                                                 std::ostream& out, std::ostream& err) {
  CompareResultsArgs parsed;
  CLI::App app{"Compare inference logs with ground-truth results like TIPC's compare_results.py",
               "tipc-run compare-results"};
  app.add_option("--gt", parsed.gt_glob, "glob of the ground-truth files (fp32, fp16, int8 in their names)")
      ->required();
  app.add_option("--log", parsed.log_glob, "glob of the inference logs (a name's precision picks the ground truth)")
      ->required();
  auto* atol = app.add_option("--atol", parsed.rule.tolerance.atol, "absolute tolerance (default 1e-3)")
                   ->check(CLI::NonNegativeNumber);
  auto* rtol = app.add_option("--rtol", parsed.rule.tolerance.rtol, "relative tolerance, times |pred| (default 1e-3)")
                   ->check(CLI::NonNegativeNumber);
  app.add_option("--compare", parsed.rule.comparison,
                 "allclose (default: every element within atol + rtol * |pred|) or labels (integers equal, other "
                 "numbers only finite: what a trained model gives on every CPU)")
      ->transform(CLI::CheckedTransformer(kComparisons));
  app.add_option("--format", parsed.format, "tipc (default), video (PaddleVideo) or metric (name:value lines)")
      ->check(CLI::IsMember({"tipc", "video", "metric"}));
  app.add_option("--json", parsed.json_path, "also write the outcomes to this JSON file (replaced atomically)");
  if (const auto code = parse_subcommand(app, args, out, err)) return *code;
  if (parsed.rule.comparison == align::Comparison::kLabels && (atol->count() > 0 || rtol->count() > 0)) {
    err << "tipc-run compare-results: error: --atol and --rtol apply to --compare allclose, not labels\n";
    return kExitUsage;
  }
  return parsed;
}

}  // namespace

int compare_results_main(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  auto parsed = parse_compare_results_args(args, out, err);
  if (const int* code = std::get_if<int>(&parsed)) return *code;
  const CompareResultsArgs& compare_args = std::get<CompareResultsArgs>(parsed);
  const align::ResultFormat format = kFormats.at(compare_args.format);
  const auto loaded = align::load_ground_truths(compare_args.gt_glob, format);
  if (!loaded) return subcommand_error("compare-results", loaded.error(), err);
  for (const std::string& ignored : loaded->ignored) {
    err << "tipc-run compare-results: warning: ignoring " << ignored << ": no fp32, fp16 or int8 in its name\n";
  }
  auto report = align::check_log_files(compare_args.log_glob, loaded->truths, format, compare_args.rule);
  if (!report) return subcommand_error("compare-results", report.error(), err);
  align::CompareResultsRun run{compare_args.format, compare_args.rule, {}, std::move(*report)};
  for (const auto& [precision, truth] : loaded->truths) run.ground_truth_files.emplace(precision, truth.file);
  out << align::render_compare_results_text(run) << std::flush;
  if (compare_args.json_path) {
    if (auto written = write_json_atomically(*compare_args.json_path, align::to_json(run)); !written) {
      return subcommand_error("compare-results", written.error(), err);
    }
  }
  return run.report.exit_code();
}

int compare_results_main(const std::vector<std::string>& args) {
  return compare_results_main(args, std::cout, std::cerr);
}

}  // namespace tipc::cli
