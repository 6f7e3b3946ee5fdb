#include "cli/run_reference.h"

#include <charconv>
#include <filesystem>
#include <optional>

#include <fmt/format.h>

#include "history/run_history.h"
#include "report/report_loader.h"

namespace tipc::cli {
namespace {

std::optional<std::int64_t> run_id_of(std::string_view word) {
  if (word.starts_with("run:")) word.remove_prefix(4);
  std::int64_t id = 0;
  const auto [end, ec] = std::from_chars(word.data(), word.data() + word.size(), id);
  return ec == std::errc() && end == word.data() + word.size() && id > 0 ? std::optional(id) : std::nullopt;
}

}  // namespace

Result<gate::RunSnapshot> load_run_reference(const std::string& word, const std::string& history_path) {
  return TRY(resolve_run_reference(word, history_path)).snapshot;
}

Result<RunReference> resolve_run_reference(const std::string& word, const std::string& history_path) {
  std::error_code ec;
  if (std::filesystem::is_directory(word, ec)) {
    return RunReference{gate::snapshot_of(TRY(report::load_run_report(word)), word), std::nullopt};
  }
  auto history = history::RunHistory::open(history_path, false);
  if (!history) {
    return fail(Error::plain(fmt::format("`{}` is no directory, and the run history cannot be read: {}", word,
                                         history.error().str())));
  }
  if (const auto id = run_id_of(word)) return RunReference{TRY(history->snapshot(*id)), id};
  const auto latest = TRY(history->latest(word));
  if (!latest) {
    return fail(Error::plain(
        fmt::format("`{}` is no directory, run id, or commit or branch with a run in {}", word, history_path)));
  }
  gate::RunSnapshot snapshot = TRY(history->snapshot(latest->id));
  snapshot.label = fmt::format("{} (run {})", word, latest->id);
  return RunReference{std::move(snapshot), latest->id};
}

}  // namespace tipc::cli
