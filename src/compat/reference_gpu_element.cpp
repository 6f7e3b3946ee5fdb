#include "compat/reference_gpu_element.h"

#include <algorithm>

#include "core/split_list.h"

namespace tipc::compat {
namespace {

int count_listed(const std::string& list) { return static_cast<int>(split_list(list, ',').size()); }

std::string first_listed(const std::string& list) { return list.substr(0, list.find(',')); }

}  // namespace

plan::GpuElement reference_gpu_element(const std::string& text, std::string& ips, int ips_threshold) {
  plan::GpuElement e;
  e.text = text;
  e.gpus = text;
  const auto threshold = static_cast<std::size_t>(ips_threshold);
  if (text == "-1") {
    e.cpu = true;
  } else if (text.size() <= 1) {
    e.device = text;
    e.sets_device_on_select = true;
  } else if (text.size() <= 15) {
    e.device = first_listed(text);
  } else {
    const std::size_t semi = text.find(';');
    ips = text.substr(0, semi);
    e.gpus = semi == std::string::npos ? "" : text.substr(semi + 1);
    e.gpus = e.gpus.substr(0, e.gpus.find(';'));
  }
  if (ips.size() > threshold) {
    e.ips = ips;
    e.nodes = count_listed(ips);
  }
  if (e.gpus.size() <= 2)
    e.launch = plan::GpuElement::Launch::kSingle;
  else if (ips.size() <= threshold)
    e.launch = plan::GpuElement::Launch::kMulti;
  else
    e.launch = plan::GpuElement::Launch::kMultiNode;
  if (!ips.empty()) e.ips = ips;
  e.gpu_count = e.cpu ? 0 : std::max(1, count_listed(e.gpus));
  return e;
}

}  // namespace tipc::compat
