#pragma once
// `tipc-run padiff DUMP_A DUMP_B [--mode mean|strict|abs_mean] [--atol X] [--rtol X]
//  [--phase both|forward|backward] [--layer-map FILE] [--top N]`: compares two PaDiff dumps
// (A the base model, B the raw one) layer by layer. Prints the first divergence in execution
// order, every diverging layer, and the layers with the largest element-wise differences.
// Exit codes: 0 no divergence, 1 a divergence, 2 bad input (unreadable or malformed dump,
// missing tensor file, bad layer map, bad usage).
#include <iosfwd>
#include <string>
#include <vector>

namespace tipc::cli {

// `args` are the words after "padiff".
int padiff_main(const std::vector<std::string>& args);
int padiff_main(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace tipc::cli
