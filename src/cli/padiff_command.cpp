#include "cli/padiff_command.h"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <iostream>
#include <optional>
#include <variant>

#include "align/io/array.h"
#include "align/checks/layer_map.h"
#include "align/checks/padiff_compare.h"
#include "align/io/padiff_dump.h"
#include "cli/subcommand.h"
#include "core/error.h"
#include "core/plural.h"

namespace tipc::cli {
namespace {

struct PadiffArgs {
  std::string dump_a, dump_b;
  std::string mode = "mean";
  std::string phase = "both";
  align::Tolerance tolerance;
  std::optional<std::string> layer_map;
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
  app.add_option("--top", parsed.top, "how many of the largest differences to list (default 10)");
  app.add_flag("--padiff-compat", parsed.padiff_compat,
               "PaDiff's own verdicts: only the first step, and the backward search descending by forward outputs");
  if (const auto code = parse_subcommand(app, args, out, err)) return *code;
  parsed.tolerance.mode = *align::parse_compare_mode(parsed.mode);
  return parsed;
}

Result<align::PadiffOptions> padiff_options(const PadiffArgs& args) {
  align::PadiffOptions options;
  options.tolerance = args.tolerance;
  options.phases = *align::parse_phases(args.phase);
  options.padiff_compat = args.padiff_compat;
  if (args.layer_map) {
    auto map = align::read_layer_map(*args.layer_map);
    if (!map) return fail(map.error());
    options.layer_map = std::move(*map);
  }
  return options;
}

std::string short_number(double value) { return fmt::format("{:.6g}", value); }


// "X" when both sides agree, "X vs Y" otherwise.
std::string pair_text(const std::string& a, const std::string& b) { return a == b ? a : a + " vs " + b; }

// What a layer's i-th tensor is called: parameters have one, layers a list.
std::string tensor_label(const align::LayerComparison& layer, std::size_t i) {
  switch (layer.check) {
    case align::Check::Forward: return "output " + std::to_string(i);
    case align::Check::Backward: return "grad " + std::to_string(i);
    default: return "value";
  }
}

std::size_t tensor_position(const align::LayerComparison& layer, const align::TensorComparison& tensor) {
  return static_cast<std::size_t>(&tensor - layer.tensors.data());
}

std::string max_diff_text(const align::LayerComparison& layer, const align::TensorComparison& tensor) {
  return "max |diff| " + short_number(tensor.elements->max_abs) + " at " +
         tensor_label(layer, tensor_position(layer, tensor)) + " " + align::index_text(tensor.elements->argmax);
}

// How many elements fail on their own: "0 of 6" shows a mean-mode false alarm (equal
// elements whose float32 means differ by summation order, as transposed Linear weights do).
std::string outside_text(const align::TensorComparison& tensor) {
  if (!tensor.elements) return "";
  return fmt::format(", {} of {} elements outside the tolerance", tensor.elements->outside, tensor.elements->total);
}

// One line's worth of why a layer failed: its problem, else its largest difference, else
// the first failing tensor's reason (equal elements, or shapes that allow no element-wise diff).
std::string failure_summary(const align::LayerComparison& layer) {
  if (!layer.problem.empty()) return layer.problem;
  if (const auto* worst = layer.worst_tensor(); worst && worst->elements->max_abs > 0)
    return max_diff_text(layer, *worst) + outside_text(*worst);
  for (const auto& tensor : layer.tensors)
    if (!tensor.passed) return tensor.detail + outside_text(tensor);
  return "";
}

std::string where_prefix(const std::string& where) { return where.empty() ? "" : where + "  "; }

void print_first_divergence(const align::PadiffResult& result, std::ostream& out) {
  const align::Divergence& first = result.divergences.front();
  out << "first divergence: " << align::to_string(first.check) << (first.where.empty() ? "" : " " + first.where)
      << '\n';
  if (!first.layer) {
    out << "  reason: " << first.reason << '\n';
    return;
  }
  const align::LayerComparison& layer = result.layers[*first.layer];
  out << "  layer:  " << pair_text(layer.a_class, layer.b_class) << '\n';
  out << "  route:  " << layer.a_route << '\n';
  if (layer.b_route != layer.a_route) out << "          " << layer.b_route << '\n';
  out << "  reason: " << first.reason << '\n';
  if (!layer.problem.empty()) out << "  " << layer.problem << '\n';
  for (std::size_t i = 0; i < layer.tensors.size(); ++i) {
    const align::TensorComparison& tensor = layer.tensors[i];
    if (tensor.passed) continue;
    out << "  " << tensor_label(layer, i) << ": " << tensor.detail << '\n';
    if (const auto& e = tensor.elements)
      out << fmt::format("    max |diff| {} at {} (A {}, B {}), {} of {} elements outside the tolerance\n",
                         short_number(e->max_abs), align::index_text(e->argmax), short_number(e->a_at_max), short_number(e->b_at_max),
                         e->outside, e->total);
  }
}

void print_divergences(const align::PadiffResult& result, std::ostream& out) {
  out << "divergences (" << result.divergences.size() << "):\n";
  for (const align::Divergence& divergence : result.divergences) {
    out << fmt::format("  {:<9} {}", align::to_string(divergence.check), where_prefix(divergence.where));
    if (!divergence.layer) {
      out << divergence.reason << '\n';
      continue;
    }
    const align::LayerComparison& layer = result.layers[*divergence.layer];
    out << pair_text(layer.a_route, layer.b_route) << ": " << divergence.reason;
    const std::string summary = failure_summary(layer);
    out << (summary.empty() ? "" : "; " + summary) << '\n';
  }
}

// The layers with the largest element-wise differences, passing or not.
void print_worst_layers(const align::PadiffResult& result, std::size_t top, std::ostream& out) {
  std::vector<const align::LayerComparison*> ranked;
  for (const auto& layer : result.layers)
    if (layer.worst_tensor()) ranked.push_back(&layer);
  if (top == 0 || ranked.empty()) return;
  std::stable_sort(ranked.begin(), ranked.end(), [](const auto* x, const auto* y) {
    return x->worst_tensor()->elements->max_abs > y->worst_tensor()->elements->max_abs;
  });
  const std::size_t shown = std::min(top, ranked.size());
  out << "largest differences (" << shown << " of " << ranked.size() << " layers):\n";
  for (std::size_t i = 0; i < shown; ++i) {
    const align::LayerComparison& layer = *ranked[i];
    const align::TensorComparison& worst = *layer.worst_tensor();
    out << fmt::format("  {:<4} {:<12} {:<9} {}{}  {} {}\n", layer.passed() ? "ok" : "FAIL",
                       short_number(worst.elements->max_abs), align::to_string(layer.check), where_prefix(layer.where),
                       pair_text(layer.a_route, layer.b_route), tensor_label(layer, tensor_position(layer, worst)),
                       align::index_text(worst.elements->argmax));
  }
}

void print_result(const PadiffArgs& args, const align::PadiffResult& result, std::ostream& out) {
  out << fmt::format("tipc-run padiff: A {}, B {}: {} compared in {} (mode {}, atol {}, rtol {})\n", args.dump_a,
                     args.dump_b, plural(result.layers.size(), "layer pair"),
                     plural(result.ranks, "rank directory pair"), args.mode, short_number(args.tolerance.atol),
                     short_number(args.tolerance.rtol));
  if (!result.passed()) {
    print_first_divergence(result, out);
    print_divergences(result, out);
  }
  print_worst_layers(result, args.top, out);
  out << (result.passed() ? "PASS: no divergence\n"
                          : "FAIL: " + plural(result.divergences.size(), "divergence") + "\n");
}

Result<align::PadiffResult> run_comparison(const PadiffArgs& args) {
  auto options = padiff_options(args);
  if (!options) return fail(options.error());
  auto a = align::read_dump(args.dump_a);
  if (!a) return fail(a.error());
  auto b = align::read_dump(args.dump_b);
  if (!b) return fail(b.error());
  return align::compare_dumps(*a, *b, *options);
}

}  // namespace

int padiff_main(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  auto parsed = parse_padiff_args(args, out, err);
  if (const int* code = std::get_if<int>(&parsed)) return *code;
  const PadiffArgs& padiff_args = std::get<PadiffArgs>(parsed);
  const auto result = run_comparison(padiff_args);
  if (!result) {
    err << "tipc-run padiff: error: " << result.error().str() << '\n';
    return result.error().exit_code;
  }
  for (const std::string& warning : result->warnings) err << "tipc-run padiff: warning: " << warning << '\n';
  print_result(padiff_args, *result, out);
  return result->passed() ? kExitPassed : kExitFailed;
}

int padiff_main(const std::vector<std::string>& args) { return padiff_main(args, std::cout, std::cerr); }

}  // namespace tipc::cli
