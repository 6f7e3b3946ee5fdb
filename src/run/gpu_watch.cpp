#include "run/gpu_watch.h"

#include <fstream>
#include <sstream>

#include <fmt/format.h>

namespace tipc::run {
namespace {

constexpr std::size_t kCommandShown = 120;

// /proc/<pid>/stat: "pid (comm) state ppid pgrp ...": the comm may hold spaces and ')'.
std::optional<std::pair<char, int>> state_and_group(int pid) {
  std::ifstream file(fmt::format("/proc/{}/stat", pid));
  std::string text;
  if (!std::getline(file, text)) return std::nullopt;
  const auto close = text.rfind(')');
  if (close == std::string::npos) return std::nullopt;
  std::istringstream rest(text.substr(close + 1));
  char state = '?';
  int parent = 0, group = 0;
  if (!(rest >> state >> parent >> group)) return std::nullopt;
  return std::pair{state, group};
}

std::string command_line(int pid) {
  std::ifstream file(fmt::format("/proc/{}/cmdline", pid), std::ios::binary);
  std::string text(kCommandShown + 1, '\0');
  file.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(file.gcount()));
  while (!text.empty() && text.back() == '\0') text.pop_back();
  for (char& c : text)
    c = static_cast<unsigned char>(c) < 0x20 ? ' ' : c;  // one line: NULs between arguments, a -c script's line breaks
  return text.size() > kCommandShown ? text.substr(0, kCommandShown) + "…" : text;
}

}  // namespace

std::optional<ProcessFacts> read_process_facts(int pid) {
  const auto stat = state_and_group(pid);
  if (!stat) return std::nullopt;
  return ProcessFacts{stat->second, command_line(pid), stat->first == 'Z'};
}

std::string describe_processes(const std::vector<GpuProcess>& processes) {
  std::vector<std::string> parts;
  for (const auto& p : processes) parts.push_back(fmt::format("pid {} ({:.0f} MiB)", p.pid, p.used_mib));
  return fmt::format("{}", fmt::join(parts, ", "));
}

std::string held_after_wait(const std::string& whose, double seconds, const std::vector<GpuProcess>& leftovers) {
  return fmt::format("memory of {} still held after {:g} s ({}); started anyway", whose, seconds,
                     describe_processes(leftovers));
}

GpuWatch::GpuWatch(GpuDriver& driver, const ResourceSpec& gpus, GpuWatchOptions options, ProcessLookup lookup)
    : driver_(driver), options_(options), lookup_(std::move(lookup)) {
  for (const Gpu& gpu : gpus.gpus) {
    if (!gpu.uuid.empty()) uuids_[gpu.id] = gpu.uuid;
  }
}

std::optional<std::string> GpuWatch::uuid_of(const std::string& gpu) const {
  const auto it = uuids_.find(gpu);
  return it == uuids_.end() ? std::nullopt : std::optional<std::string>(it->second);
}

std::vector<std::string> GpuWatch::before_start(const std::string& stage, const std::vector<std::string>& gpus,
                                                const std::set<int>& our_groups) {
  std::vector<std::string> foreign;
  for (const auto& gpu : gpus) {
    const auto uuid = uuid_of(gpu);
    const auto there = uuid ? driver_.processes(*uuid) : std::nullopt;
    if (!there) continue;
    auto& before = before_[stage][gpu];
    for (const GpuProcess& process : *there) {
      before.insert(process.pid);
      const auto facts = lookup_(process.pid);
      if ((facts && our_groups.count(facts->group)) || handed_on_[gpu].count(process.pid)) continue;
      const std::string who =
          facts ? fmt::format("({})", facts->command)
                : "(not a process here: another pid namespace's, or ended with its memory not yet freed)";
      foreign.push_back(fmt::format("GPU {}: pid {} {} holds {:.0f} MiB; this run did not start it", gpu, process.pid,
                                    who, process.used_mib));
    }
  }
  return foreign;
}

void GpuWatch::hand_on_with(const std::string& gpu, const std::vector<GpuProcess>& leftovers) {
  for (const GpuProcess& process : leftovers) handed_on_[gpu].insert(process.pid);
}

void GpuWatch::sample(const std::vector<std::string>& gpus, GpuFigures& figures) {
  for (const auto& gpu : gpus) {
    const auto uuid = uuid_of(gpu);
    if (const auto reading = uuid ? driver_.sample(*uuid) : std::nullopt) figures.add(*reading);
  }
}

std::vector<GpuProcess> GpuWatch::leftovers(const std::string& stage, const std::string& gpu,
                                            std::optional<int> group) {
  const auto uuid = uuid_of(gpu);
  const auto there = uuid ? driver_.processes(*uuid) : std::nullopt;
  if (!there) return {};  // the driver cannot say: nothing to wait for
  const auto& before = before_[stage][gpu];
  std::vector<GpuProcess> left;
  for (const GpuProcess& process : *there) {
    if (before.count(process.pid)) continue;
    const auto facts = lookup_(process.pid);
    const bool gone = !facts || facts->zombie;
    if (gone || (group && facts->group == *group)) left.push_back(process);
  }
  return left;
}

}  // namespace tipc::run
