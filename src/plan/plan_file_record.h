#pragma once
// The plan file, <LOG>/.tipc-plan.json: the whole plan a run was given (every stage, also
// those --only or -k left out) and what the run was given besides, written atomically when
// the run starts (run/journal.h). Its record type, its writing and its reading; the reports
// are built from it and the journal (report/report_loader.h). docs/report-schema.md.
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"
#include "plan/plan.h"

namespace tipc::plan {

inline constexpr const char* kPlanFileName = ".tipc-plan.json";
inline constexpr int kPlanFileVersion = 1;  // written as "schema"; a reader rejects a larger one

struct PlanFileStage {
  Stage stage;              // the fields plan/plan_json.h writes; cwd and log absolute
  std::string fingerprint;  // of its command (run::stage_fingerprint): what --resume and the reports compare
};

// A config of a directory suite whose chain takes none of the run's MODEs (cli/suite_modes.h).
struct ConfigInOtherModes {
  std::string file;                // as found
  std::string chain;               // "" when no chain matched
  std::vector<std::string> modes;  // the MODEs its chain takes
};

struct PlanFileRecord {
  int version = kPlanFileVersion;
  std::string tool_version;
  std::string run_id;             // the run that wrote it; the plans of one suite share it
  std::optional<double> started;  // Unix seconds; nullopt in a file without it
  std::string config;             // as given
  std::string config_file;        // absolute
  std::string settings_file;      // the project settings used; "" (null) when none
  std::string mode, model, dialect;
  std::string dialect_source;                              // how the dialect was chosen
  std::vector<Diagnostic> invalid_configs;                 // the run's configs left out, with their problems
  std::vector<std::string> excluded_configs;               // the run's configs --exclude left out
  std::vector<ConfigInOtherModes> configs_in_other_modes;  // the run's configs in none of its MODEs
  bool compat = false;
  std::string repo_root;   // absolute
  std::string output_dir;  // LOG, absolute, where the file was written
  // The ids of the stages this run selected (--only, -k); nullopt when it selected them all.
  std::optional<std::vector<std::string>> selected;
  std::vector<PlanFileStage> stages;  // the whole plan, in plan order

  bool selects(const std::string& stage_id) const;
};

// The file's text (dump(2)), written stage by stage: the JSON tree of a 1000-stage plan took
// about 4 MB more than its text.
std::string plan_file_text(const PlanFileRecord& record);

// An error names the file: one that cannot be read or is no plan file, one of a newer
// tipc-run, a field of the wrong type (with the stage and the field), an unknown kind.
// Fields a plan file of an older tipc-run lacks read as empty.
Result<PlanFileRecord> read_plan_file(const std::string& path);

}  // namespace tipc::plan
