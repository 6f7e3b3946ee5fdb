#pragma once
// Layout transforms per key: a weight dumped by another framework is compared without a
// conversion script. A rule names a key (or a glob over dotted key paths) and how B's array
// is laid out relative to A's; the diff then reads B through that axis permutation (a view:
// nothing is copied).
//
//   layout:
//     fc.weight: transpose          # Linear: [in, out] vs [out, in] (all axes reversed)
//     "features.*.weight": oihw_to_hwio
//     head.kernel: [0, 2, 3, 1]     # any permutation, numpy's transpose(axes) of B
//
// Named transforms: transpose, oihw_to_hwio (B is OIHW, A is HWIO), hwio_to_oihw.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "align/io/array.h"
#include "core/error.h"

namespace YAML {
class Node;
}

namespace tipc::align {

struct LayoutRule {
  std::string pattern;            // a dotted key path, or a glob over them ("features.*.weight")
  std::string transform;          // "transpose", "oihw_to_hwio", "hwio_to_oihw", or "[0, 2, 3, 1]"
  std::vector<std::size_t> axes;  // explicit permutation; empty for a named transform
  std::string source;             // "layout.yaml:3", for messages
};

// The first rule whose pattern matches `key_path`, in file order.
const LayoutRule* find_layout_rule(const std::vector<LayoutRule>& rules, const std::string& key_path);

// numpy's transpose(axes) for an array of `ndim` axes, or an error text when the transform
// does not fit (a 4-D transform on a 2-D array, a permutation of the wrong length).
Result<std::vector<std::size_t>> layout_axes(const LayoutRule& rule, std::size_t ndim);

// numpy's ascontiguousarray(array.transpose(axes)): a C-order copy (axes from layout_axes).
Array permuted_copy(const Array& array, const std::vector<std::size_t>& axes);

// Reads a `{key: transform}` map (the value of a `layout:` key); errors name file, line and key.
Result<std::vector<LayoutRule>> layout_rules_from_yaml(const YAML::Node& map, const std::string& file);

// A file whose top level is `layout: {key: transform, ...}`.
Result<std::vector<LayoutRule>> load_layout_file(const std::string& path);

}  // namespace tipc::align
