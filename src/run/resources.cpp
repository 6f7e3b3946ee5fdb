#include "run/resources.h"

#include <algorithm>
#include <regex>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "config/yaml_file.h"
#include "config/yaml_reader.h"
#include "core/plural.h"
#include "core/split_list.h"
#include "core/text.h"
#include "run/gpu_devices.h"

namespace tipc::run {
namespace {

// A list as CUDA_VISIBLE_DEVICES and --gpus hold it: comma-separated, blanks around ids ignored.
std::vector<std::string> device_ids(const std::string& list) {
  std::vector<std::string> ids;
  for (const auto& id : split_list(list, ',')) ids.emplace_back(trim(id, " \t"));
  return ids;
}

Result<ResourceSpec> resolved(const std::string& list, const std::string& what, const GpuInventory& inventory) {
  if (list.empty() || list == "-1" || list == "none") return ResourceSpec{{}, what};
  return ResourceSpec{TRY(resolve_gpu_list(device_ids(list), what, inventory)), what};
}

// NVIDIA_VISIBLE_DEVICES: read by the container runtime, which shows the container the GPUs
// it names and the driver numbers them from 0: indices are the host's, not the container's.
Result<ResourceSpec> container_devices(const std::string& value, const GpuInventory& inventory) {
  const std::string what = "NVIDIA_VISIBLE_DEVICES";
  if (value.empty() || value == "none" || value == "void") return ResourceSpec{{}, what};
  if (value == "all") return ResourceSpec{every_gpu(inventory), fmt::format("{}=all ({})", what, inventory.source)};
  const auto ids = device_ids(value);
  const bool uuids = std::all_of(ids.begin(), ids.end(), [](const std::string& id) {
    return !id.empty() && !std::isdigit(static_cast<unsigned char>(id[0]));
  });
  if (uuids) return resolved(value, what, inventory);
  if (!inventory.has_driver()) {
    return fail(Error::plain(fmt::format("{}: '{}' names GPUs, but no NVIDIA driver answered", what, value)));
  }
  auto gpus = every_gpu(inventory);
  if (gpus.size() != ids.size()) {
    return fail(Error::plain(fmt::format("{}: '{}' names {}; the driver shows {} ({})", what, value,
                                         plural(static_cast<int>(ids.size()), "GPU"), gpus.size(), inventory.source)));
  }
  return ResourceSpec{std::move(gpus), fmt::format("{} ({})", what, inventory.source)};
}

// One `gpus` entry: an id, or a map {id, slots}; nullopt (and a problem) when it is neither.
std::optional<Gpu> gpu_from_node(config::YamlReader& r, const YAML::Node& node) {
  if (node.IsScalar()) return Gpu{node.Scalar(), 1, std::nullopt, "", ""};
  if (!node.IsMap()) {
    r.problem(node, "gpus", "expected a GPU id or a map with id and slots");
    return std::nullopt;
  }
  r.check_keys(node, "a GPU");
  Gpu gpu{r.str(node, "id"), r.integer(node, "slots", 1), std::nullopt, "", ""};
  if (gpu.slots >= 1) return gpu;
  r.problem(r.child(node, "slots"), "slots", "slots must be at least 1");
  return std::nullopt;
}

// The `gpus` list: at the top, or CTest's local[0].gpus.
YAML::Node gpu_list(config::YamlReader& r, const YAML::Node& root) {
  const YAML::Node local = root.IsMap() ? r.child(root, "local") : YAML::Node();
  const bool ctest_form = root.IsMap() && !root["gpus"] && local && local.IsSequence() && local.size() > 0;
  return ctest_form ? r.child(local[0], "gpus") : r.child(root, "gpus");
}

}  // namespace

Result<ResourceSpec> parse_gpu_list(const std::string& list, const GpuInventory& inventory) {
  return resolved(list, "--gpus", inventory);
}

Result<ResourceSpec> load_resource_spec(const std::string& path, const GpuInventory& inventory) {
  const YAML::Node root = TRY(config::load_yaml_file(path, "the resource spec"));
  config::YamlReader r(path);
  const YAML::Node list = gpu_list(r, root);
  if (!list || !list.IsSequence())
    return fail(Error::at(path, 1, "gpus", "expected a 'gpus' list (or CTest's local[0].gpus)"));
  ResourceSpec spec{{}, path};
  for (const auto& node : list) {
    const auto gpu = gpu_from_node(r, node);
    if (!gpu) continue;
    if (std::any_of(spec.gpus.begin(), spec.gpus.end(), [&](const Gpu& g) { return g.id == gpu->id; })) {
      r.problem(node, "id", fmt::format("GPU '{}' is listed twice", gpu->id));
    }
    auto device = resolve_gpu_list({gpu->id}, "gpus", inventory);
    if (!device)
      r.problem(node, "id", device.error().str());
    else
      spec.gpus.push_back({gpu->id, gpu->slots, device->front().index, device->front().name, device->front().uuid});
  }
  if (auto problems = r.finish(); !problems.empty()) return fail(Error{std::move(problems)});
  return spec;
}

Result<ResourceSpec> detect_gpus(const DeviceVariables& variables, const GpuInventory& inventory) {
  if (variables.cuda_visible_devices)
    return resolved(*variables.cuda_visible_devices, "CUDA_VISIBLE_DEVICES", inventory);
  if (variables.nvidia_visible_devices) return container_devices(*variables.nvidia_visible_devices, inventory);
  ResourceSpec spec{every_gpu(inventory), inventory.source};
  if (spec.gpus.empty()) spec.source = "none";
  return spec;
}

Result<void> expect_gpus(const ResourceSpec& spec, int count) {
  if (static_cast<int>(spec.gpus.size()) >= count) return {};
  const std::string source = spec.source.empty() || spec.source == "none" ? "no driver, no --gpus" : spec.source;
  return fail(Error::plain(fmt::format("--expect-gpus {}: found {} ({})", count,
                                       plural(static_cast<int>(spec.gpus.size()), "usable GPU"), source)));
}

Result<void> expect_cluster_gpus(const ClusterCapacity& cluster, int count) {
  int total = 0;
  for (const ClusterNode& node : cluster.each_node) total += node.gpus;
  if (total >= count) return {};
  return fail(
      Error::plain(fmt::format("--expect-gpus {}: found {} ({})", count, plural(total, "GPU"), cluster.source)));
}

std::optional<std::vector<std::string>> allocate(const ResourceSpec& spec, const Usage& usage, int count) {
  if (count <= 0) return std::vector<std::string>{};
  std::vector<std::pair<int, std::size_t>> free;  // (used slots, spec index)
  for (std::size_t i = 0; i < spec.gpus.size(); ++i) {
    const auto it = usage.find(spec.gpus[i].id);
    const int used = it == usage.end() ? 0 : it->second;
    if (used < spec.gpus[i].slots) free.emplace_back(used, i);
  }
  if (static_cast<int>(free.size()) < count) return std::nullopt;
  std::stable_sort(free.begin(), free.end());
  std::vector<std::size_t> chosen;
  for (int k = 0; k < count; ++k) chosen.push_back(free[static_cast<std::size_t>(k)].second);
  std::sort(chosen.begin(), chosen.end());
  std::vector<std::string> ids;
  for (std::size_t i : chosen) ids.push_back(spec.gpus[i].id);
  return ids;
}

bool can_ever_fit(const ResourceSpec& spec, int count) { return count <= static_cast<int>(spec.gpus.size()); }

std::string map_devices(const std::string& logical, const std::vector<std::string>& allocated) {
  // Position k of the config's list becomes the k-th allocated GPU: "2,3" on GPUs {0,1} is "0,1".
  const std::size_t wanted = std::min(split_list(logical, ',').size(), allocated.size());
  return fmt::format("{}", fmt::join(allocated.begin(), allocated.begin() + static_cast<std::ptrdiff_t>(wanted), ","));
}

}  // namespace tipc::run
