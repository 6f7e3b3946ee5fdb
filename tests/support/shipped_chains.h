#pragma once
// The chains of this tree's configs/chains.yaml, read once: what a chain is (its script keys,
// its planner) comes from the table the binary reads, never from a copy in a test.
#include <stdexcept>
#include <string>

#include "dialect/chains.h"
#include "support/paths.h"

namespace tipc::test {

inline const dialect::Chains& shipped_chains() {
  static const dialect::Chains chains = [] {
    auto loaded = dialect::load_chains(source_dir() + "/configs/chains.yaml");
    if (!loaded) throw std::runtime_error(loaded.error().str());
    return *loaded;
  }();
  return chains;
}

inline const dialect::Chain& shipped_chain(const std::string& name) {
  for (const auto& chain : shipped_chains().chains) {
    if (chain.name == name) return chain;
  }
  throw std::runtime_error("no chain " + name + " in configs/chains.yaml");
}

// The script keys of the train/inference chain, as a traced train_params config gets them.
inline const std::vector<dialect::ScriptKey>& python_script_keys() {
  return shipped_chain("train_infer_python").script_keys;
}

}  // namespace tipc::test
