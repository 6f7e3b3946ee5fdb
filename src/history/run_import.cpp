#include "history/run_import.h"

#include <filesystem>

#include "history/history_location.h"
#include "report/bundle_reader.h"
#include "report/report_loader.h"

namespace tipc::history {
namespace fs = std::filesystem;

Result<ImportedRun> load_imported_run(const std::string& input) {
  std::error_code ec;
  const std::string location = fs::absolute(input, ec).lexically_normal().string();
  ImportedRun run{{}, location};
  if (fs::is_directory(input, ec)) {
    run.report = TRY(report::load_run_report(input));
  } else if (fs::is_regular_file(input, ec)) {
    run.report = TRY(report::load_bundle_report(input));
  } else {
    return fail(Error::at(input, 0, "", "no such directory or bundle"));
  }
  if (!run.report.finished) {
    return fail(Error::at(input, 0, "",
                          "the run did not finish (interrupted, or still running): only finished runs are recorded"));
  }
  return run;
}

Result<RunHistory> open_history_here(const std::optional<std::string>& history_option) {
  const RepositoryHere repository = TRY(repository_here());
  const auto path = history_path_of(history_option, repository.settings, repository.root);
  if (!path) {
    return fail(Error::plain("the settings turn the run history off (history: false): name one with --history"));
  }
  std::error_code ec;
  fs::create_directories(fs::path(*path).parent_path(), ec);
  return RunHistory::open(*path);
}

}  // namespace tipc::history
