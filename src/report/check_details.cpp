#include "report/check_details.h"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <limits>

#include <fmt/format.h>

namespace tipc::report {
namespace {
namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

// The commands write a non-finite number as null; it stays a NaN here.
double number_or_nan(const Json& value) {
  return value.is_number() ? value.get<double>() : std::numeric_limits<double>::quiet_NaN();
}

// "logits: max"; a plain array (no keys) has the key "".
std::string label(const std::string& key, const std::string& what) { return key.empty() ? what : key + ": " + what; }

std::string absolute_from(const std::string& cwd, const std::string& path) {
  return (fs::path(cwd) / path).lexically_normal().string();
}

CheckDetails details_of(std::string kind, bool passed) {
  CheckDetails details;
  details.kind = std::move(kind);
  details.passed = passed;
  return details;
}

// Every statistic of every key against the threshold; a row fails only when its key failed
// and this statistic is over the threshold (or not a number).
CheckDetails diff_details(const Json& json, const std::string& cwd) {
  CheckDetails details = details_of("diff", json.at("passed").get<bool>());
  const double threshold = json.at("threshold").get<double>();
  for (const Json& key : json.at("keys")) {
    const std::string name = key.at("key").get<std::string>();
    const bool key_passed = key.at("passed").get<bool>();
    for (const auto& [statistic, value] : key.at("values").items()) {
      const double number = number_or_nan(value);
      details.values.push_back({label(name, statistic), number, threshold, key_passed || number <= threshold});
    }
    // A key that failed without values (a shape mismatch, a missing key) says why in a note.
    if (!key_passed && key.at("values").empty() && !key.value("reason", "").empty()) {
      details.notes.push_back(label(name, key["reason"].get<std::string>()));
    }
  }
  for (const Json& warning : json.value("warnings", Json::array())) details.notes.push_back(warning.get<std::string>());
  details.compared_files = {absolute_from(cwd, json.at("reference").get<std::string>()),
                            absolute_from(cwd, json.at("candidate").get<std::string>())};
  return details;
}

// Per key, the element furthest from the ground truth against its own tolerance
// (atol + rtol * |pred|); a key missing from the log has no value.
CheckValue compare_results_row(const std::string& log, const Json& key) {
  const bool passed = key.at("status").get<std::string>() == "PASS";
  CheckValue row{label(fs::path(log).filename().string(), key.at("key").get<std::string>()),
                 std::numeric_limits<double>::quiet_NaN(), std::nullopt, passed};
  if (const Json& worst = key.at("worst"); worst.is_object()) {
    row.value = number_or_nan(worst.at("abs_diff"));
    row.limit = number_or_nan(worst.at("tolerance"));
  }
  return row;
}

CheckDetails compare_results_details(const Json& json) {
  CheckDetails details = details_of("compare-results", json.at("exit_code").get<int>() == 0);
  for (const Json& log : json.at("logs")) {
    const std::string file = log.at("log").get<std::string>();
    for (const Json& key : log.at("keys")) details.values.push_back(compare_results_row(file, key));
    const std::string status = log.at("status").get<std::string>();
    if (status != "PASS" && !log.value("reason", "").empty()) {
      details.notes.push_back(fmt::format("{}: {}: {}", file, status, log["reason"].get<std::string>()));
    }
  }
  return details;
}

HistogramPair histogram_pair(const std::string& key, const Json& histogram) {
  return {key, histogram.at("bin_edges").get<std::vector<double>>(), histogram.at("a_counts").get<std::vector<double>>(),
          histogram.at("b_counts").get<std::vector<double>>()};
}

void add_key_list_note(CheckDetails& details, const Json& json, const char* field, const char* what) {
  const auto keys = json.value(field, std::vector<std::string>{});
  if (!keys.empty()) details.notes.push_back(fmt::format("{}: {}", what, fmt::join(keys, ", ")));
}

CheckDetails init_check_details(const Json& json) {
  CheckDetails details = details_of("init-check", json.at("failed").get<int>() == 0);
  for (const Json& key : json.at("keys")) {
    const std::string name = key.at("key").get<std::string>();
    details.values.push_back({label(name, "KS"), number_or_nan(key.at("ks_statistic")), number_or_nan(key.at("ks_limit")),
                              key.at("status").get<std::string>() == "PASS"});
    if (key.contains("histogram")) details.histograms.push_back(histogram_pair(name, key["histogram"]));
  }
  add_key_list_note(details, json, "only_in_a", "only in A");
  add_key_list_note(details, json, "only_in_b", "only in B");
  add_key_list_note(details, json, "not_arrays", "not compared (not arrays)");
  return details;
}

}  // namespace

std::optional<CheckDetails> check_details_from_json(const std::string& subcommand, const nlohmann::ordered_json& json,
                                                    const std::string& cwd) {
  if (subcommand == "diff") return diff_details(json, cwd);
  if (subcommand == "compare-results") return compare_results_details(json);
  if (subcommand == "init-check") return init_check_details(json);
  return std::nullopt;
}

namespace {

double unix_mtime(const fs::path& path) {
  std::error_code ec;
  const auto time = fs::last_write_time(path, ec);
  if (ec) return 0;
  return std::chrono::duration<double>(std::chrono::file_clock::to_sys(time).time_since_epoch()).count();
}

}  // namespace

std::optional<CheckDetails> read_check_file(const std::string& log, const std::string& subcommand,
                                            const std::string& cwd, double started_unix) {
  const fs::path path = fs::path(log).replace_extension(".json");
  std::ifstream in(path);
  if (!in || unix_mtime(path) + 1 < started_unix) return std::nullopt;  // 1 s: file systems with coarse times
  const auto json = Json::parse(in, nullptr, false);
  if (!json.is_discarded()) {
    try {
      return check_details_from_json(subcommand, json, cwd);
    } catch (const Json::exception&) {
    }
  }
  CheckDetails unreadable = details_of(subcommand, false);
  unreadable.notes = {"cannot read " + path.string() + ": not a check's JSON file"};
  return unreadable;
}

}  // namespace tipc::report
