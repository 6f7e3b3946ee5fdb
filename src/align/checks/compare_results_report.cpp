#include "align/checks/compare_results_report.h"

#include <cmath>
#include <optional>

#include <fmt/format.h>

#include "align/checks/result_json.h"
#include "align/io/array.h"
#include "align/io/py_repr.h"
#include "core/plural.h"

namespace tipc::align {
namespace {

using Json = nlohmann::ordered_json;

std::string python_number(double value) { return python_float_repr(value); }

// "1 of 2 elements differ; worst at [1]: |0.91378 - 0.96378| = 0.05 > 0.00196378", or for
// an element that only had to be finite (--compare labels): "worst at [1]: pred nan is not finite"
std::string key_detail(const KeyComparison& key) {
  std::string detail = key.reason;
  if (key.allclose && key.allclose->worst) {
    const WorstElement& worst = *key.allclose->worst;
    const std::string where = worst.index.empty() ? "" : " at " + index_text(worst.index);
    if (std::isinf(worst.tolerance)) {
      detail += fmt::format("; worst{}: pred {} is not finite", where, python_number(worst.predicted));
    } else {
      detail +=
          fmt::format("; worst{}: |gt - pred| = |{} - {}| = {} > {}", where, python_number(worst.expected),
                      python_number(worst.predicted), python_number(worst.abs_diff), python_number(worst.tolerance));
    }
  }
  detail += fmt::format("; gt {} (line {})", key.gt_text, key.gt_line);
  if (key.log_line > 0) detail += fmt::format(", pred {} (line {})", key.pred_text, key.log_line);
  return detail;
}

std::string render_log(const LogCheck& log) {
  std::string text = fmt::format("{:<8}{}", to_string(log.status), log.log_file);
  if (log.status == Verdict::kSkipped) return text + ": " + log.reason + '\n';
  text += fmt::format(" (vs {}, {})", log.gt_file, plural(log.keys.size(), "key"));
  text += (log.reason.empty() ? "" : ": " + log.reason) + '\n';
  for (const KeyComparison& key : log.keys) {
    if (key.status != Verdict::kPass)
      text += fmt::format("    {:<8}{}: {}\n", to_string(key.status), key.key, key_detail(key));
  }
  return text;
}

std::string rule_text(const CompareRule& rule) {
  if (rule.comparison == Comparison::kLabels) return "labels: integers equal, other numbers finite";
  return fmt::format("atol {}, rtol {}", python_number(rule.tolerance.atol), python_number(rule.tolerance.rtol));
}

// Non-finite numbers have no JSON spelling; nlohmann writes them as null.
Json key_json(const KeyComparison& key) {
  Json worst = nullptr;
  if (key.allclose && key.allclose->worst) {
    const WorstElement& w = *key.allclose->worst;
    worst = {{"index", w.index},
             {"gt", w.expected},
             {"pred", w.predicted},
             {"abs_diff", w.abs_diff},
             {"tolerance", w.tolerance}};
  }
  const bool compared = key.allclose && key.allclose->shapes_match;
  return {{"key", key.key},
          {"status", to_string(key.status)},
          {"reason", key.reason},
          {"gt_line", key.gt_line},
          {"log_line", key.log_line > 0 ? Json(key.log_line) : Json(nullptr)},
          {"gt", key.gt_text},
          {"pred", key.log_line > 0 ? Json(key.pred_text) : Json(nullptr)},
          {"elements", compared ? Json(key.allclose->elements) : Json(nullptr)},
          {"mismatched", compared ? Json(key.allclose->mismatched) : Json(nullptr)},
          {"max_abs_diff", compared ? Json(key.allclose->max_abs_diff) : Json(nullptr)},
          {"worst", worst}};
}

// The largest |gt - pred| over the keys whose shapes matched; null when there is none.
Json log_max_abs_diff(const LogCheck& log) {
  std::optional<double> largest;
  for (const KeyComparison& key : log.keys) {
    if (key.allclose && key.allclose->shapes_match) largest = std::max(largest.value_or(0), key.allclose->max_abs_diff);
  }
  return largest ? Json(*largest) : Json(nullptr);
}

Json log_json(const LogCheck& log) {
  Json keys = Json::array();
  for (const KeyComparison& key : log.keys) keys.push_back(key_json(key));
  return {{"log", log.log_file},
          {"status", to_string(log.status)},
          {"reason", log.reason},
          {"precision", log.precision ? Json(to_string(*log.precision)) : Json(nullptr)},
          {"ground_truth", log.gt_file.empty() ? Json(nullptr) : Json(log.gt_file)},
          {"max_abs_diff", log_max_abs_diff(log)},
          {"keys", keys}};
}

Result<Precision> precision_named(const std::string& name, const JsonFields& fields, std::string_view key) {
  for (const Precision precision : {Precision::kFp32, Precision::kFp16, Precision::kInt8}) {
    if (name == to_string(precision)) return precision;
  }
  return fail(fields.error(key, fmt::format("'{}' is not a precision (fp32, fp16, int8)", name)));
}

Result<WorstElement> worst_from(const JsonFields& worst) {
  // Member by member: a TRY inside a braced initializer leaks the members built before it
  // when it returns early (GCC).
  WorstElement element;
  element.index = TRY(worst.counts("index"));
  element.expected = TRY(worst.number("gt"));
  element.predicted = TRY(worst.number("pred"));
  element.abs_diff = TRY(worst.number("abs_diff"));
  element.tolerance = TRY(worst.number("tolerance"));
  return element;
}

// The comparison a key's fields describe: none for a key missing from the log, one whose
// shapes differed when a prediction was read but no elements were compared.
Result<std::optional<AllcloseResult>> allclose_from(const JsonFields& key, bool in_log) {
  if (!in_log) return std::optional<AllcloseResult>();
  AllcloseResult result;
  const JsonFields::Json* elements = TRY(key.field("elements"));
  result.shapes_match = !elements->is_null();
  if (result.shapes_match) {
    result.elements = TRY(key.count("elements"));
    result.mismatched = TRY(key.count("mismatched"));
    result.max_abs_diff = TRY(key.number("max_abs_diff"));
  }
  if (const auto worst = TRY(key.optional_object("worst"))) result.worst = TRY(worst_from(*worst));
  return std::optional<AllcloseResult>(result);
}

Result<KeyComparison> compared_key_from(const JsonFields& key) {
  KeyComparison parsed;
  parsed.key = TRY(key.text("key"));
  parsed.status = TRY(key.verdict("status"));
  parsed.reason = TRY(key.text("reason"));
  parsed.gt_line = static_cast<int>(TRY(key.count("gt_line")));
  parsed.gt_text = TRY(key.text("gt"));
  const std::optional<std::string> pred = TRY(key.optional_text("pred"));
  if (pred) {
    parsed.log_line = static_cast<int>(TRY(key.count("log_line")));
    parsed.pred_text = *pred;
  }
  parsed.allclose = TRY(allclose_from(key, pred.has_value()));
  return parsed;
}

Result<LogCheck> log_from(const JsonFields& log) {
  LogCheck parsed;
  parsed.log_file = TRY(log.text("log"));
  parsed.status = TRY(log.verdict("status"));
  parsed.reason = TRY(log.text("reason"));
  if (const auto precision = TRY(log.optional_text("precision"))) {
    parsed.precision = TRY(precision_named(*precision, log, "precision"));
  }
  parsed.gt_file = TRY(log.optional_text("ground_truth")).value_or("");
  for (const JsonFields& key : TRY(log.objects("keys"))) parsed.keys.push_back(TRY(compared_key_from(key)));
  return parsed;
}

Result<CompareRule> rule_from(const JsonFields& fields) {
  const std::string comparison = TRY(fields.text("compare"));
  if (comparison == to_string(Comparison::kLabels)) return CompareRule{Comparison::kLabels, {}};
  if (comparison != to_string(Comparison::kAllclose))
    return fail(fields.error("compare", "expected allclose or labels"));
  const double atol = TRY(fields.number("atol"));
  return CompareRule{Comparison::kAllclose, {atol, TRY(fields.number("rtol"))}};
}

}  // namespace

std::string render_compare_results_text(const CompareResultsRun& run) {
  const CompareReport& report = run.report;
  std::string text;
  for (const LogCheck& log : report.logs) text += render_log(log);
  text += fmt::format("tipc-run compare-results: {} passed, {} failed, {} skipped ({})", report.count(Verdict::kPass),
                      report.count(Verdict::kFail), report.count(Verdict::kSkipped), rule_text(run.rule));
  if (report.count(Verdict::kPass) + report.count(Verdict::kFail) == 0) text += ": no log could be checked";
  return text + '\n';
}

Json to_json(const CompareResultsRun& run) {
  Json ground_truth = Json::object();
  for (const auto& [precision, file] : run.ground_truth_files) ground_truth[to_string(precision)] = file;
  Json logs = Json::array();
  for (const LogCheck& log : run.report.logs) logs.push_back(log_json(log));
  const bool labels = run.rule.comparison == Comparison::kLabels;  // no tolerance applies
  return {{"format", run.format},
          {"compare", to_string(run.rule.comparison)},
          {"atol", labels ? Json(nullptr) : Json(run.rule.tolerance.atol)},
          {"rtol", labels ? Json(nullptr) : Json(run.rule.tolerance.rtol)},
          {"ground_truth", ground_truth},
          {"passed", run.report.count(Verdict::kPass)},
          {"failed", run.report.count(Verdict::kFail)},
          {"skipped", run.report.count(Verdict::kSkipped)},
          {"exit_code", run.report.exit_code()},
          {"logs", logs}};
}

Result<CompareResultsRun> compare_results_from_json(const Json& json, const std::string& file) {
  const JsonFields fields(json, file);
  CompareResultsRun run;
  run.format = TRY(fields.text("format"));
  run.rule = TRY(rule_from(fields));
  const JsonFields ground_truth = TRY(fields.object("ground_truth"));
  for (const auto& [name, path] : ground_truth.json().items()) {
    const Precision precision = TRY(precision_named(name, ground_truth, name));
    run.ground_truth_files.emplace(precision, TRY(ground_truth.text(name)));
  }
  for (const JsonFields& log : TRY(fields.objects("logs"))) run.report.logs.push_back(TRY(log_from(log)));
  return run;
}

}  // namespace tipc::align
