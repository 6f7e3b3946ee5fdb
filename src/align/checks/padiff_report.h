#pragma once
// What a PaDiff comparison looks like outside the program: the text `tipc-run padiff`
// prints (the first divergence in detail, every divergence in a line, the layers with the
// largest element-wise differences), and the comparison of two dump directories.
#include <cstddef>
#include <string>

#include "align/checks/padiff_compare.h"
#include "core/error.h"

namespace tipc::align {

// Reads both dumps (padiff_dump.h) and the layer map `options` names, and compares them.
Result<PadiffResult> compare_dump_directories(const std::string& dump_a, const std::string& dump_b,
                                              const PadiffOptions& options);

struct PadiffTextOptions {
  std::string dump_a, dump_b;  // as given, for the header line
  Tolerance tolerance;
  std::size_t top = 10;  // how many of the largest differences to list
};

std::string render_padiff_text(const PadiffResult& result, const PadiffTextOptions& options);

}  // namespace tipc::align
