#pragma once
// The reference runner's reading of one gpu_list element: by string length, not structure
// (its `${#gpu}` tests), oddities included (D10 in docs/reference-runner.md): `10` is one GPU, a nine-GPU list of 17
// characters is taken for the ips form. tipc-run's own reading is plan::parse_gpu_element.
#include <string>

#include "plan/gpu_element.h"

namespace tipc::compat {

// `ips` is the runner's variable, which keeps its value across gpu elements.
plan::GpuElement reference_gpu_element(const std::string& text, std::string& ips, int ips_threshold);

}  // namespace tipc::compat
