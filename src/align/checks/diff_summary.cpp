#include "align/checks/diff_summary.h"

#include <fmt/format.h>

#include "align/checks/result_json.h"

namespace tipc::align {
namespace {

using Json = nlohmann::ordered_json;

Result<Statistic> statistic_named(const std::string& name, const JsonFields& values) {
  for (const Statistic statistic : {Statistic::kMin, Statistic::kMax, Statistic::kMean}) {
    if (name == to_string(statistic)) return statistic;
  }
  return fail(values.error(name, "not a statistic (min, max, mean)"));
}

Result<DiffKeySummary> diff_key_from(const JsonFields& key) {
  DiffKeySummary summary;  // member by member: see compare_results_report.cpp's worst_from
  summary.key = TRY(key.text("key"));
  summary.passed = TRY(key.boolean("passed"));
  summary.reason = TRY(key.text("reason"));
  summary.shape = TRY(key.counts("shape"));
  const JsonFields values = TRY(key.object("values"));
  for (const auto& [name, value] : values.json().items()) {
    const auto statistic = TRY(statistic_named(name, values));
    summary.values.emplace_back(statistic, TRY(values.number(name)));
  }
  return summary;
}

}  // namespace

DiffSummary summarize_diff(const DiffResult& result, const std::string& reference, const std::string& candidate,
                           const DiffOptions& options) {
  DiffSummary summary{reference, candidate, options.method, options.threshold, result.passed, {}, result.warnings};
  for (const DiffEntry& entry : result.entries) {
    if (entry.is_group) continue;
    DiffKeySummary key{entry.path, entry.passed, entry.reason, entry.diff.shape, {}};
    for (const MethodCheck& check : entry.checks) key.values.emplace_back(check.statistic, check.value.as_double());
    summary.keys.push_back(std::move(key));
  }
  return summary;
}

// Non-finite numbers have no JSON spelling; nlohmann writes them as null.
Json to_json(const DiffSummary& summary) {
  auto keys = Json::array();
  for (const DiffKeySummary& key : summary.keys) {
    auto values = Json::object();
    for (const auto& [statistic, value] : key.values) values[std::string(to_string(statistic))] = value;
    keys.push_back(
        {{"key", key.key}, {"passed", key.passed}, {"reason", key.reason}, {"shape", key.shape}, {"values", values}});
  }
  return {{"check", "diff"},
          {"reference", summary.reference},
          {"candidate", summary.candidate},
          {"method", summary.method},
          {"threshold", summary.threshold},
          {"passed", summary.passed},
          {"keys", keys},
          {"warnings", summary.warnings}};
}

Result<DiffSummary> diff_summary_from_json(const Json& json, const std::string& file) {
  const JsonFields fields(json, file);
  if (const std::string check = TRY(fields.text("check")); check != "diff") {
    return fail(fields.error("check", fmt::format("expected \"diff\", not \"{}\"", check)));
  }
  DiffSummary summary;  // member by member: see compare_results_report.cpp's worst_from
  summary.reference = TRY(fields.text("reference"));
  summary.candidate = TRY(fields.text("candidate"));
  summary.method = TRY(fields.text("method"));
  summary.threshold = TRY(fields.number("threshold"));
  summary.passed = TRY(fields.boolean("passed"));
  summary.warnings = TRY(fields.texts("warnings"));
  for (const JsonFields& key : TRY(fields.objects("keys"))) summary.keys.push_back(TRY(diff_key_from(key)));
  return summary;
}

}  // namespace tipc::align
