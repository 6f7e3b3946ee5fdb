#pragma once
// Turns the project's alignment checks into `check` stages of the plans (pure: settings,
// plans and the path of the tipc-run binary in, plans with check stages out).
//
// A check runs once per stage it follows: `after: export` gives one check per export
// stage, depending on it, so a check of a GPU export that cannot run here is UNSUPPORTED
// with it, and a failed export SKIPs its checks. `after` is a stage kind or a glob over
// stage ids ("*/infer/*fp32*"). Arguments may name the producing stage's files:
//
//   {model_dir}   the producing stage's model directory (Stage::model_dir)
//   {log}         the producing stage's log
//   {output_dir}  the plan's output directory (test_tipc/output/<model>/<mode>)
//   {model} {mode}
//
// A check applies to the plans of its `modes` (all when it names none). A check whose `after`
// matches no stage of any plan it applies to is an error naming its settings line; one that
// applies to no plan of this run adds nothing.
#include <string>
#include <vector>

#include "config/project_settings.h"
#include "core/error.h"
#include "plan/plan.h"

namespace tipc::plan {

Result<void> add_alignment_stages(std::vector<Plan>& plans, const std::vector<config::AlignmentCheckSetting>& checks,
                                  const std::string& tipc_run_binary);

}  // namespace tipc::plan
