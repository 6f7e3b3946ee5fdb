#pragma once
// `tipc-run init-check A B [--key K]... [--bins N] [--threshold T] [--json FILE]`: the
// weight-initialisation check (src/align/checks/init_check_files) on two .npy / .npz files. Plain arrays
// are compared with each other; reprod_log dicts (nested dicts flattened with dots) key by
// key, every key present in both or only the --key ones. One table row per key on stdout;
// --json writes the statistics and both histograms atomically.
// Exit codes: 0 every key passed, 1 a key failed, 2 bad input or usage.
#include <iosfwd>
#include <string>
#include <vector>

namespace tipc::cli {

// `args` are the words after "init-check".
int init_check_main(const std::vector<std::string>& args);
int init_check_main(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace tipc::cli
