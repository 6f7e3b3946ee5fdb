#include "history/run_reference.h"

#include <charconv>
#include <filesystem>
#include <fstream>
#include <optional>

#include <fmt/format.h>

#include "gate/run_pool.h"
#include "history/run_history.h"
#include "report/bundle_reader.h"
#include "report/report_json_reader.h"
#include "report/report_loader.h"
#include "run/journal_record.h"

namespace tipc::history {
namespace {

std::optional<std::int64_t> run_id_of(std::string_view word) {
  if (word.starts_with("run:")) word.remove_prefix(4);
  std::int64_t id = 0;
  const auto [end, ec] = std::from_chars(word.data(), word.data() + word.size(), id);
  return ec == std::errc() && end == word.data() + word.size() && id > 0 ? std::optional(id) : std::nullopt;
}

// Whether DIR/report.json describes the state under DIR: written after every journal there
// was last appended to. A run cut short after it (an interrupt, a filtered run that died)
// leaves a newer journal, and the state is read again.
bool report_is_current(const std::filesystem::path& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const auto written = fs::last_write_time(dir / "report.json", ec);
  if (ec) return false;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    if (it->path().filename() != run::kJournalFileName) continue;
    const auto appended = fs::last_write_time(it->path(), ec);
    if (ec || appended > written) return false;
  }
  return !ec;
}

// An output directory's run: its report.json when that is current (reading it is ~10x faster
// than rebuilding the report from the plan files, journals and stage logs, which matters for
// a 1,000-stage suite), else the state it holds, as `tipc-run report DIR` reads it.
Result<report::RunReport> load_directory_run(const std::string& dir) {
  if (report_is_current(dir)) {
    const std::string file = (std::filesystem::path(dir) / "report.json").string();
    std::ifstream in(file, std::ios::binary | std::ios::ate);
    std::string text(in ? static_cast<std::size_t>(in.tellg()) : 0, '\0');  // one read: a 1,000-stage report is MBs
    if (in.seekg(0).read(text.data(), static_cast<std::streamsize>(text.size()))) {
      return report::read_report_json(text, file);
    }
  }
  return report::load_run_report(dir);
}

// The last `runs` runs of a commit or branch: the latest alone, or those runs pooled
// (gate/run_pool.h) when there are several.
Result<RunReference> runs_of_ref(RunHistory& history, const std::string& word, const std::string& history_path,
                                 std::size_t runs) {
  const auto found = TRY(history.latest_runs(word, runs));
  if (found.empty()) {
    return fail(Error::plain(
        fmt::format("`{}` is no directory, bundle, run id, or commit or branch with a run in {}", word, history_path)));
  }
  if (found.size() == 1) {
    gate::RunSnapshot snapshot = TRY(history.snapshot(found.front().id));
    snapshot.label = fmt::format("{} (run {})", word, found.front().id);
    return RunReference{std::move(snapshot), found.front().id};
  }
  std::vector<gate::RunSnapshot> snapshots;
  for (auto run = found.rbegin(); run != found.rend(); ++run) snapshots.push_back(TRY(history.snapshot(run->id)));
  const std::string label = fmt::format("{} ({} runs, {}..{})", word, found.size(), found.back().id, found.front().id);
  return RunReference{gate::pool_runs(snapshots, label), found.front().id};
}

}  // namespace

Result<gate::RunSnapshot> load_run_reference(const std::string& word, const std::string& history_path,
                                             std::size_t runs) {
  return TRY(resolve_run_reference(word, history_path, runs)).snapshot;
}

Result<RunReference> resolve_run_reference(const std::string& word, const std::string& history_path, std::size_t runs) {
  std::error_code ec;
  const bool directory = std::filesystem::is_directory(word, ec),
             file = !directory && std::filesystem::is_regular_file(word, ec);
  if (runs > 1 && (directory || file || run_id_of(word))) {
    return fail(
        Error::plain(fmt::format("`{}` is one run: --runs {} takes the last runs of a commit or branch", word, runs)));
  }
  if (directory) return RunReference{gate::snapshot_of(TRY(load_directory_run(word)), word), std::nullopt};
  if (file) return RunReference{gate::snapshot_of(TRY(report::load_bundle_report(word)), word), std::nullopt};
  auto history = RunHistory::open(history_path, false);
  if (!history) {
    return fail(Error::plain(fmt::format("`{}` is no directory or bundle, and the run history cannot be read: {}", word,
                                         history.error().str())));
  }
  if (const auto id = run_id_of(word)) return RunReference{TRY(history->snapshot(*id)), id};
  return runs_of_ref(*history, word, history_path, runs);
}

}  // namespace tipc::history
