#include "plan/suite_planner.h"

#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "config/train_infer_config.h"
#include "plan/chain_planner.h"
#include "plan/cross_check.h"
#include "plan/plan_file.h"
#include "plan/runner_lookup.h"
#include "plan/traced_planner.h"
#include "plan/traced_status.h"
#include "trace/tracer.h"

namespace tipc::plan {
namespace {

config::TrainInferConfig split_for_trace(const config::ConfigText& text, const PlanningRules& rules) {
  return config::split_config(text, config::SplitRules{config::ValueSplit::kFirstColon, false, false},
                              rules.line_view());
}

trace::TraceRequest trace_request(const RunnerCall& call, const config::TrainInferConfig& config,
                                  const SuitePlanRequest& request) {
  trace::TraceRequest traced;
  traced.repo_root = request.options.repo_root;
  traced.runner = call.runner;
  traced.run_dir = call.run_dir;
  traced.config_arg = call.config_arg;
  traced.mode = request.options.mode;
  traced.interpreter = config.value_named("python");
  traced.model_name = config.value_named("model_name");
  traced.passed_env = request.trace.passed_env;
  traced.cache_dir = request.trace.cache_dir;
  return traced;
}

// The traced plan with what the trace and the cross-check found among its warnings;
// under --strict a cross-check finding is the config's error instead.
Result<Plan> plan_traced(const trace::Trace& trace, const config::TrainInferConfig& config, const RunnerCall& call,
                         const SuitePlanRequest& request, std::vector<std::optional<std::size_t>> status_sources) {
  const PlanOptions& options = request.options;
  static const std::vector<dialect::ScriptKey> kNoKeys;
  const auto& script_keys = call.chain ? call.chain->script_keys : kNoKeys;
  auto plan = plan_from_trace(
      trace, config,
      {options.rules, options.repo_root, options.python, std::move(status_sources), request.trace.setup, script_keys});
  if (!plan) return plan;
  for (const auto& warning : trace.warnings) plan->warnings.push_back({trace.runner, 0, "", warning});
  if (!trace.stderr_text.empty()) {
    const std::string first = trace.stderr_text.substr(0, trace.stderr_text.find('\n'));
    plan->warnings.push_back({trace.runner, 0, "", "the runner reported errors of its own while traced: " + first});
  }
  if (!options.rules->checks_config()) return plan;  // the reference's plan, quirks included
  // A dialect chosen on a weak marker (any copied test_tipc/ has a runner) would only
  // report the layout of another repository; and a dialect describes the configs of its
  // chain (chains.yaml's planner: dialect), not the other chains' (cpp_infer_params, ...).
  const bool sure = request.dialect && request.dialect_sure && call.dialect_describes;
  auto findings = cross_check(config, sure ? request.dialect : nullptr, script_keys, *plan);
  if (request.strict) TRY(strict_cross_check(findings));
  plan->warnings.insert(plan->warnings.end(), findings.begin(), findings.end());
  return plan;
}

// The reference's rules write each status line with the word the runner would: whose exit
// status that is takes a probe per call (trace::trace_each_call_failing, cached like the trace).
Result<Plan> plan_of_trace(const Result<trace::Trace>& traced, const trace::TraceRequest& trace_request,
                           const config::TrainInferConfig& config, const RunnerCall& call,
                           const SuitePlanRequest& request) {
  if (!traced) return fail(traced.error());
  std::vector<std::optional<std::size_t>> sources;
  if (request.options.rules->probes_status_sources()) {
    sources = status_sources(*traced,
                             trace::trace_each_call_failing(trace_request, traced->calls.size(), request.trace.jobs));
  }
  return plan_traced(*traced, config, call, request, std::move(sources));
}

// Traces every config's runner, several at once and through the trace cache, and plans
// from the traces, in the configs' order.
std::vector<Result<Plan>> plan_from_runners(
    const std::vector<std::pair<const config::ConfigText*, RunnerCall>>& configs, const SuitePlanRequest& request) {
  std::vector<config::TrainInferConfig> parsed;
  std::vector<trace::TraceRequest> requests;  // one per config, in order
  for (const auto& [text, call] : configs) {
    parsed.push_back(split_for_trace(*text, *request.options.rules));
    requests.push_back(trace_request(call, parsed.back(), request));
  }
  const auto traces = trace::trace_runners(requests, request.trace.jobs);
  std::vector<Result<Plan>> plans;
  for (std::size_t i = 0; i < parsed.size(); ++i) {
    plans.push_back(plan_of_trace(traces[i], requests[i], parsed[i], configs[i].second, request));
  }
  return plans;
}

// The plan of a config that no runner plans: its chain's native planner, else the dialect.
Result<Plan> plan_natively(const config::ConfigText& text, const RunnerChoice& choice,
                           const SuitePlanRequest& request) {
  if (request.source == PlanSource::kRunner) {
    return fail(Error::at(text.path, 0, "",
                          "--plan-from runner: its chain's runner is not in the test_tipc/ directory above it "
                          "(give --runner PATH, or --plan-from dialect)"));
  }
  if (const dialect::Chain* chain = native_chain(text, choice)) return plan_chain_config(text, *chain, request.options);
  if (request.dialect_error || !request.dialect) {
    return fail(request.dialect_error.value_or(Error::at(text.path, 0, "", "no dialect plans this config")));
  }
  return plan_config(text, *request.dialect, request.options);
}

}  // namespace

PlannedConfigs plan_configs(const std::vector<const config::ConfigText*>& configs, const SuitePlanRequest& request) {
  dialect::RunnerScripts scripts;  // each test_tipc/ directory's scripts read once for all configs
  const RunnerChoice choice{request.runner, request.options.mode, request.chains, &scripts};
  PlannedConfigs planned;
  std::vector<std::optional<Result<Plan>>> slots(configs.size());
  std::vector<std::pair<const config::ConfigText*, RunnerCall>> to_trace;
  std::vector<std::size_t> traced;
  for (std::size_t i = 0; i < configs.size(); ++i) {
    const config::ConfigText& text = *configs[i];
    auto runner = request.source == PlanSource::kDialect ? Result<std::optional<RunnerCall>>{}
                                                         : find_runner(text, request.options.repo_root, choice);
    if (!runner) {
      slots[i] = fail(runner.error());
    } else if (*runner) {
      to_trace.emplace_back(&text, **runner);
      traced.push_back(i);
      auto& runners = planned.runners;
      if (std::find(runners.begin(), runners.end(), (*runner)->runner) == runners.end())
        runners.push_back((*runner)->runner);
    } else {
      slots[i] = plan_natively(text, choice, request);
    }
  }
  auto traced_plans = plan_from_runners(to_trace, request);
  planned.traced.assign(configs.size(), false);
  for (std::size_t t = 0; t < traced.size(); ++t) {
    slots[traced[t]] = std::move(traced_plans[t]);
    planned.traced[traced[t]] = true;
  }
  for (auto& slot : slots) planned.plans.push_back(std::move(*slot));
  return planned;
}

}  // namespace tipc::plan
