#pragma once
// A stage as JSON: the one spelling shared by `--dry-run --format jsonl` and the run's
// plan file (<LOG>/.tipc-plan.json), so what a dry run shows is what a report reads.
#include <nlohmann/json.hpp>

#include "plan/plan.h"

namespace tipc::plan {

// id, kind, argv, cwd, env (null: the variable is removed), log, deps, needs, benchmark,
// launcher, processes, command; paths as the plan holds them (relative).
nlohmann::ordered_json stage_json(const Stage& stage);

}  // namespace tipc::plan
