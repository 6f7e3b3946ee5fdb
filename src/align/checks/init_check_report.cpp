#include "align/checks/init_check_report.h"

#include <algorithm>
#include <numeric>

#include <fmt/format.h>

#include "align/checks/result_json.h"
#include "align/checks/verdict.h"

namespace tipc::align {
namespace {

using Json = nlohmann::ordered_json;

std::string display_key(const std::string& key) { return key.empty() ? "(array)" : key; }

std::string limit_description(const InitCheckOptions& options) {
  if (options.max_ks > 0) return fmt::format("the fixed --threshold {:g}", options.max_ks);
  return "the two-sample critical value at alpha = 0.01 for each key's sizes";
}

std::string render_key_table(const InitCheckReport& report) {
  std::size_t key_width = 3;
  for (const auto& key : report.keys) key_width = std::max(key_width, display_key(key.key).size());
  std::string text = "KS limit: " + limit_description(report.options) + '\n';
  text += fmt::format("{:<{}} {:>11} {:>11} {:>11} {:>11} {:>11} {:>11} {:>11} {:>11} {:>8} {:>9} {:>9} {}\n", "key",
                      key_width, "mean A", "mean B", "std A", "std B", "min A", "min B", "max A", "max B", "overlap",
                      "KS", "limit", "result");
  for (const auto& [key, c] : report.keys) {
    text += fmt::format(
        "{:<{}} {:>11.4g} {:>11.4g} {:>11.4g} {:>11.4g} {:>11.4g} {:>11.4g} {:>11.4g} {:>11.4g} {:>8.4f} {:>9.4g} "
        "{:>9.4g} {}\n",
        display_key(key), key_width, c.first.mean, c.second.mean, c.first.std, c.second.std, c.first.min, c.second.min,
        c.first.max, c.second.max, c.histogram_overlap, c.ks_statistic, c.ks_limit,
        to_string(c.passed ? Verdict::kPass : Verdict::kFail));
  }
  return text;
}

Json stats_json(const DistributionStats& stats) {
  return {{"count", stats.count}, {"mean", stats.mean}, {"std", stats.std}, {"min", stats.min}, {"max", stats.max}};
}

Json key_json(const InitCheckKey& key) {
  const InitComparison& c = key.comparison;
  return {{"key", key.key},
          {"status", to_string(c.passed ? Verdict::kPass : Verdict::kFail)},
          {"reason", c.reason},
          {"a", stats_json(c.first)},
          {"b", stats_json(c.second)},
          {"ks_statistic", c.ks_statistic},
          {"ks_limit", c.ks_limit},
          {"histogram_overlap", c.histogram_overlap},
          {"histogram", {{"bin_edges", c.bin_edges}, {"a_counts", c.first_counts}, {"b_counts", c.second_counts}}}};
}

Result<DistributionStats> stats_from(const JsonFields& stats) {
  return DistributionStats{TRY(stats.count("count")), TRY(stats.number("mean")), TRY(stats.number("std")),
                           TRY(stats.number("min")), TRY(stats.number("max"))};
}

std::vector<double> probabilities(const std::vector<std::size_t>& counts) {
  const double total = static_cast<double>(std::accumulate(counts.begin(), counts.end(), std::size_t{0}));
  std::vector<double> result;
  for (const std::size_t count : counts) result.push_back(total > 0 ? static_cast<double>(count) / total : 0.0);
  return result;
}

Result<InitCheckKey> init_key_from(const JsonFields& key) {
  InitCheckKey parsed{TRY(key.text("key")), {}};
  InitComparison& c = parsed.comparison;
  c.passed = TRY(key.verdict("status")) == Verdict::kPass;
  c.reason = TRY(key.text("reason"));
  c.first = TRY(stats_from(TRY(key.object("a"))));
  c.second = TRY(stats_from(TRY(key.object("b"))));
  c.ks_statistic = TRY(key.number("ks_statistic"));
  c.ks_limit = TRY(key.number("ks_limit"));
  c.histogram_overlap = TRY(key.number("histogram_overlap"));
  const JsonFields histogram = TRY(key.object("histogram"));
  c.bin_edges = TRY(histogram.numbers("bin_edges"));
  c.first_counts = TRY(histogram.counts("a_counts"));
  c.second_counts = TRY(histogram.counts("b_counts"));
  c.first_hist = probabilities(c.first_counts);
  c.second_hist = probabilities(c.second_counts);
  return parsed;
}

}  // namespace

std::string render_init_check_text(const InitCheckReport& report) {
  std::string text = render_key_table(report);
  if (!report.only_in_a.empty())
    text += fmt::format("only in A ({}): {}\n", report.file_a, fmt::join(report.only_in_a, ", "));
  if (!report.only_in_b.empty())
    text += fmt::format("only in B ({}): {}\n", report.file_b, fmt::join(report.only_in_b, ", "));
  if (!report.not_arrays.empty())
    text += fmt::format("not compared (not arrays): {}\n", fmt::join(report.not_arrays, ", "));
  return text + fmt::format("tipc-run init-check: {} passed, {} failed\n", report.passed(),
                            report.keys.size() - report.passed());
}

Json to_json(const InitCheckReport& report) {
  Json keys = Json::array();
  for (const auto& key : report.keys) keys.push_back(key_json(key));
  const bool fixed = report.options.max_ks > 0;
  return {{"a", report.file_a},
          {"b", report.file_b},
          {"bins", report.options.bins},
          {"ks_limit", fixed ? "threshold" : "critical_value"},
          {"threshold", fixed ? Json(report.options.max_ks) : Json(nullptr)},
          {"passed", report.passed()},
          {"failed", report.keys.size() - report.passed()},
          {"only_in_a", report.only_in_a},
          {"only_in_b", report.only_in_b},
          {"not_arrays", report.not_arrays},
          {"keys", keys}};
}

Result<InitCheckReport> init_check_report_from_json(const Json& json, const std::string& file) {
  const JsonFields fields(json, file);
  InitCheckReport report;
  report.file_a = TRY(fields.text("a"));
  report.file_b = TRY(fields.text("b"));
  report.options.bins = TRY(fields.count("bins"));
  if (const std::string limit = TRY(fields.text("ks_limit")); limit == "threshold") {
    report.options.max_ks = TRY(fields.number("threshold"));
  }
  report.only_in_a = TRY(fields.texts("only_in_a"));
  report.only_in_b = TRY(fields.texts("only_in_b"));
  report.not_arrays = TRY(fields.texts("not_arrays"));
  for (const JsonFields& key : TRY(fields.objects("keys"))) report.keys.push_back(TRY(init_key_from(key)));
  return report;
}

}  // namespace tipc::align
