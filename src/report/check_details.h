#pragma once
// What a check stage wrote with --json, read back into the report model. Three shapes:
//   tipc-run diff --json            keys, each with its statistics against one threshold
//   tipc-run compare-results --json logs, each with its keys against atol + rtol * |gt|
//   tipc-run init-check --json      keys, each with its KS statistic and histograms
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "report/run_report.h"

namespace tipc::report {

// `subcommand` is the check's (argv[1]); `cwd` resolves the relative paths the JSON names.
// nullopt for a subcommand that writes no such file. The file is read through the check's
// own reader in align/ (the one its writer's to_json pairs with); a JSON of another shape
// is an error naming `file` and the field.
Result<std::optional<CheckDetails>> check_details_from_json(const std::string& subcommand,
                                                            const nlohmann::ordered_json& json,
                                                            const std::string& file, const std::string& cwd);

// The --json file a check stage wrote beside its log (the log's path with ".json"), read
// back; nullopt when there is none, or it is older than the stage's start (an earlier
// run's). One that cannot be read (cut, or of another shape) is a failed check with a note
// saying why (the file and the field).
std::optional<CheckDetails> read_check_file(const std::string& log, const std::string& subcommand,
                                            const std::string& cwd, double started_unix);

}  // namespace tipc::report
