#include "run/slurm.h"

#include <unistd.h>

#include <cmath>
#include <csignal>
#include <set>
#include <sstream>
#include <tuple>

#include <fmt/format.h>

#include "run/working_directory.h"

extern char** environ;

namespace tipc::run {
namespace {

// Runs inside the job, on every task, when a stage needs what only the allocation knows:
// the allocated hosts (as addresses) in place of the config's for a multi-node launcher
// (the whole list, as paddle's --ips; the first host alone, as torch.distributed.run's
// --master_addr, whose --node_rank comes from PET_NODE_RANK), and the rank variables of
// tipc-run's rank-env launcher (one task per rank).
constexpr const char* kStepWrapper = R"(addresses=
for host in $(scontrol show hostnames "$SLURM_JOB_NODELIST"); do
  address=$(getent ahostsv4 "$host" | awk 'NR == 1 { print $1 }')
  addresses="${addresses:+$addresses,}${address:-$host}"
done
if [ "${TIPC_SLURM_RANKS_PER_NODE:-0}" -gt 0 ]; then
  export RANK=$SLURM_PROCID LOCAL_RANK=$SLURM_LOCALID WORLD_SIZE=$SLURM_NTASKS
  export LOCAL_WORLD_SIZE=$TIPC_SLURM_RANKS_PER_NODE MASTER_ADDR=${addresses%%,*}
  export MASTER_PORT=$((29500 + SLURM_JOB_ID % 10000))
fi
if [ -n "${TIPC_SLURM_CONFIG_HOSTS:-}" ]; then
  export PET_NODE_RANK=$SLURM_NODEID
  first=${TIPC_SLURM_CONFIG_HOSTS%%,*}
  words=()
  for word in "$@"; do
    word=${word//"$TIPC_SLURM_CONFIG_HOSTS"/$addresses}
    case $word in
      "$first" | *="$first") word=${word%"$first"}${addresses%%,*} ;;
    esac
    words+=("$word")
  done
  set -- "${words[@]}"
fi
exec "$@")";

// Slurm's --time in whole minutes, rounded up.
std::string time_limit_minutes(double seconds) {
  return std::to_string(static_cast<long>(std::ceil(seconds / 60)));
}

std::string first_line(const std::string& text) {
  std::string line = text.substr(0, text.find('\n'));
  while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back()))) line.pop_back();
  return line;
}

// GPUs in one node's Gres: "gpu:2", "gpu:a100:4(S:0-1),mps:100", "(null)".
int gpus_in_gres(const std::string& gres) {
  int total = 0;
  std::istringstream items(gres);
  for (std::string item; std::getline(items, item, ',');) {
    item = item.substr(0, item.find('('));
    if (item.rfind("gpu", 0) != 0) continue;
    const std::string count = item.substr(item.rfind(':') + 1);
    total += !count.empty() && count.find_first_not_of("0123456789") == std::string::npos ? std::stoi(count) : 1;
  }
  return total;
}

}  // namespace

std::vector<std::string> inherited_slurm_variables() {
  std::vector<std::string> names;
  for (char** entry = environ; entry && *entry; ++entry) {
    const std::string text = *entry;
    const std::string name = text.substr(0, text.find('='));
    if (name.rfind("SLURM_", 0) == 0 && name != "SLURM_CONF") names.push_back(name);
  }
  return names;
}

Launch slurm_launch(const Launch& launch, const SlurmOptions& options, const std::string& job_name,
                    const std::vector<std::string>& inherited_slurm_variables) {
  const int ranks_per_node = launch.processes > 1 ? launch.processes : 1;
  Launch step = launch;
  step.processes = 1;  // srun starts the ranks, one task each
  step.argv = {"srun", "--quiet", "--job-name=" + job_name, "--comment=" + launch.id, "--chdir=" + launch.cwd,
               fmt::format("--nodes={}", launch.nodes), fmt::format("--ntasks-per-node={}", ranks_per_node),
               "--kill-on-bad-exit=1"};
  if (launch.gpus > 0) step.argv.push_back(fmt::format("--gres=gpu:{}", launch.gpus));
  if (options.cpus_per_task) step.argv.push_back(fmt::format("--cpus-per-task={}", *options.cpus_per_task));
  if (launch.time_limit > 0) step.argv.push_back("--time=" + time_limit_minutes(launch.time_limit));
  if (launch.exclusive) step.argv.push_back("--exclusive");
  if (options.partition) step.argv.push_back("--partition=" + *options.partition);
  if (options.account) step.argv.push_back("--account=" + *options.account);
  step.argv.insert(step.argv.end(), options.srun_args.begin(), options.srun_args.end());
  for (const auto& name : inherited_slurm_variables) step.env.try_emplace(name, std::nullopt);
  if (ranks_per_node > 1 || !launch.hosts.empty()) {
    step.argv.insert(step.argv.end(), {"bash", "-c", kStepWrapper, "tipc-slurm-step"});
    if (ranks_per_node > 1) step.env["TIPC_SLURM_RANKS_PER_NODE"] = std::to_string(ranks_per_node);
    if (!launch.hosts.empty()) step.env["TIPC_SLURM_CONFIG_HOSTS"] = launch.hosts;
  }
  step.argv.insert(step.argv.end(), launch.argv.begin(), launch.argv.end());
  return step;
}

Result<ClusterCapacity> parse_sinfo_nodes(const std::string& listing, const std::string& source) {
  ClusterCapacity capacity{0, 0, source};
  std::set<std::string> seen;
  std::istringstream lines(listing);
  for (std::string line; std::getline(lines, line);) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const auto bar = line.find('|');
    if (bar == std::string::npos) {
      return fail(Error::plain(fmt::format("{}: unexpected line '{}' (expected NODE|GRES)", source, line)));
    }
    if (!seen.insert(line.substr(0, bar)).second) continue;  // a node in several partitions
    ++capacity.nodes;
    capacity.max_gpus_per_node = std::max(capacity.max_gpus_per_node, gpus_in_gres(first_line(line.substr(bar + 1))));
  }
  if (capacity.nodes == 0) return fail(Error::plain(fmt::format("{}: the cluster lists no node", source)));
  return capacity;
}

Result<ClusterCapacity> query_slurm_cluster(const SlurmOptions& options, const CommandRunner& run) {
  std::vector<std::string> command{"sinfo", "--noheader", "--Node", "--format=%N|%G"};
  if (options.partition) command.push_back("--partition=" + *options.partition);
  const std::string source =
      options.partition ? fmt::format("slurm partition {} (sinfo)", *options.partition) : "slurm (sinfo)";
  const CommandOutcome listing = run(command);
  if (!listing.ok()) return fail(Error::plain("--executor slurm: sinfo failed: " + listing.failure()));
  return parse_sinfo_nodes(listing.output, source);
}

SlurmExecutor::SlurmExecutor(Executor& local, SlurmOptions options, CommandRunner run)
    : local_(local), options_(std::move(options)), run_(std::move(run)), inherited_(inherited_slurm_variables()) {}

SlurmExecutor::~SlurmExecutor() {
  for (const auto& [id, name] : job_names_) run_({"scancel", "--name=" + name});
}

// The directory is checked here, on the submitting machine, which shares its filesystem
// with the nodes (docs/slurm.md): slurmstepd runs a step whose --chdir fails in /tmp.
Result<void> SlurmExecutor::start(const Launch& launch) {
  TRY(check_working_directory(launch.cwd));
  const std::string name = fmt::format("tipc-{}-{}", getpid(), ++submitted_);
  auto ok = local_.start(slurm_launch(launch, options_, name, inherited_));
  if (ok) job_names_[launch.id] = name;
  return ok;
}

std::pair<std::string, std::string> SlurmExecutor::job_and_nodes_of(const std::string& job_name) const {
  const CommandOutcome job = run_({"squeue", "--noheader", "--states=all", "--name=" + job_name, "--format=%i|%N"});
  if (!job.ok()) return {};
  const std::string line = first_line(job.output);
  const auto bar = line.find('|');
  if (bar == std::string::npos) return {line, ""};
  return {line.substr(0, bar), line.substr(bar + 1)};
}

std::optional<Finished> SlurmExecutor::wait(Clock::time_point until) {
  auto finished = local_.wait(until);
  if (!finished) return finished;
  if (const auto it = job_names_.find(finished->id); it != job_names_.end()) {
    std::tie(finished->job_id, finished->nodes) = job_and_nodes_of(it->second);
    job_names_.erase(it);
  }
  return finished;
}

void SlurmExecutor::signal(const std::string& id, int signal) {
  local_.signal(id, signal);
  const auto it = job_names_.find(id);
  if (it == job_names_.end()) return;
  if (signal == SIGKILL) run_({"scancel", "--signal=KILL", "--name=" + it->second});
  else run_({"scancel", "--name=" + it->second});
}

}  // namespace tipc::run
