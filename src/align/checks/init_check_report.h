#pragma once
// What an init check's result looks like outside the program: the table `tipc-run
// init-check` prints, and its --json file, written by the command and read back by the
// run's reports through the same pair of functions (a renamed field fails the round trip
// test, not a report).
#include <string>

#include <nlohmann/json.hpp>

#include "align/checks/init_check_files.h"
#include "core/error.h"

namespace tipc::align {

// The key table, what is in one file only, and the "N passed, M failed" line.
std::string render_init_check_text(const InitCheckReport& report);

nlohmann::ordered_json to_json(const InitCheckReport& report);
// Errors name `file` and the field. Probabilities are the counts over their sum.
Result<InitCheckReport> init_check_report_from_json(const nlohmann::ordered_json& json, const std::string& file);

}  // namespace tipc::align
