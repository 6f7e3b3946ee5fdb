#pragma once
// The run history: every finished run's stages, results and figures in one SQLite file, so
// that a run can be compared with any earlier one (`tipc-run compare`, `--baseline`) and a
// metric followed over commits (`tipc-run history`). Schema in docs/history.md; versioned
// by SQLite's user_version, migrated forward on open; WAL and a busy timeout let two runs
// record at once.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"
#include "gate/run_snapshot.h"
#include "history/sqlite_db.h"
#include "report/run_report.h"

namespace tipc::history {

inline constexpr int kSchemaVersion = 2;

// One recorded run, as listed.
struct RunEntry {
  std::int64_t id = 0;
  std::optional<double> started;
  std::string verdict;  // report.json's: "PASS", "FAIL", ...
  std::string commit;   // "" outside git
  std::string branch;
  std::string output_dir;  // where its reports were written
  std::string tool_version;
};

// One value of a figure in one recorded run (`tipc-run history METRIC`).
struct SeriesPoint {
  RunEntry run;
  std::string config, mode, stage;
  std::optional<double> median;
  std::size_t samples = 0;
};

// A run record_new was given: its id, and whether the history held it already.
struct Recorded {
  std::int64_t id = 0;
  bool already = false;
};

class RunHistory {
 public:
  // `create` false: a missing file is an error (reading a history never makes one).
  static Result<RunHistory> open(const std::string& path, bool create = true);

  // Records a finished run in one transaction; its id.
  Result<std::int64_t> record(const report::RunReport& report, const std::string& output_dir);
  // Records it unless the history holds it already: a run of the same start, finish and
  // repository root (what its state says, so a copy of its output directory and its bundle's
  // report.json name it alike). One transaction: two imports of one run record it once.
  Result<Recorded> record_new(const report::RunReport& report, const std::string& output_dir);
  // The id of the recorded run `report` describes (same start, finish and repository root).
  Result<std::optional<std::int64_t>> find(const report::RunReport& report);
  Result<gate::RunSnapshot> snapshot(std::int64_t run_id);
  Result<std::optional<RunEntry>> run(std::int64_t run_id);
  // The latest run whose commit starts with `ref` (at least 4 hex digits) or whose branch is `ref`.
  Result<std::optional<RunEntry>> latest(const std::string& ref);
  // The last `limit` such runs, newest first.
  Result<std::vector<RunEntry>> latest_runs(const std::string& ref, std::size_t limit);
  Result<std::vector<RunEntry>> runs(std::size_t limit);  // newest first
  // The figure `name` of the stages whose id matches `stage_glob` (SQLite's GLOB: * and ?),
  // in the last `runs` runs that have it, oldest first.
  Result<std::vector<SeriesPoint>> series(const std::string& name, const std::string& stage_glob, std::size_t runs);

  const std::string& path() const { return db_.path(); }

 private:
  explicit RunHistory(Database db) : db_(std::move(db)) {}
  Result<std::int64_t> schema_version();  // an error for a newer one
  Result<void> migrate();
  Result<void> migrate_locked();
  Result<std::vector<RunEntry>> entries(std::string_view where, const std::vector<Value>& values);
  Result<Recorded> write(const report::RunReport& report, const std::string& output_dir, bool unless_recorded);
  Result<std::int64_t> insert_run(const report::RunReport& report, const std::string& output_dir);
  Result<void> insert_stages(std::int64_t run_id, const report::RunReport& report);
  Database db_;
};

// Per-step samples as stored: IEEE-754 doubles, little-endian, one after the other.
std::vector<std::uint8_t> pack_samples(const std::vector<double>& samples);
std::vector<double> unpack_samples(const std::vector<std::uint8_t>& bytes);

}  // namespace tipc::history
