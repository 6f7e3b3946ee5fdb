// The driver through `nvidia-smi` where NVML cannot be loaded: its device listing, and its CSV
// queries of the GPUs and of the compute processes (one command each per reading of all the
// GPUs: a reading asked for within kFreshFor of the last one is answered from it).
#include <chrono>
#include <map>

#include "core/split_list.h"
#include "core/text.h"
#include "run/gpu_driver.h"

namespace tipc::run {
namespace {

constexpr auto kFreshFor = std::chrono::milliseconds(500);

// A CSV field of nvidia-smi's `nounits` output; "[N/A]", "[Not Supported]": nullopt.
std::optional<double> number(const std::string& field) {
  try {
    std::size_t used = 0;
    const double value = std::stod(field, &used);
    return used > 0 ? std::optional<double>(value) : std::nullopt;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

std::vector<std::string> fields(const std::string& line) {
  std::vector<std::string> out;
  for (const auto& field : split_list(line, ',')) out.emplace_back(trim(field, " "));
  return out;
}

class NvidiaSmiDriver : public GpuDriver {
 public:
  explicit NvidiaSmiDriver(HelperRunner run) : run_(std::move(run)) {}
  GpuInventory inventory() override {
    const CommandOutcome listing = run_({"nvidia-smi", "-L"});
    return {listing.ok() ? parse_nvidia_smi_listing(listing.output) : std::vector<GpuDevice>{}, "nvidia-smi -L"};
  }
  std::optional<GpuSample> sample(const std::string& uuid) override {
    refresh();
    const auto it = samples_.find(uuid);
    return it == samples_.end() ? std::nullopt : std::optional<GpuSample>(it->second);
  }
  std::optional<std::vector<GpuProcess>> processes(const std::string& uuid) override {
    refresh();
    if (!processes_ok_) return std::nullopt;
    const auto it = processes_.find(uuid);
    return it == processes_.end() ? std::vector<GpuProcess>{} : it->second;
  }

 private:
  void refresh();
  void read_gpus();
  void read_processes();

  HelperRunner run_;
  std::chrono::steady_clock::time_point read_at_{};
  std::map<std::string, GpuSample> samples_;                  // by UUID
  std::map<std::string, std::vector<GpuProcess>> processes_;  // by UUID
  bool processes_ok_ = false;
};

void NvidiaSmiDriver::refresh() {
  const auto now = std::chrono::steady_clock::now();
  if (read_at_.time_since_epoch().count() != 0 && now - read_at_ < kFreshFor) return;
  read_at_ = now;
  read_gpus();
  read_processes();
}

void NvidiaSmiDriver::read_gpus() {
  samples_.clear();
  const CommandOutcome out =
      run_({"nvidia-smi", "--query-gpu=uuid,memory.used,utilization.gpu,power.draw,clocks_throttle_reasons.active",
            "--format=csv,noheader,nounits"});
  if (!out.ok()) return;
  for (const auto& line : split_list(out.output, '\n')) {
    const auto f = fields(line);
    if (f.size() < 5) continue;
    GpuSample sample{number(f[1]), number(f[2]), number(f[3]), 0};
    try {
      sample.throttle_reasons = std::stoull(f[4], nullptr, 16);
    } catch (const std::exception&) {
    }
    samples_[f[0]] = sample;
  }
}

void NvidiaSmiDriver::read_processes() {
  processes_.clear();
  const CommandOutcome out =
      run_({"nvidia-smi", "--query-compute-apps=gpu_uuid,pid,used_memory", "--format=csv,noheader,nounits"});
  processes_ok_ = out.ok();
  for (const auto& line : split_list(out.ok() ? out.output : "", '\n')) {
    const auto f = fields(line);
    const auto pid = f.size() >= 3 ? number(f[1]) : std::nullopt;
    if (pid) processes_[f[0]].push_back({static_cast<int>(*pid), number(f[2]).value_or(0)});
  }
}

}  // namespace

std::unique_ptr<GpuDriver> open_nvidia_smi(HelperRunner run) {
  auto driver = std::make_unique<NvidiaSmiDriver>(std::move(run));
  if (driver->inventory().devices.empty()) return nullptr;
  return driver;
}

std::unique_ptr<GpuDriver> open_gpu_driver(HelperRunner run) {
  if (auto nvml = open_nvml()) return nvml;
  return open_nvidia_smi(std::move(run));
}

}  // namespace tipc::run
