#include "run/resources.h"

#include <cerrno>
#include <algorithm>
#include <regex>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

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

Gpu gpu_from_node(const YAML::Node& node, const std::string& path) {
  if (node.IsScalar()) return {node.as<std::string>(), 1};
  Gpu gpu{node["id"].as<std::string>(), node["slots"] ? node["slots"].as<int>() : 1};
  if (gpu.slots < 1) throw Error::at(path, node.Mark().line + 1, "slots", "slots must be at least 1");
  return gpu;
}

}  // namespace

Result<ResourceSpec> parse_gpu_list(const std::string& list) {
  if (list == "none" || list == "-1") return ResourceSpec{{}, "--gpus"};
  auto gpus = TRY(gpus_from_ids(list, "--gpus"));
  return ResourceSpec{gpus, "--gpus"};
}

Result<ResourceSpec> load_resource_spec(const std::string& path) {
  try {
    const YAML::Node root = YAML::LoadFile(path);
    // (yaml-cpp: assigning to a node read from a missing key throws, so choose before binding.)
    const bool ctest_form = !root["gpus"] && root["local"] && root["local"].IsSequence() && root["local"].size() > 0;
    const YAML::Node list = ctest_form ? root["local"][0]["gpus"] : root["gpus"];
    if (!list || !list.IsSequence()) {
      return fail(Error::at(path, 1, "gpus", "expected a 'gpus' list (or CTest's local[0].gpus)"));
    }
    ResourceSpec spec{{}, path};
    for (const auto& node : list) {
      Gpu gpu = gpu_from_node(node, path);
      if (std::any_of(spec.gpus.begin(), spec.gpus.end(), [&](const Gpu& g) { return g.id == gpu.id; })) {
        return fail(Error::at(path, node.Mark().line + 1, "id", fmt::format("GPU '{}' is listed twice", gpu.id)));
      }
      spec.gpus.push_back(gpu);
    }
    return spec;
  } catch (const Error& e) {
    return fail(e);
  } catch (const YAML::BadFile&) {
    return fail(Error::at(path, 0, "", "cannot open the resource spec: " + errno_text(errno)));
  } catch (const YAML::Exception& e) {
    return fail(Error::at(path, e.mark.line + 1, "", e.msg));
  }
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
