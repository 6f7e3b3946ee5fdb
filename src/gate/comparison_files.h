#pragma once
// A comparison as files for machines: JSON (every stage and figure, with the statistics) and
// JUnit XML (one testcase per gated figure and per changed stage result; a failing
// regression is a <failure>). Layout in docs/cli.md, "tipc-run compare".
#include <string>

#include <nlohmann/json.hpp>

#include "gate/comparison_text.h"
#include "gate/run_comparison.h"

namespace tipc::gate {

nlohmann::ordered_json comparison_json(const ComparedRuns& runs, const RunComparison& comparison);

std::string comparison_junit(const ComparedRuns& runs, const std::vector<ComparisonRow>& rows);

}  // namespace tipc::gate
