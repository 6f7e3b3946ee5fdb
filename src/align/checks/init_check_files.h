#pragma once
// The init check of two weight files (what `tipc-run init-check A B` does): both are loaded
// like `tipc-run diff` loads them, nested dicts are flattened to dotted keys
// ("conv.weight"), the keys to compare are chosen, and each pair's distributions are
// compared (init_check.h). Two plain arrays compare with each other; two dicts compare every
// key in both, or only the wanted ones.
#include <cstddef>
#include <string>
#include <vector>

#include "align/checks/init_check.h"
#include "core/error.h"

namespace tipc::align {

struct InitCheckKey {
  std::string key;  // "" for two plain arrays
  InitComparison comparison;
};

struct InitCheckReport {
  std::string file_a, file_b;
  InitCheckOptions options;
  std::vector<InitCheckKey> keys;  // A's order
  std::vector<std::string> only_in_a, only_in_b;
  std::vector<std::string> not_arrays;  // in both files, but not an array in one of them

  std::size_t passed() const;
  bool all_passed() const { return passed() == keys.size(); }
};

// Errors: a file that cannot be loaded, a plain array against a dict, a wanted key missing
// or not an array, no array in both files, a pair that cannot be compared (naming the key).
Result<InitCheckReport> check_initialisation_files(const std::string& file_a, const std::string& file_b,
                                                   const std::vector<std::string>& wanted_keys,
                                                   const InitCheckOptions& options);

}  // namespace tipc::align
