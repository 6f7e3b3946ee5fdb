#pragma once
// A stage as JSON: the one spelling shared by `--dry-run --format jsonl` and the run's
// plan file (plan/plan_file_record.h), so what a dry run shows is what a report reads.
#include <string>

#include <nlohmann/json.hpp>

#include "core/error.h"

#include "plan/plan.h"

namespace tipc::plan {

// id, kind, argv, cwd, env (null: the variable is removed), log, deps, needs, benchmark,
// launcher, processes, command, service for a service stage, unsupported, cwd_made_by where
// known, and check ({"kind", "result_file"}) for a check stage only; paths as the stage holds
// them.
nlohmann::ordered_json stage_json(const Stage& stage);

// The stage stage_json wrote, with the fields it writes (the others keep their defaults).
// id, kind, argv, cwd, env, log, deps and needs.gpus must be there; the rest may be absent
// (a plan file of an older tipc-run). An error names `file` (the plan file), the stage and
// the field: a field of the wrong type, an unknown kind or check kind.
Result<Stage> stage_from_json(const nlohmann::json& json, const std::string& file);

}  // namespace tipc::plan
