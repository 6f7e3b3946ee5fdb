#include "cli/run_exit_code.h"

#include <iostream>

#include <fmt/format.h>

#include "core/error.h"

namespace tipc::cli {

int report_error(const Error& error) {
  std::cerr << "tipc-run: error: " << error.str() << '\n';
  return error.exit_code;
}

int gated_exit_code(int run_code, int gate_code, std::ostream& out) {
  if (gate_code == kExitPassed || (run_code != kExitPassed && run_code != kExitRegressed)) return run_code;
  out << fmt::format("tipc-run: exit {}: the run passed, and regressed against its baseline (--baseline)\n", gate_code);
  return gate_code;
}

int bisect_exit_code(int exit_code) {
  constexpr int kBisectSkip = 125;
  switch (exit_code) {
    case kExitPassed: return kExitPassed;
    case kExitFailed:
    case kExitRegressed: return kExitFailed;
    case kExitInterrupted: return kExitInterrupted;
    default: return kBisectSkip;
  }
}

}  // namespace tipc::cli
