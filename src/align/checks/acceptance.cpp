#include "align/checks/acceptance.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "align/io/load.h"
#include "align/numeric/exact_sum.h"
#include "config/yaml_file.h"

namespace tipc::align {
namespace {

namespace fs = std::filesystem;

constexpr double kDefaultThreshold = 1e-6;
// The guide's tolerance for full training: 0.15 % top-1 on ImageNet-1k (as a fraction).
constexpr double kTrainAlignThreshold = 0.0015;

// The reference side is spelled torch, pytorch or benchmark in guides and user repos;
// train_align prefers "benchmark" (the guide's name), the others "torch".
AcceptanceCheck make_check(const std::string& name, double threshold, bool benchmark_first) {
  std::vector<std::string> suffixes = {"_torch.npy", "_pytorch.npy", "_benchmark.npy"};
  if (benchmark_first) std::rotate(suffixes.begin(), suffixes.begin() + 2, suffixes.end());
  AcceptanceCheck check;
  check.name = name;
  for (const std::string& suffix : suffixes) check.reference_names.push_back(name + suffix);
  check.candidate_names = {name + "_paddle.npy"};
  check.threshold = threshold;
  return check;
}

std::optional<std::string> first_existing(const fs::path& folder, const std::vector<std::string>& names) {
  for (const std::string& name : names) {
    std::error_code ec;
    if (fs::is_regular_file(folder / name, ec)) return (folder / name).string();
  }
  return std::nullopt;
}

Result<double> threshold_value(const std::string& path, const std::string& key, const YAML::Node& node) {
  double value = 0;
  // YAML 1.1 reads "1e-6" as a string in some loaders; yaml-cpp's as<double> accepts it.
  if (!node.IsScalar() || !YAML::convert<double>::decode(node, value))
    return fail(
        Error::at(path, config::yaml_line(node), "acceptance." + key, "acceptance." + key + ": expected a number"));
  if (!(value >= 0) || std::isinf(value))
    return fail(Error::at(path, config::yaml_line(node), "acceptance." + key,
                          "acceptance." + key + ": threshold must be a finite number >= 0"));
  return value;
}

AcceptanceCheck* find_check(std::vector<AcceptanceCheck>& checks, const std::string& name) {
  for (AcceptanceCheck& check : checks)
    if (check.name == name) return &check;
  return nullptr;
}

std::string known_check_names(const std::vector<AcceptanceCheck>& checks) {
  std::string names;
  for (const AcceptanceCheck& check : checks) names += (names.empty() ? "" : ", ") + check.name;
  return names;
}

// The largest statistic over every leaf: the number a reader compares with the threshold.
// A NaN anywhere makes the worst value NaN, since NaN can never be called "small".
std::optional<double> worst_value(const DiffResult& result) {
  std::optional<double> worst;
  for (const DiffEntry& entry : result.entries) {
    for (const MethodCheck& check : entry.checks) {
      const double value = check.value.as_double();
      if (std::isnan(value)) return value;
      if (!worst || value > *worst) worst = value;
    }
  }
  return worst;
}

std::string failing_keys(const DiffResult& result) {
  std::string text;
  for (const DiffEntry& entry : result.entries) {
    if (entry.is_group || entry.passed) continue;
    text += (text.empty() ? "" : "; ") + entry.path + ": " + entry.reason;
  }
  return text;
}

// Mean |x| of a small numeric array, or nothing when it is not worth a unit check.
std::optional<double> mean_magnitude(const Value* value) {
  const Array* array = value ? value->get<Array>() : nullptr;
  if (!array || array->size() == 0 || array->size() > 4096) return std::nullopt;
  if (array->dtype.kind == DtypeKind::kBool || array->dtype.kind == DtypeKind::kComplex) return std::nullopt;
  return exact_mean(*array, true);
}

// AlexNet-Prod stores top-1 in percent on one side and as a fraction on the other: the check
// then fails by ~56. Say so when a top-level metric on one side is about 100x the other.
std::vector<std::string> unit_warnings(const PairPaths& files) {
  std::vector<std::string> warnings;
  const auto reference = load_values(files.reference), candidate = load_values(files.candidate);
  if (!reference || !candidate) return warnings;
  const auto* dict1 = reference->get<Value::Dict>();
  const auto* dict2 = candidate->get<Value::Dict>();
  if (!dict1 || !dict2) return warnings;
  for (const auto& [key, value] : dict1->items) {
    const auto a = mean_magnitude(value.get()), b = mean_magnitude(dict2->find(key));
    if (!a || !b || *a == 0 || *b == 0) continue;
    const double ratio = std::max(*a, *b) / std::min(*a, *b);
    if (ratio > 50 && ratio < 200)
      warnings.push_back("key '" + key.text + "' is about 100x larger on one side: percent vs fraction?");
  }
  return warnings;
}

CheckOutcome missing_outcome(const std::string& dir, const AcceptanceCheck& check) {
  CheckOutcome outcome;
  outcome.check = check;
  outcome.status = Verdict::kMissing;
  std::string folders;
  for (const std::string& folder : acceptance_search_folders())
    folders += (folders.empty() ? "" : ", ") + (folder == "." ? dir : (fs::path(dir) / folder).string());
  outcome.detail = "no folder holds both " + describe_names(check.reference_names) + " and " +
                   describe_names(check.candidate_names) + " (searched " + folders + ")";
  return outcome;
}

CheckOutcome compare_pair(const AcceptanceCheck& check, const PairPaths& files, const DiffRules& rules) {
  CheckOutcome outcome;
  outcome.check = check;
  outcome.files = files;
  const DiffOptions options{check.method, check.threshold, rules, {}};
  auto result = compare_files(files.reference, files.candidate, options);
  if (!result) {
    // Structural mismatches are a failed check (reprod_log raises); unreadable files are errors.
    outcome.status = result.error().exit_code == kExitFailed ? Verdict::kFail : Verdict::kError;
    outcome.detail = result.error().str();
    return outcome;
  }
  outcome.status = result->passed ? Verdict::kPass : Verdict::kFail;
  outcome.worst_value = worst_value(*result);
  outcome.detail = failing_keys(*result);
  outcome.warnings = result->warnings;
  for (std::string& warning : unit_warnings(files)) outcome.warnings.push_back(std::move(warning));
  outcome.diff = std::move(*result);
  return outcome;
}

}  // namespace

std::vector<AcceptanceCheck> default_acceptance_checks() {
  return {make_check("forward", kDefaultThreshold, false), make_check("metric", kDefaultThreshold, false),
          make_check("loss", kDefaultThreshold, false), make_check("bp_align", kDefaultThreshold, false),
          make_check("train_align", kTrainAlignThreshold, true)};
}

// The folder itself first, then the sub-folders the guide and user repos collect them in.
std::vector<std::string> acceptance_search_folders() { return {".", "log_reprod", "diff"}; }

Result<std::vector<AcceptanceCheck>> apply_threshold_file(std::vector<AcceptanceCheck> checks,
                                                          const std::string& yaml_path) {
  auto root = TRY(config::load_yaml_file(yaml_path, "threshold file"));
  if (root.IsNull()) return checks;  // an empty file changes nothing
  if (!root.IsMap())
    return fail(Error::at(yaml_path, config::yaml_line(root), "", "expected a map with key 'acceptance'"));
  for (const auto& entry : root) {
    const std::string key = entry.first.as<std::string>();
    if (key != "acceptance")
      return fail(Error::at(yaml_path, config::yaml_line(entry.first), key,
                            "unknown key '" + key + "' (expected 'acceptance')"));
  }
  const YAML::Node section = root["acceptance"];
  if (section.IsNull()) return checks;
  if (!section.IsMap())
    return fail(Error::at(yaml_path, config::yaml_line(section), "acceptance", "acceptance: expected a map"));
  for (const auto& entry : section) {
    const std::string name = entry.first.as<std::string>();
    AcceptanceCheck* check = find_check(checks, name);
    if (!check)
      return fail(Error::at(yaml_path, config::yaml_line(entry.first), "acceptance." + name,
                            "unknown check 'acceptance." + name + "' (known: " + known_check_names(checks) + ")"));
    auto threshold = TRY(threshold_value(yaml_path, name, entry.second));
    check->threshold = threshold;
  }
  return checks;
}

std::optional<PairPaths> find_pair(const std::string& dir, const AcceptanceCheck& check) {
  // Both sides from the same folder: mixing a stale copy in diff/ with a fresh one in the
  // top folder would compare files from different runs.
  for (const std::string& folder : acceptance_search_folders()) {
    const fs::path where = folder == "." ? fs::path(dir) : fs::path(dir) / folder;
    auto reference = first_existing(where, check.reference_names);
    auto candidate = first_existing(where, check.candidate_names);
    if (reference && candidate) return PairPaths{*reference, *candidate};
  }
  return std::nullopt;
}

bool AcceptanceReport::all_passed() const {
  return std::all_of(outcomes.begin(), outcomes.end(),
                     [](const CheckOutcome& outcome) { return outcome.status == Verdict::kPass; });
}

int AcceptanceReport::exit_code() const {
  const bool unreadable = std::any_of(outcomes.begin(), outcomes.end(),
                                      [](const CheckOutcome& outcome) { return outcome.status == Verdict::kError; });
  if (unreadable) return kExitUsage;
  return all_passed() ? kExitPassed : kExitFailed;
}

AcceptanceReport run_acceptance(const std::string& dir, const std::vector<AcceptanceCheck>& checks,
                                const DiffRules& rules) {
  AcceptanceReport report;
  for (const AcceptanceCheck& check : checks) {
    const auto files = find_pair(dir, check);
    report.outcomes.push_back(files ? compare_pair(check, *files, rules) : missing_outcome(dir, check));
  }
  return report;
}

std::string describe_names(const std::vector<std::string>& names) {
  std::string text;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) text += i + 1 == names.size() ? " or " : ", ";
    text += names[i];
  }
  return text;
}

}  // namespace tipc::align
