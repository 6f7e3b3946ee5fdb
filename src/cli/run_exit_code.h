#pragma once
// The exit code a run ends with once its baseline is compared (gated_exit_code), and the
// same as `git bisect run` reads it (--bisect).
#include <ostream>

#include "core/error.h"

namespace tipc::cli {

// "tipc-run: error: ..." on stderr, and the error's exit code: how a run ends on an error.
int report_error(const Error& error);

// The run's exit code, or kExitRegressed when the run passed and its comparison with the
// baseline found a failing regression (the verdict says so where the semantics say a verdict;
// a last line says it either way).
int gated_exit_code(int run_code, int gate_code, std::ostream& out);

// A run's exit code as `git bisect run` reads it (--bisect): 0 good; 1 bad (a stage failed,
// or a failing regression); 125 skip, the commit could not be tested (nothing ran, a usage,
// config, settings or data step error); 130 (interrupted) stays, and stops the bisection.
int bisect_exit_code(int exit_code);

}  // namespace tipc::cli
