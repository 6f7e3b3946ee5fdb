#include "history/run_history.h"

#include <array>
#include <bit>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <map>

#include <fmt/format.h>

namespace tipc::history {
namespace {

static_assert(std::endian::native == std::endian::little, "samples are stored little-endian");

// Schema steps, in order: the database's user_version says how many it has had. A new
// version appends a step; a step never changes once released.
constexpr std::array<std::string_view, kSchemaVersion> kMigrations = {
    R"sql(
CREATE TABLE runs(
  id INTEGER PRIMARY KEY,
  recorded REAL NOT NULL,
  started REAL, finished REAL,
  verdict TEXT NOT NULL,
  tool_version TEXT NOT NULL,
  commit_hash TEXT NOT NULL, branch TEXT NOT NULL, dirty INTEGER NOT NULL,
  repo_root TEXT NOT NULL, output_dir TEXT NOT NULL,
  environment TEXT);
CREATE INDEX runs_by_commit ON runs(commit_hash);
CREATE INDEX runs_by_branch ON runs(branch);
CREATE TABLE stages(
  id INTEGER PRIMARY KEY,
  run INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  config TEXT NOT NULL, mode TEXT NOT NULL, stage TEXT NOT NULL, kind TEXT NOT NULL,
  result TEXT NOT NULL, seconds REAL, attempts INTEGER NOT NULL);
CREATE INDEX stages_by_run ON stages(run);
CREATE TABLE figures(
  stage INTEGER NOT NULL REFERENCES stages(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  name TEXT NOT NULL, unit TEXT NOT NULL, higher_is_better INTEGER NOT NULL, gated INTEGER NOT NULL,
  median REAL, samples BLOB NOT NULL);
CREATE INDEX figures_by_stage ON figures(stage);
CREATE INDEX figures_by_name ON figures(name);
)sql",
    // 2: a run is identified by its start, finish and repository root (record_new); without this
    // index, finding one scans every run (19 ms at 10,000 runs, 0.01 ms with it).
    R"sql(
CREATE INDEX runs_by_start ON runs(started);
)sql"};

// A RunEntry's columns (entry_of), of the runs table named `r`.
constexpr std::string_view kRunColumns =
    "r.id, r.started, r.verdict, r.commit_hash, r.branch, r.output_dir, r.tool_version";

RunEntry entry_of(const Statement& row) {
  return {row.integer(0), row.optional_real(1), row.text(2), row.text(3), row.text(4), row.text(5), row.text(6)};
}

Value optional_value(const std::optional<double>& value) { return value ? Value(*value) : Value(); }

}  // namespace

std::vector<std::uint8_t> pack_samples(const std::vector<double>& samples) {
  std::vector<std::uint8_t> bytes(samples.size() * sizeof(double));
  if (!samples.empty()) std::memcpy(bytes.data(), samples.data(), bytes.size());
  return bytes;
}

std::vector<double> unpack_samples(const std::vector<std::uint8_t>& bytes) {
  std::vector<double> samples(bytes.size() / sizeof(double));
  if (!samples.empty()) std::memcpy(samples.data(), bytes.data(), samples.size() * sizeof(double));
  return samples;
}

Result<RunHistory> RunHistory::open(const std::string& path, bool create) {
  std::error_code ec;
  if (!create && !std::filesystem::exists(path, ec)) {
    return fail(Error::plain(fmt::format("{}: no run history here (no run has been recorded in it)", path)));
  }
  RunHistory history(TRY(Database::open(path, 5000, create)));
  TRY(history.db_.use_wal());
  TRY(history.db_.execute("PRAGMA foreign_keys=ON"));
  TRY(history.migrate());
  return history;
}

Result<std::int64_t> RunHistory::schema_version() {
  auto query = TRY(db_.prepare("PRAGMA user_version"));
  TRY(query.step());
  const std::int64_t version = query.integer(0);
  if (version > kSchemaVersion) {
    return fail(Error::plain(fmt::format("{}: the run history has schema version {}, newer than this tipc-run's {}",
                                         db_.path(), version, kSchemaVersion)));
  }
  return version;
}

// The version is read again under the write lock: two runs that open a new file at once
// would otherwise both see version 0, and the second would fail on CREATE TABLE.
Result<void> RunHistory::migrate() {
  if (TRY(schema_version()) == kSchemaVersion) return {};  // the usual case: no lock taken
  TRY(db_.execute("BEGIN IMMEDIATE"));
  Result<void> migrated = migrate_locked();
  Result<void> ended = db_.execute(migrated ? "COMMIT" : "ROLLBACK");
  return migrated ? ended : migrated;
}

Result<void> RunHistory::migrate_locked() {
  for (std::int64_t step = TRY(schema_version()); step < kSchemaVersion; ++step) {
    TRY(db_.execute(
        fmt::format("{} PRAGMA user_version = {};", kMigrations[static_cast<std::size_t>(step)], step + 1)));
  }
  return {};
}

Result<std::int64_t> RunHistory::record(const report::RunReport& report, const std::string& output_dir) {
  return TRY(write(report, output_dir, false)).id;
}

Result<Recorded> RunHistory::record_new(const report::RunReport& report, const std::string& output_dir) {
  return write(report, output_dir, true);
}

Result<Recorded> RunHistory::write(const report::RunReport& report, const std::string& output_dir,
                                   bool unless_recorded) {
  TRY(db_.execute("BEGIN IMMEDIATE"));
  Result<std::optional<std::int64_t>> found = std::nullopt;
  if (unless_recorded) found = find(report);
  Result<Recorded> written = found.and_then([&](const std::optional<std::int64_t>& id) -> Result<Recorded> {
    if (id) return Recorded{*id, true};
    return insert_run(report, output_dir).map([](std::int64_t inserted) { return Recorded{inserted, false}; });
  });
  if (!written || written->already) {
    (void)db_.execute("ROLLBACK");  // nothing was written
    return written;
  }
  TRY(db_.execute("COMMIT"));
  return written;
}

Result<std::optional<std::int64_t>> RunHistory::find(const report::RunReport& report) {
  auto query =
      TRY(db_.prepare("SELECT id FROM runs WHERE started IS ?1 AND finished IS ?2 AND repo_root = ?3 "
                      "ORDER BY id LIMIT 1"));
  TRY(query.bind({optional_value(report.started), optional_value(report.finished), report.repo_root}));
  if (!TRY(query.step())) return std::nullopt;
  return query.integer(0);
}

Result<std::int64_t> RunHistory::insert_run(const report::RunReport& report, const std::string& output_dir) {
  const auto& repository = report.environment ? report.environment->repository : std::nullopt;
  auto insert = TRY(db_.prepare(
      "INSERT INTO runs(recorded, started, finished, verdict, tool_version, commit_hash, branch, dirty, repo_root, "
      "output_dir, environment) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)"));
  TRY(insert.bind({static_cast<double>(std::time(nullptr)), optional_value(report.started),
                   optional_value(report.finished), std::string(report.verdict().word()), report.tool_version,
                   repository ? repository->commit : "", repository ? repository->branch : "",
                   std::int64_t{repository && repository->dirty}, report.repo_root, output_dir,
                   report.environment ? Value(report::environment_json(*report.environment).dump()) : Value()}));
  TRY(insert.step());
  const std::int64_t run_id = db_.last_insert_id();
  TRY(insert_stages(run_id, report));
  return run_id;
}

Result<void> RunHistory::insert_stages(std::int64_t run_id, const report::RunReport& report) {
  auto stage_row =
      TRY(db_.prepare("INSERT INTO stages(run, position, config, mode, stage, kind, result, seconds, attempts) "
                      "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)"));
  auto figure_row =
      TRY(db_.prepare("INSERT INTO figures(stage, position, name, unit, higher_is_better, gated, median, samples) "
                      "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)"));
  std::int64_t position = 0;
  for (const auto& plan : report.plans) {
    for (const auto& stage : plan.stages) {
      TRY(stage_row.bind({run_id, position++, plan.config, plan.mode, stage.id, std::string(to_string(stage.kind)),
                          std::string(to_string(stage.result)), optional_value(stage.seconds),
                          static_cast<std::int64_t>(stage.attempts.size() + 1)}));
      TRY(stage_row.step());
      TRY(stage_row.reset());
      const std::int64_t stage_id = db_.last_insert_id();
      std::int64_t figure_position = 0;
      for (const gate::Figure& figure : gate::figures_of(stage)) {
        TRY(figure_row.bind({stage_id, figure_position++, figure.name, figure.unit,
                             std::int64_t{figure.better == stats::Better::kHigher},
                             std::int64_t{figure.gated_by_default}, stats::median(figure.samples),
                             pack_samples(figure.samples)}));
        TRY(figure_row.step());
        TRY(figure_row.reset());
      }
    }
  }
  return {};
}

Result<std::vector<RunEntry>> RunHistory::entries(std::string_view where, const std::vector<Value>& values) {
  auto query = TRY(db_.prepare(fmt::format("SELECT {} FROM runs r {}", kRunColumns, where)));
  TRY(query.bind(values));
  std::vector<RunEntry> out;
  while (TRY(query.step())) out.push_back(entry_of(query));
  return out;
}

Result<std::optional<RunEntry>> RunHistory::run(std::int64_t run_id) {
  auto found = TRY(entries("WHERE id = ?1", {run_id}));
  return found.empty() ? std::nullopt : std::optional(found.front());
}

Result<std::optional<RunEntry>> RunHistory::latest(const std::string& ref) {
  auto found = TRY(latest_runs(ref, 1));
  return found.empty() ? std::nullopt : std::optional(found.front());
}

Result<std::vector<RunEntry>> RunHistory::latest_runs(const std::string& ref, std::size_t limit) {
  // A commit prefix is matched as a range, so the index on commit_hash serves it.
  return entries(
      "WHERE branch = ?1 OR (length(?1) >= 4 AND commit_hash >= ?1 AND commit_hash < ?1 || 'g') "
      "ORDER BY id DESC LIMIT ?2",
      {ref, static_cast<std::int64_t>(limit)});
}

Result<std::vector<RunEntry>> RunHistory::runs(std::size_t limit) {
  return entries("ORDER BY id DESC LIMIT ?1", {static_cast<std::int64_t>(limit)});
}

Result<std::vector<SeriesPoint>> RunHistory::series(const std::string& name, const std::string& stage_glob,
                                                    std::size_t runs) {
  // The runs are walked newest first, each probed through its stages (stages_by_run,
  // figures_by_stage) until `runs` have the figure; then only their rows are read. Starting
  // from every figure of that name (figures_by_name) read the whole history: 0.26 s against
  // 1 ms for `ips` over 10,000 runs (bench/history_bench.py). A name no run has is caught
  // by the name index first. CROSS JOIN keeps SQLite to this loop order.
  auto query = TRY(db_.prepare(
      fmt::format("WITH recent(id) AS (SELECT r2.id FROM runs r2 WHERE EXISTS (SELECT 1 FROM figures WHERE name = ?1) "
                  "AND EXISTS (SELECT 1 FROM stages s2 CROSS JOIN figures f2 ON f2.stage = s2.id "
                  "WHERE s2.run = r2.id AND f2.name = ?1 AND s2.stage GLOB ?2) ORDER BY r2.id DESC LIMIT ?3) "
                  "SELECT {}, s.config, s.mode, s.stage, f.median, length(f.samples) / 8 FROM recent "
                  "CROSS JOIN runs r ON r.id = recent.id CROSS JOIN stages s ON s.run = r.id CROSS JOIN figures f ON "
                  "f.stage = s.id "
                  "WHERE f.name = ?1 AND s.stage GLOB ?2 ORDER BY r.id, s.position",
                  kRunColumns)));
  TRY(query.bind({name, stage_glob, static_cast<std::int64_t>(runs)}));
  std::vector<SeriesPoint> points;
  while (TRY(query.step())) {
    points.push_back({entry_of(query), query.text(7), query.text(8), query.text(9), query.optional_real(10),
                      static_cast<std::size_t>(query.integer(11))});
  }
  return points;
}

Result<gate::RunSnapshot> RunHistory::snapshot(std::int64_t run_id) {
  if (!TRY(run(run_id))) return fail(Error::plain(fmt::format("{}: no run {} in the run history", db_.path(), run_id)));
  gate::RunSnapshot snapshot{fmt::format("run {}", run_id), {}};
  std::map<std::int64_t, std::size_t> index;  // stage row -> position in snapshot.stages
  auto stages =
      TRY(db_.prepare("SELECT id, config, mode, stage, kind, result, seconds FROM stages WHERE run = ?1 "
                      "ORDER BY position"));
  TRY(stages.bind({run_id}));
  while (TRY(stages.step())) {
    const auto kind = plan::stage_kind_from_string(stages.text(4));
    const auto result = run::status_from_string(stages.text(5));
    if (!kind || !result) {
      return fail(Error::plain(fmt::format("{}: run {}, stage {}: unknown kind `{}` or result `{}`", db_.path(), run_id,
                                           stages.text(3), stages.text(4), stages.text(5))));
    }
    index[stages.integer(0)] = snapshot.stages.size();
    snapshot.stages.push_back(
        {stages.text(1), stages.text(2), stages.text(3), *kind, *result, stages.optional_real(6), {}});
  }
  auto figures = TRY(
      db_.prepare("SELECT f.stage, f.name, f.unit, f.higher_is_better, f.gated, f.samples FROM figures f JOIN stages s "
                  "ON f.stage = s.id WHERE s.run = ?1 ORDER BY f.stage, f.position"));
  TRY(figures.bind({run_id}));
  while (TRY(figures.step())) {
    const auto better = figures.integer(3) != 0 ? stats::Better::kHigher : stats::Better::kLower;
    snapshot.stages[index.at(figures.integer(0))].figures.push_back(
        {figures.text(1), figures.text(2), better, unpack_samples(figures.blob(5)), figures.integer(4) != 0});
  }
  return snapshot;
}

}  // namespace tipc::history
