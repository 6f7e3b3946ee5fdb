#pragma once
// One element of the config's gpu_list (`-1`, `0`, `0,1`, `ips;gpus`), docs/config-format.md#gpu_list-and-use_gpu.
#include <optional>
#include <string>

#include "core/error.h"

namespace tipc::plan {

struct GpuElement {
  enum class Launch { kSingle, kMulti, kMultiNode };
  std::string text;                // the element as written
  std::string gpus;                // the gpu part (after an `ips;` prefix); used in names
  std::optional<std::string> ips;  // set by the ips form
  Launch launch = Launch::kSingle;
  bool cpu = false;                    // `-1`
  bool sets_device_on_select = false;  // the single-character branch of the reference
  std::optional<std::string> device;   // what "applying" the element exports as CUDA_VISIBLE_DEVICES
  int gpu_count = 0;
  std::optional<int> nodes;  // set when the save dir carries _nodes_N
};

// Parses the element structurally; malformed elements are errors. (The reference's reading
// by string length is compat/reference_gpu_element.h.)
Result<GpuElement> parse_gpu_element(const std::string& text);

}  // namespace tipc::plan
