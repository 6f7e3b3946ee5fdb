#pragma once
// A run named on the command line (`tipc-run compare BASE NEW`, `--baseline REF`): an output
// directory holding a run's state, a bundle (any file: --bundle's FILE.tar.gz, its
// reports/report.json), a run id of the run history (`12`, `run:12`), or a commit prefix or
// branch whose latest recorded run is taken.
#include <cstdint>
#include <optional>
#include <string>

#include "core/error.h"
#include "gate/run_snapshot.h"

namespace tipc::history {

// `runs` > 1: a commit's or branch's last `runs` recorded runs, pooled (gate/run_pool.h);
// an error for a directory, bundle or run id.
Result<gate::RunSnapshot> load_run_reference(const std::string& word, const std::string& history_path,
                                             std::size_t runs = 1);

// The same, with the run's id where it is a run of the run history (report.html marks it).
struct RunReference {
  gate::RunSnapshot snapshot;
  std::optional<std::int64_t> history_run;  // nullopt: an output directory
};
Result<RunReference> resolve_run_reference(const std::string& word, const std::string& history_path,
                                           std::size_t runs = 1);

}  // namespace tipc::history
