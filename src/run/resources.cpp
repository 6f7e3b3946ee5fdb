#include "run/resources.h"

#include <algorithm>
#include <regex>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "config/yaml_file.h"
#include "config/yaml_reader.h"
#include "core/split_list.h"

namespace tipc::run {
namespace {

Result<std::vector<Gpu>> gpus_from_ids(const std::string& list, const std::string& what) {
  static const std::regex kId(R"([^,;\s]+)");  // indexes, GPU-/MIG- UUIDs, MIG-GPU-<uuid>/<gi>/<ci>
  std::vector<Gpu> gpus;
  for (const auto& id : split_list(list, ',')) {
    if (!std::regex_match(id, kId)) return fail(Error::plain(fmt::format("{}: '{}' is not a GPU id", what, id)));
    if (std::any_of(gpus.begin(), gpus.end(), [&](const Gpu& g) { return g.id == id; })) {
      return fail(Error::plain(fmt::format("{}: GPU '{}' is listed twice", what, id)));
    }
    gpus.push_back({id, 1});
  }
  return gpus;
}

// One `gpus` entry: an id, or a map {id, slots}; nullopt (and a problem) when it is neither.
std::optional<Gpu> gpu_from_node(config::YamlReader& r, const YAML::Node& node) {
  if (node.IsScalar()) return Gpu{node.Scalar(), 1};
  if (!node.IsMap()) {
    r.problem(node, "gpus", "expected a GPU id or a map with id and slots");
    return std::nullopt;
  }
  r.check_keys(node, "a GPU");
  Gpu gpu{r.str(node, "id"), r.integer(node, "slots", 1)};
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

Result<ResourceSpec> parse_gpu_list(const std::string& list) {
  if (list == "none" || list == "-1") return ResourceSpec{{}, "--gpus"};
  auto gpus = TRY(gpus_from_ids(list, "--gpus"));
  return ResourceSpec{gpus, "--gpus"};
}

Result<ResourceSpec> load_resource_spec(const std::string& path) {
  const YAML::Node root = TRY(config::load_yaml_file(path, "the resource spec"));
  config::YamlReader r(path);
  const YAML::Node list = gpu_list(r, root);
  if (!list || !list.IsSequence()) return fail(Error::at(path, 1, "gpus", "expected a 'gpus' list (or CTest's local[0].gpus)"));
  ResourceSpec spec{{}, path};
  for (const auto& node : list) {
    const auto gpu = gpu_from_node(r, node);
    if (!gpu) continue;
    if (std::any_of(spec.gpus.begin(), spec.gpus.end(), [&](const Gpu& g) { return g.id == gpu->id; })) {
      r.problem(node, "id", fmt::format("GPU '{}' is listed twice", gpu->id));
    }
    spec.gpus.push_back(*gpu);
  }
  if (auto problems = r.finish(); !problems.empty()) return fail(Error{std::move(problems)});
  return spec;
}

ResourceSpec detect_gpus(const std::optional<std::string>& cuda_visible_devices, const std::string& listing) {
  if (cuda_visible_devices) {
    if (cuda_visible_devices->empty() || *cuda_visible_devices == "-1") return {{}, "CUDA_VISIBLE_DEVICES"};
    if (auto gpus = gpus_from_ids(*cuda_visible_devices, "CUDA_VISIBLE_DEVICES")) {
      return {*gpus, "CUDA_VISIBLE_DEVICES"};
    }
  }
  // "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-...)"
  static const std::regex kLine(R"(^GPU (\d+):)");
  ResourceSpec spec{{}, "nvidia-smi -L"};
  for (const auto& line : split_list(listing, '\n')) {
    std::smatch m;
    if (std::regex_search(line, m, kLine)) spec.gpus.push_back({m[1], 1});
  }
  if (spec.gpus.empty()) spec.source = "none";
  return spec;
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
