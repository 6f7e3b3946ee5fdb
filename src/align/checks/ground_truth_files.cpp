#include "align/checks/ground_truth_files.h"

#include <glob.h>

#include <filesystem>

#include <fmt/format.h>

#include "align/io/array.h"

namespace tipc::align {
namespace {

Result<GroundTruth> read_ground_truth(const std::string& file, ResultFormat format) {
  const SharedBytes bytes = TRY(SharedBytes::map_file(file));
  return parse_ground_truth(bytes.view(), file, format);
}

Result<LogCheck> check_log_file(const std::string& log, const GroundTruths& truths, ResultFormat format,
                                const CompareRule& rule) {
  if (auto reason = why_skipped(log, truths)) {
    return LogCheck{log, Verdict::kSkipped, std::move(*reason), precision_in_name(log), "", {}};
  }
  const SharedBytes bytes = TRY(SharedBytes::map_file(log));
  return check_log(log, bytes.view(), truths, format, rule);
}

}  // namespace

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

Result<LoadedGroundTruths> load_ground_truths(const std::string& gt_glob, ResultFormat format) {
  const auto matched = glob_files(gt_glob);
  if (matched.empty()) return fail(Error::plain(fmt::format("no file matches the ground-truth glob '{}'", gt_glob)));
  GroundTruthFiles files = TRY(pick_ground_truth_files(matched));
  LoadedGroundTruths loaded{{}, std::move(files.ignored)};
  for (const auto& [precision, file] : files.by_precision)
    loaded.truths.emplace(precision, TRY(read_ground_truth(file, format)));
  return loaded;
}

Result<CompareReport> check_log_files(const std::string& log_glob, const GroundTruths& truths, ResultFormat format,
                                      const CompareRule& rule) {
  const auto logs = glob_files(log_glob);
  if (logs.empty()) return fail(Error::plain(fmt::format("no file matches the log glob '{}'", log_glob)));
  CompareReport report;
  for (const std::string& log : logs) report.logs.push_back(TRY(check_log_file(log, truths, format, rule)));
  return report;
}

}  // namespace tipc::align
