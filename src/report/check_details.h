#pragma once
// What a check stage wrote with --json (plan::CheckSpec says which check and where), read
// back into the report model. Three shapes:
//   tipc-run diff --json            keys, each with its statistics against one threshold
//   tipc-run compare-results --json logs, each with its keys against atol + rtol * |gt|
//   tipc-run init-check --json      keys, each with its KS statistic and histograms
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "plan/check_spec.h"
#include "report/run_report.h"

namespace tipc::report {

// `cwd` resolves the relative paths the JSON names. The file is read through the check's
// own reader in align/ (the one its writer's to_json pairs with); a JSON of another shape
// is an error naming `file` and the field.
Result<CheckDetails> check_details_from_json(plan::CheckKind kind, const nlohmann::ordered_json& json,
                                             const std::string& file, const std::string& cwd);

// Where a check stage's result file is: its result_file, relative to the stage's cwd.
std::string check_result_path(const plan::CheckSpec& check, const std::string& cwd);

// The result file a check stage wrote, read back; nullopt when there is none, or it is
// older than the stage's start (an earlier run's). One that cannot be read (cut, or of
// another shape) is a failed check whose note says why (the file and the field).
std::optional<CheckDetails> read_check_file(plan::CheckKind kind, const std::string& path, const std::string& cwd,
                                            double started_unix);

// A check whose result cannot be read: failed, with `why` as its note (`kind`: nullopt when
// not even the check's kind could be read).
CheckDetails unreadable_check(std::optional<CheckKind> kind, const std::string& why);

}  // namespace tipc::report
