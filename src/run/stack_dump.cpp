#include "run/stack_dump.h"

#include <dirent.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <thread>

#include <fmt/format.h>

#include "core/command.h"
#include "core/program_path.h"
#include "core/text.h"
#include "run/gpu_watch.h"

namespace tipc::run {
namespace fs = std::filesystem;
namespace {

constexpr std::size_t kNativeOutputLimit = 64 << 10;

std::vector<std::string> native_stack_command(int pid) {
  const std::string tool = native_stack_tool();
  if (tool == "eu-stack") return {"eu-stack", "-p", std::to_string(pid)};
  if (tool == "gdb") return {"gdb", "-p", std::to_string(pid), "-batch", "-nx", "-q", "-ex", "thread apply all bt 30"};
  return {};
}

void write_native_stack(int pid, const std::function<void(std::string_view)>& write, const StackDumpOptions& options) {
  const auto argv = native_stack_command(pid);
  if (argv.empty()) return;
  CommandSpec spec;
  spec.argv = argv;
  spec.timeout_seconds = options.native_timeout_seconds;
  spec.output_limit = kNativeOutputLimit;
  const CommandOutcome outcome = run_command(spec);
  const auto facts = read_process_facts(pid);
  write(fmt::format("tipc-run: native stack of pid {} ({}) from {}:\n", pid, facts ? facts->command : "?", argv[0]));
  write(outcome.output.empty() ? outcome.failure() + "\n" : outcome.output);
  if (!outcome.output.empty() && outcome.output.back() != '\n') write("\n");
}

bool ended(int pid) {
  const auto facts = read_process_facts(pid);
  return !facts || facts->zombie;
}

}  // namespace

// eu-stack where installed (fast), else gdb.
std::string native_stack_tool() {
  if (!program_on_path("eu-stack").empty()) return "eu-stack";
  return program_on_path("gdb").empty() ? "" : "gdb";
}

std::vector<int> group_members(int group) {
  std::vector<int> pids;
  DIR* proc = opendir("/proc");
  if (!proc) return pids;
  while (const dirent* entry = readdir(proc)) {
    const std::string name = entry->d_name;
    if (!all_digits(name)) continue;
    const int pid = std::stoi(name);
    const auto facts = read_process_facts(pid);
    if (facts && facts->group == group && !facts->zombie) pids.push_back(pid);
  }
  closedir(proc);
  std::sort(pids.begin(), pids.end());
  return pids;
}

bool is_python(int pid) {
  std::error_code ec;
  const std::string exe = fs::read_symlink(fmt::format("/proc/{}/exe", pid), ec).filename().string();
  return !ec && exe.rfind("python", 0) == 0;
}

void dump_group_stacks(int group, const std::function<void(std::string_view)>& write, const StackDumpOptions& options) {
  const std::vector<int> members = group_members(group);
  write(fmt::format("{}\n", kStackDumpMarker));
  for (std::size_t i = 0; i < members.size() && i < options.native_processes; ++i) {
    write_native_stack(members[i], write, options);
  }
  std::vector<int> pythons;
  std::copy_if(members.begin(), members.end(), std::back_inserter(pythons), is_python);
  for (const int pid : pythons) kill(pid, SIGABRT);
  const auto deadline = std::chrono::steady_clock::now() + options.python_wait;
  while (std::chrono::steady_clock::now() < deadline && !std::all_of(pythons.begin(), pythons.end(), ended)) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

}  // namespace tipc::run
