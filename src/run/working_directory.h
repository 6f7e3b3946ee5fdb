#pragma once
// The directory a stage runs in. A stage runs in its planned directory or not at all: an
// executor that cannot enter it does not start the stage (no fallback to tipc-run's own
// directory, as Boost.Process's start_dir does, nor to /tmp, as slurmstepd does) and fails
// the start with working_directory_error, which the scheduler recognises to name the step
// that should have made the directory (plan::Stage::cwd_made_by).
#include <string>

#include "core/error.h"

namespace tipc::run {

// "cannot enter the working directory DIR: REASON" (errno's text). Its diagnostic's key is
// "cwd", the Launch field it is about: what is_working_directory_error looks for.
Error working_directory_error(const std::string& cwd, int error_number);
bool is_working_directory_error(const Error& error);

// That `cwd` exists, is a directory and may be entered (searched) by this process; the
// error above otherwise. A check ahead of the start, so racing with whatever changes the
// directory: the process executor enters it in the child and reports that too.
Result<void> check_working_directory(const std::string& cwd);

}  // namespace tipc::run
