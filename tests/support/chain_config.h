#pragma once
// A positional chain config (paddle2onnx_params, serving_params) written to a scratch file
// and planned by the native chain planner, for the planners' tests.
#include <string>

#include "plan/chain_planner.h"
#include "support/shipped_chains.h"
#include "support/temp_dir.h"

namespace tipc::test {

struct PlannedChain {
  TempDir dir;
  std::string config;  // the config file's path
  Result<plan::Plan> plan = fail(Error::plain("not planned"));
};

inline void plan_chain_text(PlannedChain& out, const std::string& text, const std::string& chain,
                            const std::string& mode) {
  out.config = out.dir.write("c.txt", text);
  plan::PlanOptions options;
  options.mode = mode;
  out.plan = plan::plan_chain_config(config::read_config_text(out.config).value(), shipped_chain(chain), options);
}

// The config text with its first `from` replaced by `to`: a config one mistake away.
inline std::string replaced(std::string text, const std::string& from, const std::string& to) {
  return text.replace(text.find(from), from.size(), to);
}

// The first diagnostic of a failed plan, as "line:key: message" without the file.
inline std::string first_problem(const PlannedChain& planned) {
  if (planned.plan) return "(planned)";
  const Diagnostic& d = planned.plan.error().diagnostics.front();
  return std::to_string(d.line) + ":" + d.key + ": " + d.message;
}

}  // namespace tipc::test
