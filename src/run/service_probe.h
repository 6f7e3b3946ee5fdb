#pragma once
// Whether a service stage (plan::Service) is ready for its clients: a TCP connection to its
// port on 127.0.0.1 succeeds, or a line of its log matches its pattern. The scheduler asks
// through SchedulerOptions::ready_probe, so that its tests can decide readiness themselves.
#include <string>

#include "plan/plan.h"

namespace tipc::run {

bool port_accepts(int port);
bool log_has_line_matching(const std::string& log_path, const std::string& pattern);

// The port when one is given, else the log pattern; with neither, ready once started.
bool service_ready(const plan::Service& service, const std::string& log_path);

}  // namespace tipc::run
