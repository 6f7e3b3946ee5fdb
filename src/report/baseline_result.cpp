#include "report/baseline_result.h"

#include <filesystem>

#include <fmt/format.h>

#include "core/json_file.h"
#include "core/regular_file.h"

namespace tipc::report {
namespace {

// A comparison's file lists a few rows per stage: far below this.
constexpr std::size_t kMaxBaselineFileBytes = 64u << 20;

std::string file_in(const std::string& dir) { return (std::filesystem::path(dir) / kBaselineFileName).string(); }

}  // namespace

nlohmann::ordered_json baseline_json(const BaselineResult& result) {
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (const BaselineRegression& r : result.regressions) {
    rows.push_back({{"config", r.config},
                    {"mode", r.mode},
                    {"stage", r.stage},
                    {"figure", r.figure},
                    {"baseline", r.base},
                    {"new", r.current},
                    {"change", r.change},
                    {"why", r.why}});
  }
  return {{"baseline", result.baseline},
          {"run_started", result.run_started ? nlohmann::ordered_json(*result.run_started) : nullptr},
          {"regressions", rows}};
}

Result<BaselineResult> read_baseline(const JsonFieldReader& fields) {
  BaselineResult result;
  result.baseline = TRY(fields.optional<std::string>("baseline"));
  result.run_started = TRY(fields.optional<std::optional<double>>("run_started"));
  for (const JsonFieldReader& row : TRY(fields.objects("regressions"))) {
    BaselineRegression& r = result.regressions.emplace_back();
    r.config = TRY(row.optional<std::string>("config"));
    r.mode = TRY(row.optional<std::string>("mode"));
    r.stage = TRY(row.optional<std::string>("stage"));
    r.figure = TRY(row.optional<std::string>("figure"));
    r.base = TRY(row.optional<std::string>("baseline"));
    r.current = TRY(row.optional<std::string>("new"));
    r.change = TRY(row.optional<std::string>("change"));
    r.why = TRY(row.optional<std::string>("why"));
  }
  return result;
}

Result<void> write_baseline_file(const std::string& dir, const BaselineResult& result) {
  return write_json_atomically(file_in(dir), baseline_json(result));
}

void remove_baseline_file(const std::string& dir) {
  std::error_code ec;  // none there is what is wanted
  std::filesystem::remove(file_in(dir), ec);
}

std::optional<BaselineResult> read_baseline_file(const std::string& dir, const std::optional<double>& run_started) {
  const std::string path = file_in(dir);
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return std::nullopt;
  const auto text = read_regular_file(path, {"the baseline comparison"}, kMaxBaselineFileBytes);
  if (!text) return std::nullopt;
  const nlohmann::json json = nlohmann::json::parse(*text, nullptr, false);
  if (json.is_discarded() || !json.is_object()) return std::nullopt;
  auto result = read_baseline(JsonFieldReader(json, path));
  if (!result || result->run_started != run_started) return std::nullopt;
  return std::move(*result);
}

std::string regression_line(const BaselineRegression& r) {
  const std::string change = r.change.empty() ? "" : fmt::format(" ({})", r.change);
  const std::string why = r.why.empty() ? "" : ": " + r.why;
  return fmt::format("{} {} {} {}: {} -> {}{}{}", r.config, r.mode, r.stage, r.figure, r.base, r.current, change, why);
}

}  // namespace tipc::report
