#include "report/check_details.h"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <limits>

#include <fmt/format.h>

#include "align/checks/compare_results_report.h"
#include "align/checks/diff_summary.h"
#include "align/checks/init_check_report.h"

namespace tipc::report {
namespace {
namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

// "logits: max"; a plain array (no keys) has the key "".
std::string label(const std::string& key, const std::string& what) { return key.empty() ? what : key + ": " + what; }

std::string absolute_from(const std::string& cwd, const std::string& path) {
  return (fs::path(cwd) / path).lexically_normal().string();
}

CheckDetails details_of(std::optional<CheckKind> kind, bool passed) {
  CheckDetails details;
  details.kind = kind;
  details.passed = passed;
  return details;
}

// Every statistic of every key against the threshold; a row fails only when its key failed
// and this statistic is over the threshold (or not a number).
CheckDetails diff_details(const align::DiffSummary& summary, const std::string& cwd) {
  CheckDetails details = details_of(CheckKind::kDiff, summary.passed);
  for (const align::DiffKeySummary& key : summary.keys) {
    for (const auto& [statistic, value] : key.values) {
      details.values.push_back({label(key.key, std::string(align::to_string(statistic))), value, summary.threshold,
                                key.passed || value <= summary.threshold});
    }
    // A key that failed without values (a shape mismatch, a missing key) says why in a note.
    if (!key.passed && key.values.empty() && !key.reason.empty()) details.notes.push_back(label(key.key, key.reason));
  }
  details.notes.insert(details.notes.end(), summary.warnings.begin(), summary.warnings.end());
  details.compared_files = {absolute_from(cwd, summary.reference), absolute_from(cwd, summary.candidate)};
  return details;
}

// Per key, the element furthest from the ground truth against its own tolerance
// (atol + rtol * |pred|); a key missing from the log has no value.
CheckValue compare_results_row(const std::string& log, const align::KeyComparison& key) {
  CheckValue row{label(fs::path(log).filename().string(), key.key), std::numeric_limits<double>::quiet_NaN(),
                 std::nullopt, key.status == align::Verdict::kPass};
  if (key.allclose && key.allclose->worst) {
    row.value = key.allclose->worst->abs_diff;
    row.limit = key.allclose->worst->tolerance;
  }
  return row;
}

CheckDetails compare_results_details(const align::CompareResultsRun& run) {
  CheckDetails details = details_of(CheckKind::kCompareResults, run.report.exit_code() == 0);
  for (const align::LogCheck& log : run.report.logs) {
    for (const align::KeyComparison& key : log.keys) details.values.push_back(compare_results_row(log.log_file, key));
    if (log.status != align::Verdict::kPass && !log.reason.empty()) {
      details.notes.push_back(fmt::format("{}: {}: {}", log.log_file, align::to_string(log.status), log.reason));
    }
  }
  return details;
}

void add_key_list_note(CheckDetails& details, const std::vector<std::string>& keys, const char* what) {
  if (!keys.empty()) details.notes.push_back(fmt::format("{}: {}", what, fmt::join(keys, ", ")));
}

std::vector<double> as_doubles(const std::vector<std::size_t>& counts) { return {counts.begin(), counts.end()}; }

CheckDetails init_check_details(const align::InitCheckReport& report) {
  CheckDetails details = details_of(CheckKind::kInitCheck, report.all_passed());
  for (const align::InitCheckKey& key : report.keys) {
    const align::InitComparison& c = key.comparison;
    details.values.push_back({label(key.key, "KS"), c.ks_statistic, c.ks_limit, c.passed});
    details.histograms.push_back({key.key, c.bin_edges, as_doubles(c.first_counts), as_doubles(c.second_counts)});
  }
  add_key_list_note(details, report.only_in_a, "only in A");
  add_key_list_note(details, report.only_in_b, "only in B");
  add_key_list_note(details, report.not_arrays, "not compared (not arrays)");
  return details;
}

}  // namespace

Result<CheckDetails> check_details_from_json(plan::CheckKind kind, const nlohmann::ordered_json& json,
                                             const std::string& file, const std::string& cwd) {
  switch (kind) {
    case plan::CheckKind::kDiff: return diff_details(TRY(align::diff_summary_from_json(json, file)), cwd);
    case plan::CheckKind::kCompareResults:
      return compare_results_details(TRY(align::compare_results_from_json(json, file)));
    case plan::CheckKind::kInitCheck: return init_check_details(TRY(align::init_check_report_from_json(json, file)));
  }
  return fail(Error::plain("unknown check kind"));
}

std::string check_result_path(const plan::CheckSpec& check, const std::string& cwd) {
  return (fs::path(cwd) / check.result_file).lexically_normal().string();
}

CheckDetails unreadable_check(std::optional<CheckKind> kind, const std::string& why) {
  CheckDetails details = details_of(kind, false);
  details.notes = {"cannot read the check's result file: " + why};
  return details;
}

namespace {

CheckDetails read_details(plan::CheckKind kind, const Json& json, const std::string& path, const std::string& cwd) {
  auto details = check_details_from_json(kind, json, path, cwd);
  return details ? std::move(*details) : unreadable_check(kind, details.error().str());
}

double unix_mtime(const fs::path& path) {
  std::error_code ec;
  const auto time = fs::last_write_time(path, ec);
  if (ec) return 0;
  return std::chrono::duration<double>(std::chrono::file_clock::to_sys(time).time_since_epoch()).count();
}

}  // namespace

std::optional<CheckDetails> read_check_file(plan::CheckKind kind, const std::string& path, const std::string& cwd,
                                            double started_unix) {
  std::ifstream in(path);
  if (!in || unix_mtime(path) + 1 < started_unix) return std::nullopt;  // 1 s: file systems with coarse times
  const auto json = Json::parse(in, nullptr, false);
  CheckDetails details = json.is_discarded() ? unreadable_check(kind, path + ": not JSON (cut short?)")
                                             : read_details(kind, json, path, cwd);
  details.result_file = path;
  return details;
}

}  // namespace tipc::report
