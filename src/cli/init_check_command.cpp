#include "cli/init_check_command.h"

#include <CLI/CLI.hpp>
#include <iostream>
#include <optional>
#include <variant>

#include "align/checks/init_check_files.h"
#include "align/checks/init_check_report.h"
#include "cli/subcommand.h"
#include "core/error.h"
#include "core/json_file.h"

namespace tipc::cli {
namespace {

struct InitCheckArgs {
  std::string file_a, file_b;
  std::vector<std::string> keys;
  align::InitCheckOptions options;
  std::optional<std::string> json_path;
};

// Returns the parsed arguments, or the exit code (0 after --help).
std::variant<InitCheckArgs, int> parse_init_check_args(const std::vector<std::string>& args, std::ostream& out,
                                                       std::ostream& err) {
  InitCheckArgs parsed;
  CLI::App app{"Compare the distributions of initialised weights (moments, histogram overlap, two-sample KS)",
               "tipc-run init-check"};
  app.add_option("A", parsed.file_a, "weights of one framework: a .npy array, a reprod_log dict .npy or an .npz")
      ->required();
  app.add_option("B", parsed.file_b, "weights of the other framework, of the same kind")->required();
  app.add_option("--key", parsed.keys, "compare only this (dotted) key; repeatable")->allow_extra_args(false);
  app.add_option("--bins", parsed.options.bins, "histogram bins over the joint range (default 50)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{100000}));
  app.add_option("--threshold", parsed.options.max_ks,
                 "largest accepted KS statistic (default: the critical value at alpha = 0.01 for the sizes)")
      ->check(CLI::PositiveNumber);
  app.add_option("--json", parsed.json_path, "also write statistics and histograms to this file (replaced atomically)");
  if (const auto code = parse_subcommand(app, args, out, err)) return *code;
  return parsed;
}

}  // namespace

int init_check_main(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  auto parsed = parse_init_check_args(args, out, err);
  if (const int* code = std::get_if<int>(&parsed)) return *code;
  const InitCheckArgs& check_args = std::get<InitCheckArgs>(parsed);
  const auto report =
      align::check_initialisation_files(check_args.file_a, check_args.file_b, check_args.keys, check_args.options);
  if (!report) return subcommand_error("init-check", report.error(), err);
  out << align::render_init_check_text(*report) << std::flush;
  if (check_args.json_path) {
    if (auto written = write_json_atomically(*check_args.json_path, align::to_json(*report)); !written) {
      return subcommand_error("init-check", written.error(), err);
    }
  }
  return report->all_passed() ? kExitPassed : kExitFailed;
}

int init_check_main(const std::vector<std::string>& args) { return init_check_main(args, std::cout, std::cerr); }

}  // namespace tipc::cli
