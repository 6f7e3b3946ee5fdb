#include "align/checks/padiff_report.h"

#include <algorithm>
#include <sstream>

#include <fmt/format.h>

#include "align/io/array.h"
#include "core/plural.h"

namespace tipc::align {
namespace {

std::string short_number(double value) { return fmt::format("{:.6g}", value); }

// "X" when both sides agree, "X vs Y" otherwise.
std::string pair_text(const std::string& a, const std::string& b) { return a == b ? a : a + " vs " + b; }

// What a layer's i-th tensor is called: parameters have one, layers a list.
std::string tensor_label(const LayerComparison& layer, std::size_t i) {
  switch (layer.check) {
    case Check::kForward: return "output " + std::to_string(i);
    case Check::kBackward: return "grad " + std::to_string(i);
    default: return "value";
  }
}

std::size_t tensor_position(const LayerComparison& layer, const TensorComparison& tensor) {
  return static_cast<std::size_t>(&tensor - layer.tensors.data());
}

std::string max_diff_text(const LayerComparison& layer, const TensorComparison& tensor) {
  return "max |diff| " + short_number(tensor.elements->max_abs) + " at " +
         tensor_label(layer, tensor_position(layer, tensor)) + " " + index_text(tensor.elements->argmax);
}

// How many elements fail on their own: under PaDiff's verdict (--padiff-compat), "0 of 6"
// shows its mean-mode false alarm (equal elements whose float32 means differ by summation
// order, as transposed Linear weights do); tipc-run's own verdict passes such a pair.
std::string outside_text(const TensorComparison& tensor) {
  if (!tensor.elements) return "";
  return fmt::format(", {} of {} elements outside the tolerance", tensor.elements->outside, tensor.elements->total);
}

// One line's worth of why a layer failed: its problem, else its largest difference, else
// the first failing tensor's reason (equal elements, or shapes that allow no element-wise diff).
std::string failure_summary(const LayerComparison& layer) {
  if (!layer.problem.empty()) return layer.problem;
  if (const auto* worst = layer.worst_tensor(); worst && worst->elements->max_abs > 0)
    return max_diff_text(layer, *worst) + outside_text(*worst);
  for (const auto& tensor : layer.tensors)
    if (!tensor.passed) return tensor.detail + outside_text(tensor);
  return "";
}

std::string where_prefix(const std::string& where) { return where.empty() ? "" : where + "  "; }

void print_first_divergence(const PadiffResult& result, std::ostream& out) {
  const Divergence& first = result.divergences.front();
  out << "first divergence: " << to_string(first.check) << (first.where.empty() ? "" : " " + first.where) << '\n';
  if (!first.layer) {
    out << "  reason: " << first.reason << '\n';
    return;
  }
  const LayerComparison& layer = result.layers[*first.layer];
  out << "  layer:  " << pair_text(layer.a_class, layer.b_class) << '\n';
  out << "  route:  " << layer.a_route << '\n';
  if (layer.b_route != layer.a_route) out << "          " << layer.b_route << '\n';
  out << "  reason: " << first.reason << '\n';
  if (!layer.problem.empty()) out << "  " << layer.problem << '\n';
  for (std::size_t i = 0; i < layer.tensors.size(); ++i) {
    const TensorComparison& tensor = layer.tensors[i];
    if (tensor.passed) continue;
    out << "  " << tensor_label(layer, i) << ": " << tensor.detail << '\n';
    if (const auto& e = tensor.elements)
      out << fmt::format("    max |diff| {} at {} (A {}, B {}), {} of {} elements outside the tolerance\n",
                         short_number(e->max_abs), index_text(e->argmax), short_number(e->a_at_max),
                         short_number(e->b_at_max), e->outside, e->total);
  }
}

void print_divergences(const PadiffResult& result, std::ostream& out) {
  out << "divergences (" << result.divergences.size() << "):\n";
  for (const Divergence& divergence : result.divergences) {
    out << fmt::format("  {:<9} {}", to_string(divergence.check), where_prefix(divergence.where));
    if (!divergence.layer) {
      out << divergence.reason << '\n';
      continue;
    }
    const LayerComparison& layer = result.layers[*divergence.layer];
    out << pair_text(layer.a_route, layer.b_route) << ": " << divergence.reason;
    const std::string summary = failure_summary(layer);
    out << (summary.empty() ? "" : "; " + summary) << '\n';
  }
}

// The layers with the largest element-wise differences, passing or not.
void print_worst_layers(const PadiffResult& result, std::size_t top, std::ostream& out) {
  std::vector<const LayerComparison*> ranked;
  for (const auto& layer : result.layers)
    if (layer.worst_tensor()) ranked.push_back(&layer);
  if (top == 0 || ranked.empty()) return;
  std::stable_sort(ranked.begin(), ranked.end(), [](const auto* x, const auto* y) {
    return x->worst_tensor()->elements->max_abs > y->worst_tensor()->elements->max_abs;
  });
  const std::size_t shown = std::min(top, ranked.size());
  out << "largest differences (" << shown << " of " << ranked.size() << " layers):\n";
  for (std::size_t i = 0; i < shown; ++i) {
    const LayerComparison& layer = *ranked[i];
    const TensorComparison& worst = *layer.worst_tensor();
    out << fmt::format("  {:<4} {:<12} {:<9} {}{}  {} {}\n", layer.passed() ? "ok" : "FAIL",
                       short_number(worst.elements->max_abs), to_string(layer.check), where_prefix(layer.where),
                       pair_text(layer.a_route, layer.b_route), tensor_label(layer, tensor_position(layer, worst)),
                       index_text(worst.elements->argmax));
  }
}

// --padiff-compat: one line per layer where a tensor's verdict is PaDiff's, not tipc-run's.
void print_verdict_notes(const PadiffResult& result, std::ostream& out) {
  std::vector<std::string> lines;
  for (const LayerComparison& layer : result.layers) {
    std::string notes;
    for (std::size_t i = 0; i < layer.tensors.size(); ++i) {
      if (layer.tensors[i].note.empty()) continue;
      notes += (notes.empty() ? "" : "; ") + tensor_label(layer, i) + ": " + layer.tensors[i].note;
    }
    if (!notes.empty())
      lines.push_back(fmt::format("  {:<9} {}{}: {}\n", to_string(layer.check), where_prefix(layer.where),
                                  pair_text(layer.a_route, layer.b_route), notes));
  }
  if (lines.empty()) return;
  out << "PaDiff's verdict, not tipc-run's (" << plural(lines.size(), "layer") << "):\n";
  for (const std::string& line : lines) out << line;
}

}  // namespace

Result<PadiffResult> compare_dump_directories(const std::string& dump_a, const std::string& dump_b,
                                              const PadiffOptions& options) {
  const Dump a = TRY(read_dump(dump_a));
  const Dump b = TRY(read_dump(dump_b));
  return compare_dumps(a, b, options);
}

std::string render_padiff_text(const PadiffResult& result, const PadiffTextOptions& options) {
  std::ostringstream out;
  out << fmt::format("tipc-run padiff: A {}, B {}: {} compared in {} (mode {}, atol {}, rtol {})\n", options.dump_a,
                     options.dump_b, plural(result.layers.size(), "layer pair"),
                     plural(result.ranks, "rank directory pair"), to_string(options.tolerance.mode),
                     short_number(options.tolerance.atol), short_number(options.tolerance.rtol));
  if (!result.passed()) {
    print_first_divergence(result, out);
    print_divergences(result, out);
  }
  print_verdict_notes(result, out);
  print_worst_layers(result, options.top, out);
  out << (result.passed() ? "PASS: no divergence\n"
                          : "FAIL: " + plural(result.divergences.size(), "divergence") + "\n");
  return out.str();
}

}  // namespace tipc::align
