#include "cli/padiff_command.h"

#include <CLI/CLI.hpp>
#include <iostream>
#include <optional>
#include <variant>

#include "align/checks/layer_map.h"
#include "align/checks/padiff_report.h"
#include "cli/subcommand.h"
#include "compat/padiff_rules.h"
#include "core/error.h"

namespace tipc::cli {
namespace {

struct PadiffArgs {
  std::string dump_a, dump_b;
  std::string mode = "mean";
  std::string phase = "both";
  align::Tolerance tolerance;
  std::optional<std::string> layer_map;
  std::optional<std::string> layout;
  std::size_t top = 10;
  bool padiff_compat = false;
};

// Returns the parsed arguments, or the exit code (0 after --help).
std::variant<PadiffArgs, int> parse_padiff_args(const std::vector<std::string>& args, std::ostream& out,
                                                std::ostream& err) {
  PadiffArgs parsed;
  CLI::App app{"Compare two PaDiff dumps layer by layer", "tipc-run padiff"};
  app.add_option("DUMP_A", parsed.dump_a, "dump of the base model (a step_*/rank_* tree or one rank directory)")
      ->required();
  app.add_option("DUMP_B", parsed.dump_b, "dump of the raw model; the reference of the tolerance test")->required();
  app.add_option("--mode", parsed.mode, "mean (default), strict or abs_mean")
      ->check(CLI::IsMember({"mean", "strict", "abs_mean"}));
  app.add_option("--atol", parsed.tolerance.atol, "absolute tolerance (default 0)")->check(CLI::NonNegativeNumber);
  app.add_option("--rtol", parsed.tolerance.rtol, "relative tolerance, times |B| (default 1e-7)")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--phase", parsed.phase,
                 "both (default), forward (outputs and weights) or backward (grads of outputs and parameters)")
      ->check(CLI::IsMember({"both", "forward", "backward"}));
  app.add_option("--layer-map", parsed.layer_map, "YAML file: ignore rules per side and a route map");
  app.add_option("--layout", parsed.layout,
                 "YAML 'layout: {name: transform}' file: how B's tensors are laid out relative to A's, by B's "
                 "layer route (outputs, grads) or route.parameter");
  app.add_option("--top", parsed.top, "how many of the largest differences to list (default 10)");
  app.add_flag("--padiff-compat", parsed.padiff_compat,
               "PaDiff's own verdicts: only the first step, the backward search descending by forward outputs, and "
               "numpy's means of the tensors as stored deciding alone");
  if (const auto code = parse_subcommand(app, args, out, err)) return *code;
  parsed.tolerance.mode = *align::parse_compare_mode(parsed.mode);
  return parsed;
}

Result<align::PadiffOptions> padiff_options(const PadiffArgs& args) {
  align::PadiffOptions options;
  options.tolerance = args.tolerance;
  options.phases = *align::parse_phases(args.phase);
  options.rules = compat::padiff_rules(args.padiff_compat);
  if (args.layer_map) {
    options.layer_map = TRY(align::read_layer_map(*args.layer_map));
  }
  if (args.layout) {
    options.layout = TRY(align::load_layout_file(*args.layout));
  }
  return options;
}

}  // namespace

int padiff_main(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  auto parsed = parse_padiff_args(args, out, err);
  if (const int* code = std::get_if<int>(&parsed)) return *code;
  const PadiffArgs& padiff_args = std::get<PadiffArgs>(parsed);
  const auto options = padiff_options(padiff_args);
  if (!options) return subcommand_error("padiff", options.error(), err);
  const auto result = align::compare_dump_directories(padiff_args.dump_a, padiff_args.dump_b, *options);
  if (!result) return subcommand_error("padiff", result.error(), err);
  for (const std::string& warning : result->warnings) err << "tipc-run padiff: warning: " << warning << '\n';
  out << align::render_padiff_text(*result,
                                   {padiff_args.dump_a, padiff_args.dump_b, padiff_args.tolerance, padiff_args.top});
  return result->passed() ? kExitPassed : kExitFailed;
}

int padiff_main(const std::vector<std::string>& args) { return padiff_main(args, std::cout, std::cerr); }

}  // namespace tipc::cli
