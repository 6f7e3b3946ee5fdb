#include "plan/gpu_element.h"

#include <algorithm>
#include <regex>

#include <fmt/format.h>

#include "config/train_infer_config.h"
#include "core/split_list.h"

namespace tipc::plan {
namespace {

int count_items(const std::string& list) { return static_cast<int>(split_list(list, ',').size()); }

std::string first_item(const std::string& list) { return list.substr(0, list.find(',')); }

}  // namespace

GpuElement classify_gpu_element_compat(const std::string& text, std::string& ips, int ips_threshold) {
  GpuElement e;
  e.text = text;
  e.gpus = text;
  const auto threshold = static_cast<std::size_t>(ips_threshold);
  if (text == "-1") {
    e.cpu = true;
  } else if (text.size() <= 1) {
    e.device = text;
    e.sets_device_on_select = true;
  } else if (text.size() <= 15) {
    e.device = first_item(text);
  } else {
    const std::size_t semi = text.find(';');
    ips = text.substr(0, semi);
    e.gpus = semi == std::string::npos ? "" : text.substr(semi + 1);
    e.gpus = e.gpus.substr(0, e.gpus.find(';'));
  }
  if (ips.size() > threshold) {
    e.ips = ips;
    e.nodes = count_items(ips);
  }
  if (e.gpus.size() <= 2) e.launch = GpuElement::Launch::kSingle;
  else if (ips.size() <= threshold) e.launch = GpuElement::Launch::kMulti;
  else e.launch = GpuElement::Launch::kMultiNode;
  if (!ips.empty()) e.ips = ips;
  e.gpu_count = e.cpu ? 0 : std::max(1, count_items(e.gpus));
  return e;
}

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
    return fail(Error::plain(fmt::format("gpu_list element '{}': expected -1, a GPU id list such as 0,1, or ips;gpus",
                                         text)));
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
  if (e.nodes && *e.nodes > 1) e.launch = GpuElement::Launch::kMultiNode;
  else if (e.gpu_count > 1) e.launch = GpuElement::Launch::kMulti;
  e.sets_device_on_select = semi == std::string::npos && e.gpu_count == 1;
  return e;
}

}  // namespace tipc::plan
