#include "cli/compare_results_command.h"

#include <fmt/format.h>
#include <glob.h>

#include <CLI/CLI.hpp>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <variant>

#include "align/array.h"
#include "align/ground_truth.h"
#include "align/py_repr.h"
#include "cli/subcommand.h"
#include "core/json_file.h"
#include "core/error.h"
#include "core/plural.h"

namespace tipc::cli {
namespace {

using Json = nlohmann::ordered_json;
using align::LogStatus;

const std::map<std::string, align::ResultFormat> kFormats = {{"tipc", align::ResultFormat::Tipc},
                                                              {"video", align::ResultFormat::Video},
                                                              {"metric", align::ResultFormat::Metric}};

const std::map<std::string, align::Comparison> kComparisons = {{"allclose", align::Comparison::Allclose},
                                                               {"labels", align::Comparison::Labels}};

struct CompareResultsArgs {
  std::string gt_glob, log_glob;
  align::CompareRule rule;
  std::string format = "tipc";
  std::optional<std::string> json_path;
};

// Returns the parsed arguments, or the exit code (0 after --help).
std::variant<CompareResultsArgs, int> parse_compare_results_args(const std::vector<std::string>& args,
                                                                 std::ostream& out, std::ostream& err) {
  CompareResultsArgs parsed;
  CLI::App app{"Compare inference logs with ground-truth results like TIPC's compare_results.py",
               "tipc-run compare-results"};
  app.add_option("--gt", parsed.gt_glob, "glob of the ground-truth files (fp32, fp16, int8 in their names)")
      ->required();
  app.add_option("--log", parsed.log_glob, "glob of the inference logs (a name's precision picks the ground truth)")
      ->required();
  auto* atol = app.add_option("--atol", parsed.rule.tolerance.atol, "absolute tolerance (default 1e-3)")
                   ->check(CLI::NonNegativeNumber);
  auto* rtol = app.add_option("--rtol", parsed.rule.tolerance.rtol, "relative tolerance, times |pred| (default 1e-3)")
                   ->check(CLI::NonNegativeNumber);
  app.add_option("--compare", parsed.rule.comparison,
                 "allclose (default: every element within atol + rtol * |pred|) or labels (integers equal, other "
                 "numbers only finite: what a trained model gives on every CPU)")
      ->transform(CLI::CheckedTransformer(kComparisons));
  app.add_option("--format", parsed.format, "tipc (default), video (PaddleVideo) or metric (name:value lines)")
      ->check(CLI::IsMember({"tipc", "video", "metric"}));
  app.add_option("--json", parsed.json_path, "also write the outcomes to this JSON file (replaced atomically)");
  if (const auto code = parse_subcommand(app, args, out, err)) return *code;
  if (parsed.rule.comparison == align::Comparison::Labels && (atol->count() > 0 || rtol->count() > 0)) {
    err << "tipc-run compare-results: error: --atol and --rtol apply to --compare allclose, not labels\n";
    return kExitUsage;
  }
  return parsed;
}

// Regular files matching a shell glob, sorted (glob(3) sorts; Python's glob does not, so
// upstream's order was the directory's).
std::vector<std::string> glob_files(const std::string& pattern) {
  std::vector<std::string> files;
  glob_t matches{};
  if (::glob(pattern.c_str(), 0, nullptr, &matches) == 0) {
    for (std::size_t i = 0; i < matches.gl_pathc; ++i) {
      std::error_code ec;
      if (std::filesystem::is_regular_file(matches.gl_pathv[i], ec)) files.emplace_back(matches.gl_pathv[i]);
    }
  }
  ::globfree(&matches);
  return files;
}

Result<align::GroundTruth> read_ground_truth(const std::string& file, align::ResultFormat format) {
  const auto bytes = align::SharedBytes::map_file(file);
  if (!bytes) return fail(bytes.error());
  return align::parse_ground_truth(bytes->view(), file, format);
}

Result<align::GroundTruths> load_ground_truths(const CompareResultsArgs& args, std::ostream& err) {
  const auto matched = glob_files(args.gt_glob);
  if (matched.empty()) {
    return fail(Error::plain(fmt::format("no file matches the ground-truth glob '{}'", args.gt_glob)));
  }
  const auto files = align::pick_ground_truth_files(matched);
  if (!files) return fail(files.error());
  for (const std::string& ignored : files->ignored) {
    err << "tipc-run compare-results: warning: ignoring " << ignored << ": no fp32, fp16 or int8 in its name\n";
  }
  align::GroundTruths truths;
  for (const auto& [precision, file] : files->by_precision) {
    auto truth = read_ground_truth(file, kFormats.at(args.format));
    if (!truth) return fail(truth.error());
    truths.emplace(precision, std::move(*truth));
  }
  return truths;
}

Result<align::LogCheck> check_log_file(const std::string& log, const align::GroundTruths& truths,
                                       const CompareResultsArgs& args) {
  if (auto reason = align::why_skipped(log, truths)) {
    return align::LogCheck{log, LogStatus::Skipped, std::move(*reason), align::precision_in_name(log), "", {}};
  }
  const auto bytes = align::SharedBytes::map_file(log);
  if (!bytes) return fail(bytes.error());
  return align::check_log(log, bytes->view(), truths, kFormats.at(args.format), args.rule);
}

Result<align::CompareReport> check_logs(const align::GroundTruths& truths, const CompareResultsArgs& args) {
  const auto logs = glob_files(args.log_glob);
  if (logs.empty()) return fail(Error::plain(fmt::format("no file matches the log glob '{}'", args.log_glob)));
  align::CompareReport report;
  for (const std::string& log : logs) {
    auto check = check_log_file(log, truths, args);
    if (!check) return fail(check.error());
    report.logs.push_back(std::move(*check));
  }
  return report;
}

std::string python_number(double value) { return align::python_float_repr(value); }


// "1 of 2 elements differ; worst at [1]: |0.91378 - 0.96378| = 0.05 > 0.00196378", or for
// an element that only had to be finite (--compare labels): "worst at [1]: pred nan is not finite"
std::string key_detail(const align::KeyComparison& key) {
  std::string detail = key.reason;
  if (key.allclose && key.allclose->worst) {
    const align::WorstElement& worst = *key.allclose->worst;
    const std::string where = worst.index.empty() ? "" : " at " + align::index_text(worst.index);
    if (std::isinf(worst.tolerance)) {
      detail += fmt::format("; worst{}: pred {} is not finite", where, python_number(worst.predicted));
    } else {
      detail += fmt::format("; worst{}: |gt - pred| = |{} - {}| = {} > {}", where, python_number(worst.expected),
                            python_number(worst.predicted), python_number(worst.abs_diff), python_number(worst.tolerance));
    }
  }
  detail += fmt::format("; gt {} (line {})", key.gt_text, key.gt_line);
  if (key.log_line > 0) detail += fmt::format(", pred {} (line {})", key.pred_text, key.log_line);
  return detail;
}

void print_log(const align::LogCheck& log, std::ostream& out) {
  out << fmt::format("{:<8}{}", align::log_status_name(log.status), log.log_file);
  if (log.status == LogStatus::Skipped) {
    out << ": " << log.reason << '\n';
    return;
  }
  out << fmt::format(" (vs {}, {})", log.gt_file, plural(log.keys.size(), "key"));
  out << (log.reason.empty() ? "" : ": " + log.reason) << '\n';
  for (const align::KeyComparison& key : log.keys) {
    if (key.status == align::KeyStatus::Passed) continue;
    out << fmt::format("    {:<8}{}: {}\n", align::key_status_name(key.status), key.key, key_detail(key));
  }
}

std::string rule_text(const align::CompareRule& rule) {
  if (rule.comparison == align::Comparison::Labels) return "labels: integers equal, other numbers finite";
  return fmt::format("atol {}, rtol {}", python_number(rule.tolerance.atol), python_number(rule.tolerance.rtol));
}

void print_report(const align::CompareReport& report, const align::CompareRule& rule, std::ostream& out) {
  for (const align::LogCheck& log : report.logs) print_log(log, out);
  out << fmt::format("tipc-run compare-results: {} passed, {} failed, {} skipped ({})",
                     report.count(LogStatus::Passed), report.count(LogStatus::Failed),
                     report.count(LogStatus::Skipped), rule_text(rule));
  if (report.count(LogStatus::Passed) + report.count(LogStatus::Failed) == 0) out << ": no log could be checked";
  out << '\n' << std::flush;
}

// Non-finite numbers have no JSON spelling; nlohmann writes them as null.
Json key_json(const align::KeyComparison& key) {
  Json worst = nullptr;
  if (key.allclose && key.allclose->worst) {
    const align::WorstElement& w = *key.allclose->worst;
    worst = {{"index", w.index}, {"gt", w.expected}, {"pred", w.predicted}, {"abs_diff", w.abs_diff},
             {"tolerance", w.tolerance}};
  }
  const bool compared = key.allclose && key.allclose->shapes_match;
  return {{"key", key.key},
          {"status", align::key_status_name(key.status)},
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
Json log_max_abs_diff(const align::LogCheck& log) {
  std::optional<double> largest;
  for (const align::KeyComparison& key : log.keys) {
    if (key.allclose && key.allclose->shapes_match) largest = std::max(largest.value_or(0), key.allclose->max_abs_diff);
  }
  return largest ? Json(*largest) : Json(nullptr);
}

Json log_json(const align::LogCheck& log) {
  Json keys = Json::array();
  for (const align::KeyComparison& key : log.keys) keys.push_back(key_json(key));
  return {{"log", log.log_file},
          {"status", align::log_status_name(log.status)},
          {"reason", log.reason},
          {"precision", log.precision ? Json(align::precision_name(*log.precision)) : Json(nullptr)},
          {"ground_truth", log.gt_file.empty() ? Json(nullptr) : Json(log.gt_file)},
          {"max_abs_diff", log_max_abs_diff(log)},
          {"keys", keys}};
}

Json report_json(const align::CompareReport& report, const align::GroundTruths& truths,
                 const CompareResultsArgs& args) {
  Json ground_truth = Json::object();
  for (const auto& [precision, truth] : truths) ground_truth[align::precision_name(precision)] = truth.file;
  Json logs = Json::array();
  for (const align::LogCheck& log : report.logs) logs.push_back(log_json(log));
  const bool labels = args.rule.comparison == align::Comparison::Labels;  // no tolerance applies
  return {{"format", args.format},
          {"compare", align::comparison_name(args.rule.comparison)},
          {"atol", labels ? Json(nullptr) : Json(args.rule.tolerance.atol)},
          {"rtol", labels ? Json(nullptr) : Json(args.rule.tolerance.rtol)},
          {"ground_truth", ground_truth},
          {"passed", report.count(LogStatus::Passed)},
          {"failed", report.count(LogStatus::Failed)},
          {"skipped", report.count(LogStatus::Skipped)},
          {"exit_code", report.exit_code()},
          {"logs", logs}};
}

}  // namespace

int compare_results_main(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  auto parsed = parse_compare_results_args(args, out, err);
  if (const int* code = std::get_if<int>(&parsed)) return *code;
  const CompareResultsArgs& compare_args = std::get<CompareResultsArgs>(parsed);
  const auto truths = load_ground_truths(compare_args, err);
  if (!truths) return subcommand_error("compare-results", truths.error(), err);
  const auto report = check_logs(*truths, compare_args);
  if (!report) return subcommand_error("compare-results", report.error(), err);
  print_report(*report, compare_args.rule, out);
  if (compare_args.json_path) {
    if (auto written = write_json_atomically(*compare_args.json_path, report_json(*report, *truths, compare_args));
        !written) {
      return subcommand_error("compare-results", written.error(), err);
    }
  }
  return report->exit_code();
}

int compare_results_main(const std::vector<std::string>& args) {
  return compare_results_main(args, std::cout, std::cerr);
}

}  // namespace tipc::cli
