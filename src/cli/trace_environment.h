#pragma once
// The variables passed into the trace of a repository's runner (trace/passed_env.h): the
// settings' `trace_env:` (NAME: VALUE), then each --trace-env NAME=VALUE, or --trace-env NAME
// for the value it has in tipc-run's own environment. A later one of a name replaces an
// earlier one: the command line wins over the settings.
#include <vector>
#include "config/project_settings.h"
#include "core/error.h"
#include "trace/passed_env.h"

namespace tipc::cli {

// An error names the option or the settings line and key of a variable the trace cannot
// take (trace::passed_variable_refusal), and a --trace-env NAME that is not set here.
Result<trace::PassedEnvironment> trace_environment(const config::ProjectSettings& settings,
                                                   const std::vector<std::string>& trace_env_words);

}  // namespace tipc::cli
