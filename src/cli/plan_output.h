#pragma once
// Printing a plan for --dry-run: human text or one JSON object per stage.
#include <ostream>
#include <string>

#include "plan/plan.h"

namespace tipc::cli {

std::string stage_json_line(const plan::Stage& stage);
void print_plan_text(const plan::Plan& plan, std::ostream& out);
void print_plan_jsonl(const plan::Plan& plan, std::ostream& out);

}  // namespace tipc::cli
