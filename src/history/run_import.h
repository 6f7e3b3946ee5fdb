#pragma once
// What `tipc-run history import` records: a run known only by what it left, an output
// directory holding its state or a bundle's report.json, in the run history of the
// repository around the current directory.
#include <optional>
#include <string>

#include "core/error.h"
#include "history/run_history.h"
#include "report/run_report.h"

namespace tipc::history {

// The run an input holds, and where its reports are: the directory, or the bundle itself.
struct ImportedRun {
  report::RunReport report;
  std::string location;
};

// The finished run `input` holds (a directory, else a bundle file); an error naming `input`
// when it is neither or the run did not finish.
Result<ImportedRun> load_imported_run(const std::string& input);

// The run history to import into: `history_option` (--history), else the one the repository
// around the current directory uses (its settings' history:, else the default), its directory
// made; an error when the settings turn it off.
Result<RunHistory> open_history_here(const std::optional<std::string>& history_option);

}  // namespace tipc::history
