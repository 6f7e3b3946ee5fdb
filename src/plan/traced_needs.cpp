#include "plan/traced_needs.h"

#include <algorithm>
#include <cctype>

#include "core/split_list.h"
#include "core/text.h"

namespace tipc::plan {
namespace {

int count_ids(const std::string& list) {
  int count = 0;
  for (const auto& id : split_list(list, ',')) count += !id.empty() && id != "-1";
  return count;
}

// The value of `--name=V` or `--name V` among args[from, to).
std::optional<std::string> option(const std::vector<std::string>& args, std::size_t from, std::size_t to,
                                  const std::string& name) {
  for (std::size_t i = from; i < to; ++i) {
    if (args[i].starts_with(name + "=")) return args[i].substr(name.size() + 1);
    if (args[i] == name && i + 1 < to) return args[i + 1];
  }
  return std::nullopt;
}

// The launcher's arguments: after `-m <module>` up to the script it starts.
std::optional<TracedNeeds> launcher_needs(const std::vector<std::string>& args) {
  const auto m = std::find(args.begin(), args.end(), "-m");
  if (m == args.end() || m + 1 == args.end()) return std::nullopt;
  const std::string module = *(m + 1);
  if (module.find("distributed") == std::string::npos && module.find("torchrun") == std::string::npos) {
    return std::nullopt;
  }
  const std::size_t from = static_cast<std::size_t>(m - args.begin()) + 2;
  std::size_t to = from;
  while (to < args.size() && !args[to].ends_with(".py")) ++to;
  TracedNeeds out;
  out.launcher = module;
  out.needs.gpus = 1;
  for (const char* name : {"--gpus", "--devices"}) {
    if (auto list = option(args, from, to, name)) out.needs.gpus = std::max(1, count_ids(*list));
  }
  if (auto n = option(args, from, to, "--nproc_per_node")) out.needs.gpus = std::max(1, std::atoi(n->c_str()));
  if (auto ips = option(args, from, to, "--ips"); ips && count_ids(*ips) > 1) {
    out.needs.nodes = count_ids(*ips);
    out.hosts = *ips;
  }
  return out;
}

// The program's own device switch: use_gpu=True/False, device=gpu/cpu (any key prefix,
// `-` or `_` in the key: `--use-gpu=False` is the template's spelling).
std::optional<bool> device_switch(const std::vector<std::string>& args) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string word = lower(args[i]);
    std::replace(word.begin(), word.begin() + static_cast<std::ptrdiff_t>(std::min(word.find('='), word.size())), '-',
                 '_');
    if ((word == "__device" || word == "__use_gpu") && i + 1 < args.size()) word += "=" + lower(args[i + 1]);
    for (const char* key : {"use_gpu=", "device="}) {
      const std::size_t at = word.find(key);
      if (at == std::string::npos || (at > 0 && std::isalnum(static_cast<unsigned char>(word[at - 1])))) continue;
      const std::string value = word.substr(at + std::string(key).size());
      if (value == "true" || value == "gpu" || value.starts_with("gpu:")) return true;
      if (value == "false" || value == "cpu") return false;
    }
  }
  return std::nullopt;
}

}  // namespace

TracedNeeds traced_needs(const std::vector<std::string>& args, const std::optional<std::string>& cuda_visible_devices) {
  if (auto launched = launcher_needs(args)) return *launched;
  TracedNeeds out;
  if (auto on_gpu = device_switch(args)) {
    out.needs.gpus = *on_gpu ? 1 : 0;
  } else if (cuda_visible_devices) {
    out.needs.gpus = count_ids(*cuda_visible_devices);
  } else {
    out.follows_inputs = true;  // no GPU of its own (Needs' default) until the planner looks at its inputs
  }
  return out;
}

}  // namespace tipc::plan
