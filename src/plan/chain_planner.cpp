#include "plan/chain_planner.h"

#include <fmt/format.h>

#include "config/config_text.h"
#include "plan/onnx_chain_planner.h"
#include "plan/serving_chain_planner.h"

namespace tipc::plan {
namespace {

using ChainPlanner = Result<Plan> (*)(const config::TrainInferConfig&, const PlanOptions&);

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

Result<Plan> plan_chain(const config::TrainInferConfig& config, std::string_view chain, const PlanOptions& options) {
  const NativeChain* native = native_chain(chain);
  if (!native) return fail(Error::at(config.path, 0, "", fmt::format("chain {} has no native planner", chain)));
  Plan plan = TRY(native->planner(config, options));
  plan.config_path = config.path;
  return plan;
}

Result<Plan> plan_chain_file(const std::string& path, std::string_view chain, const PlanOptions& options) {
  config::ReadOptions read;
  read.keep_carriage_returns = options.compat;
  const auto text = TRY(config::read_config_text(path, read));
  const auto config = config::split_config(text, config::SplitRules{config::ValueSplit::kFirstColon, false, false});
  return plan_chain(config, chain, options);
}

}  // namespace tipc::plan
