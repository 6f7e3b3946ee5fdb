#include "plan/gpu_element.h"

#include <algorithm>
#include <regex>

#include <fmt/format.h>

#include "config/train_infer_config.h"
#include "core/split_list.h"

namespace tipc::plan {
namespace {

int count_items(const std::string& list) { return static_cast<int>(split_list(list, ',').size()); }

}  // namespace

Result<GpuElement> parse_gpu_element(const std::string& text) {
  static const std::regex kIds(R"(\d+(,\d+)*)");
  static const std::regex kHosts(R"([^,;\s]+(,[^,;\s]+)*)");
  GpuElement e;
  e.text = text;
  if (text == "-1") {
    e.cpu = true;
    e.gpus = text;
    return e;
  }
  const std::size_t semi = text.find(';');
  e.gpus = semi == std::string::npos ? text : text.substr(semi + 1);
  if (!std::regex_match(e.gpus, kIds)) {
    return fail(
        Error::plain(fmt::format("gpu_list element '{}': expected -1, a GPU id list such as 0,1, or ips;gpus", text)));
  }
  e.gpu_count = count_items(e.gpus);
  e.device = e.gpus;
  if (semi != std::string::npos) {
    const std::string hosts = text.substr(0, semi);
    if (!std::regex_match(hosts, kHosts)) {
      return fail(Error::plain(fmt::format("gpu_list element '{}': malformed host list '{}'", text, hosts)));
    }
    e.ips = hosts;
    e.nodes = count_items(hosts);
  }
  if (e.nodes && *e.nodes > 1)
    e.launch = GpuElement::Launch::kMultiNode;
  else if (e.gpu_count > 1)
    e.launch = GpuElement::Launch::kMulti;
  e.sets_device_on_select = semi == std::string::npos && e.gpu_count == 1;
  return e;
}

}  // namespace tipc::plan
