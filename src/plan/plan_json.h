#pragma once
// A stage as JSON: the one spelling shared by `--dry-run --format jsonl` and the run's
// plan file (<LOG>/.tipc-plan.json), so what a dry run shows is what a report reads.
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/error.h"

#include "plan/plan.h"

namespace tipc::plan {

// id, kind, argv, cwd, env (null: the variable is removed), log, deps, needs, benchmark,
// launcher, processes, command, cwd_made_by where known, and check ({"kind", "result_file"})
// for a check stage only; paths as the plan holds them (relative).
nlohmann::ordered_json stage_json(const Stage& stage);

// A stage's check description read back from stage_json's output: nullopt when the stage
// has none (no "check" field, or null). `file` names the plan file or journal in errors,
// which name the stage and the field. (nlohmann::json: what the plan files are read into.)
Result<std::optional<CheckSpec>> check_spec_from_json(const nlohmann::json& stage, const std::string& file);

}  // namespace tipc::plan
