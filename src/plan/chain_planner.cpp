#include "plan/chain_planner.h"

#include <fmt/format.h>

#include "plan/onnx_chain_planner.h"
#include "plan/serving_chain_planner.h"

namespace tipc::plan {
namespace {

using ChainPlanner = Result<Plan> (*)(const config::TrainInferConfig&, const dialect::Chain&, const PlanOptions&);

struct NativeChain {
  std::string_view chain;  // its name in chains.yaml
  ChainPlanner planner;
};

constexpr NativeChain kNativeChains[] = {
    {"paddle2onnx", plan_paddle2onnx},
    {"serving_infer_python", plan_serving},
};

const NativeChain* native_chain(std::string_view chain) {
  for (const auto& native : kNativeChains) {
    if (native.chain == chain) return &native;
  }
  return nullptr;
}

}  // namespace

bool has_chain_planner(std::string_view chain) { return native_chain(chain) != nullptr; }

Result<Plan> plan_chain(const config::TrainInferConfig& config, const dialect::Chain& chain,
                        const PlanOptions& options) {
  const NativeChain* native = native_chain(chain.name);
  if (!native || chain.planner != dialect::ChainPlanner::kNative) {
    return fail(Error::at(config.path, 0, "",
                          fmt::format("chain {} ({}:{}) has no native planner{}", chain.name, chain.file, chain.line,
                                      native ? " in its table (planner: native)" : " in tipc-run")));
  }
  Plan plan = TRY(native->planner(config, chain, options));
  plan.config_path = config.path;
  return plan;
}

Result<Plan> plan_chain_config(const config::ConfigText& text, const dialect::Chain& chain,
                               const PlanOptions& options) {
  const config::SplitRules rules{config::ValueSplit::kFirstColon, false, false};
  return plan_chain(config::split_config(text, rules, options.rules->line_view()), chain, options);
}

}  // namespace tipc::plan
