#include "cli/diff_command.h"

#include <CLI/CLI.hpp>
#include <iostream>
#include <optional>
#include <variant>

#include "align/checks/diff.h"
#include "align/checks/diff_log.h"
#include "align/checks/diff_summary.h"
#include "cli/subcommand.h"
#include "compat/reprod_log_rules.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "core/json_file.h"

namespace tipc::cli {
namespace {

struct DiffArgs {
  std::string file1, file2;
  align::DiffOptions options;
  std::optional<std::string> log_path;
  std::optional<std::string> layout_path;
  std::optional<std::string> json_path;
  bool compat = false;
};

// Returns the parsed arguments, or the exit code (0 after --help).
std::variant<DiffArgs, int> parse_diff_args(const std::vector<std::string>& args, std::ostream& out,
                                            std::ostream& err) {
  DiffArgs parsed;
  CLI::App app{
      "Compare two reprod_log result files like reprod_log's ReprodDiffHelper. Two plain .npy arrays "
      "(dumped tensors) compare as one entry named after the file stems (\"out\", or \"a vs b\").",
      "tipc-run diff"};
  app.add_option("A", parsed.file1, "reference result file (its key order is the report order)")->required();
  app.add_option("B", parsed.file2, "result file to check")->required();
  app.add_option("--method", parsed.options.method, "mean, min, max, all, or a comma-separated list");
  app.add_option("--threshold", parsed.options.threshold, "a statistic fails when it is greater than this");
  app.add_option("--log", parsed.log_path, "also write the report to this file (replaced atomically)");
  app.add_option("--layout", parsed.layout_path,
                 "YAML 'layout: {key: transform}' file: how B's arrays are laid out relative to A's "
                 "(transpose, oihw_to_hwio, hwio_to_oihw or a list of axes)");
  app.add_option("--json", parsed.json_path, "also write the per-key values to this JSON file (replaced atomically)");
  app.add_flag("--compat", parsed.compat,
               "reprod_log's behaviour: NaN passes, extra nested keys are ignored, integers wrap around");
  if (const auto code = parse_subcommand(app, args, out, err)) return *code;
  parsed.options.rules = compat::diff_rules(parsed.compat);
  return parsed;
}

void print_explanations(const align::DiffResult& result, std::ostream& err) {
  for (const std::string& warning : result.warnings) err << "tipc-run diff: warning: " << warning << '\n';
  for (const align::DiffEntry& entry : result.entries) {
    if (!entry.is_group && !entry.passed)
      err << "tipc-run diff: key '" << entry.path << "' failed: " << entry.reason << '\n';
  }
}

}  // namespace

int diff_main(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  auto parsed = parse_diff_args(args, out, err);
  if (const int* code = std::get_if<int>(&parsed)) return *code;
  DiffArgs& diff_args = std::get<DiffArgs>(parsed);
  if (diff_args.layout_path) {
    auto rules = align::load_layout_file(*diff_args.layout_path);
    if (!rules) return subcommand_error("diff", rules.error(), err);
    diff_args.options.layout = std::move(*rules);
  }
  const auto result = align::compare_files(diff_args.file1, diff_args.file2, diff_args.options);
  if (!result) return subcommand_error("diff", result.error(), err);
  const std::string timestamp = align::reprod_log_timestamp();
  out << align::render_diff_stdout(*result, timestamp) << std::flush;
  if (diff_args.options.rules.explains) print_explanations(*result, err);
  if (diff_args.log_path) {
    if (auto written = write_file_atomically(*diff_args.log_path, align::render_diff_log(*result, timestamp));
        !written) {
      return subcommand_error("diff", written.error(), err);
    }
  }
  if (diff_args.json_path) {
    if (auto written = write_json_atomically(
            *diff_args.json_path,
            align::to_json(align::summarize_diff(*result, diff_args.file1, diff_args.file2, diff_args.options)));
        !written) {
      return subcommand_error("diff", written.error(), err);
    }
  }
  return result->passed ? kExitPassed : kExitFailed;
}

int diff_main(const std::vector<std::string>& args) { return diff_main(args, std::cout, std::cerr); }

}  // namespace tipc::cli
