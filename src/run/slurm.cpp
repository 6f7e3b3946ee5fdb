#include "run/slurm.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/file_tail.h"
#include "core/split_list.h"
#include "core/text.h"
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
std::string time_limit_minutes(double seconds) { return std::to_string(static_cast<long>(std::ceil(seconds / 60))); }

std::string first_line(std::string_view text) {
  return std::string(trim_end(text.substr(0, text.find('\n')), kWhiteSpace));
}

// GPUs in one node's Gres: "gpu:2", "gpu:a100:4(S:0-1),mps:100", "(null)".
int gpus_in_gres(const std::string& gres) {
  int total = 0;
  for (std::string item : split_list(gres, ',')) {
    item = item.substr(0, item.find('('));
    if (item.rfind("gpu", 0) != 0) continue;
    const std::string count = item.substr(item.rfind(':') + 1);
    total += !count.empty() && count.find_first_not_of("0123456789") == std::string::npos ? std::stoi(count) : 1;
  }
  return total;
}

// Job states in which Slurm still holds a job (squeue's %T).
const std::set<std::string>& active_job_states() {
  static const std::set<std::string> states{"PENDING",     "RUNNING",      "SUSPENDED", "CONFIGURING", "REQUEUED",
                                            "REQUEUE_FED", "REQUEUE_HOLD", "RESIZING",  "SIGNALING",   "STOPPED"};
  return states;
}

// Whether the cluster, not the step, ended a job in this state.
bool ended_by_cluster(const std::string& state) {
  static const std::set<std::string> states{"NODE_FAIL", "BOOT_FAIL",     "PREEMPTED",
                                            "DEADLINE",  "OUT_OF_MEMORY", "TIMEOUT"};
  return states.count(state) > 0;
}

struct DownNode {
  std::string name;
  std::string why;  // Slurm's reason, else its state
};

// The nodes of `sinfo --Node --format=%N|%T|%E` that are down, failing, drained or not
// responding (a state ending in '*').
std::vector<DownNode> nodes_down(const std::string& listing) {
  std::vector<DownNode> down;
  std::istringstream lines(listing);
  for (std::string line; std::getline(lines, line);) {
    const auto fields = split_list(first_line(line), '|');
    if (fields.size() < 2) continue;
    const std::string& state = fields[1];
    const bool bad = state.starts_with("down") || state.starts_with("fail") || state.starts_with("drain") ||
                     (!state.empty() && state.back() == '*');
    if (!bad) continue;
    const std::string why = fields.size() > 2 && !fields[2].empty() && fields[2] != "none" ? fields[2] : state;
    down.push_back({fields[0], why});
  }
  return down;
}

}  // namespace

std::optional<SlurmJob> parse_squeue_job(const std::string& listing) {
  const auto fields = split_list(first_line(listing), '|');
  if (fields.empty() || fields[0].empty()) return std::nullopt;
  SlurmJob job{fields[0], fields.size() > 1 ? fields[1] : "", fields.size() > 2 ? fields[2] : ""};
  return job;
}

bool job_is_active(const std::string& state) { return active_job_states().count(state) > 0; }

std::string cluster_failure(const SlurmJob& job, const std::string& down_nodes) {
  if (!ended_by_cluster(job.state)) return "";
  std::string reason = fmt::format("Slurm job {} ended {}", job.id, job.state);
  if (!job.nodes.empty()) reason += " on node " + job.nodes;
  std::vector<std::string> down;
  for (const auto& node : nodes_down(down_nodes)) down.push_back(fmt::format("{} ({})", node.name, node.why));
  if (!down.empty()) reason += fmt::format("; down: {}", fmt::join(down, ", "));
  return reason;
}

std::string srun_allocation_error(const std::string& log_tail) {
  constexpr std::string_view kMark = "srun: error: Unable to allocate resources";
  const auto at = log_tail.rfind(kMark);
  return at == std::string::npos ? "" : first_line(log_tail.substr(at));
}

std::vector<std::string> inherited_slurm_variables() {
  std::vector<std::string> names;
  for (char** entry = environ; entry && *entry; ++entry) {
    const std::string text = *entry;
    const std::string name = text.substr(0, text.find('='));
    if (name.rfind("SLURM_", 0) == 0 && name != "SLURM_CONF") names.push_back(name);
  }
  return names;
}

std::set<std::string> unavailable_nodes(const std::string& listing) {
  std::set<std::string> names;
  for (auto& node : nodes_down(listing)) names.insert(std::move(node.name));
  return names;
}

Launch slurm_launch(const Launch& launch, const SlurmOptions& options, const std::string& job_name,
                    const std::vector<std::string>& inherited_slurm_variables, const Placement& placement) {
  const int ranks_per_node = launch.demand().tasks_per_node;
  Launch step = launch;
  step.processes = 1;  // srun starts the ranks, one task each
  step.argv = {"srun",
               "--quiet",
               "--job-name=" + job_name,
               "--comment=" + launch.id,
               "--chdir=" + launch.cwd,
               fmt::format("--nodes={}", launch.nodes),
               fmt::format("--ntasks-per-node={}", ranks_per_node),
               "--kill-on-bad-exit=1"};
  if (launch.gpus > 0) step.argv.push_back(fmt::format("--gres=gpu:{}", launch.gpus));
  if (options.cpus_per_task) step.argv.push_back(fmt::format("--cpus-per-task={}", *options.cpus_per_task));
  if (launch.time_limit > 0) step.argv.push_back("--time=" + time_limit_minutes(launch.time_limit));
  if (launch.exclusive) step.argv.push_back("--exclusive");
  if (!placement.empty()) {
    std::vector<std::string> names;
    for (const auto& share : placement) names.push_back(share.node);
    step.argv.push_back(fmt::format("--nodelist={}", fmt::join(names, ",")));
  }
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
  ClusterCapacity capacity{0, 0, source, 0, {}};
  std::set<std::string> seen;
  std::istringstream lines(listing);
  for (std::string line; std::getline(lines, line);) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const auto fields = split_list(first_line(line), '|');
    if (fields.size() != 3 || fields[1].empty() || fields[1].find_first_not_of("0123456789") != std::string::npos) {
      return fail(Error::plain(fmt::format("{}: unexpected line '{}' (expected NODE|CPUS|GRES)", source, line)));
    }
    if (!seen.insert(fields[0]).second) continue;  // a node in several partitions
    const ClusterNode node{fields[0], std::stoi(fields[1]), gpus_in_gres(fields[2])};
    ++capacity.nodes;
    capacity.cpus += node.cpus;
    capacity.max_gpus_per_node = std::max(capacity.max_gpus_per_node, node.gpus);
    capacity.each_node.push_back(node);
  }
  if (capacity.nodes == 0) return fail(Error::plain(fmt::format("{}: the cluster lists no node", source)));
  return capacity;
}

Result<ClusterCapacity> query_slurm_cluster(const SlurmOptions& options, const CommandRunner& run) {
  std::vector<std::string> command{"sinfo", "--noheader", "--Node", "--format=%N|%c|%G"};
  if (options.partition) command.push_back("--partition=" + *options.partition);
  const std::string source =
      options.partition ? fmt::format("slurm partition {} (sinfo)", *options.partition) : "slurm (sinfo)";
  const CommandOutcome listing = run(command);
  if (!listing.ok()) return fail(Error::plain("--executor slurm: sinfo failed: " + listing.failure()));
  return parse_sinfo_nodes(listing.output, source);
}

SlurmExecutor::SlurmExecutor(Executor& local, SlurmOptions options, CommandRunner run,
                             std::vector<ClusterNode> place_on)
    : local_(local), options_(std::move(options)), run_(std::move(run)), inherited_(inherited_slurm_variables()) {
  if (place_on.empty()) return;
  placement_.emplace(std::move(place_on), options_.cpus_per_task.value_or(1));
  refresh_node_states();
}

bool SlurmExecutor::has_room_for(const Demand& demand) const {
  // Room now is the common answer: one search; the search over an idle cluster only when busy.
  return !placement_ || placement_->find(demand).has_value() || !placement_->could_ever_fit(demand);
}

void SlurmExecutor::refresh_node_states() {
  if (!placement_) return;
  std::vector<std::string> command{"sinfo", "--noheader", "--Node", "--format=%N|%T|%E"};
  if (options_.partition) command.push_back("--partition=" + *options_.partition);
  const CommandOutcome listing = run_(command);
  if (!listing.ok()) return;  // the controller may be restarting: the placement stays as it was
  placement_->set_unavailable(unavailable_nodes(listing.output));
}

void SlurmExecutor::cancel_if_pinned_to_unavailable_node(Submitted& job) {
  if (!placement_ || !job.cancelled_because.empty()) return;
  const auto on = std::find_if(job.placement.begin(), job.placement.end(),
                               [&](const NodeShare& share) { return placement_->unavailable().count(share.node) > 0; });
  if (on == job.placement.end()) return;
  job.cancelled_because =
      fmt::format("its job waited for node {}, which Slurm reports down or drained, and was cancelled", on->node);
  run_({"scancel", "--name=" + job.job_name});
}

SlurmExecutor::~SlurmExecutor() {
  for (const auto& [id, job] : submitted_jobs_) run_({"scancel", "--name=" + job.job_name});
}

// The directory is checked here, on the submitting machine, which shares its filesystem
// with the nodes (docs/slurm.md): slurmstepd runs a step whose --chdir fails in /tmp.
Result<void> SlurmExecutor::start(const Launch& launch) {
  TRY(check_working_directory(launch.cwd));
  const std::string name = fmt::format("tipc-{}-{}", getpid(), ++submitted_);
  if (submitted_jobs_.empty()) next_poll_ = now() + kJobPoll;
  const Placement placement = placement_ ? placement_->find(launch.demand()).value_or(Placement{}) : Placement{};
  auto ok = local_.start(slurm_launch(launch, options_, name, inherited_, placement));
  if (!ok) return ok;
  if (placement_) placement_->take(placement);
  submitted_jobs_[launch.id] = {name, launch.log_path, placement, "", ""};
  return ok;
}

// A job Slurm ended itself (its node failed) may leave srun exiting 0, and a job whose
// srun went away while the controller was down may stay RUNNING there: srun's status alone
// says neither, the job's state does.
void SlurmExecutor::account_for_job(const Submitted& submitted, Finished& finished) const {
  const std::string& job_name = submitted.job_name;
  const CommandOutcome listing =
      run_({"squeue", "--noheader", "--states=all", "--name=" + job_name, "--format=%i|%T|%N"});
  const auto job = listing.ok() ? parse_squeue_job(listing.output) : std::nullopt;
  if (job) {
    finished.job_id = job->id;
    finished.nodes = job->state == "COMPLETING" ? allocated_nodes(submitted, job->nodes) : job->nodes;
    if (job_is_active(job->state)) run_({"scancel", "--name=" + job_name});
    if (ended_by_cluster(job->state)) {
      const CommandOutcome nodes =
          run_({"sinfo", "--noheader", "--Node", "--nodes=" + job->nodes, "--format=%N|%T|%E"});
      finished.cluster_failure = cluster_failure(*job, nodes.ok() ? nodes.output : "");
    }
  }
  if (finished.cluster_failure.empty() && finished.exit_code.value_or(0) != 0) {
    finished.cluster_failure = srun_allocation_error(file_tail(submitted.log_path, 4096));
  }
}

std::string SlurmExecutor::allocated_nodes(const Submitted& job, const std::string& listed) const {
  if (!job.nodes_while_running.empty()) return job.nodes_while_running;
  if (job.placement.size() < 2) return job.placement.empty() ? listed : job.placement[0].node;
  std::vector<std::string> names;
  for (const auto& share : job.placement) names.push_back(share.node);
  const std::string joined = fmt::format("{}", fmt::join(names, ","));
  const CommandOutcome hostlist = run_({"scontrol", "show", "hostlist", joined});  // Slurm's own n[1-2] form
  return hostlist.ok() && !first_line(hostlist.output).empty() ? first_line(hostlist.output) : joined;
}

void SlurmExecutor::stop_sruns_of_ended_jobs() {
  next_poll_ = now() + kJobPoll;
  if (submitted_jobs_.empty()) return;
  refresh_node_states();
  std::vector<std::string> names;
  for (const auto& [id, job] : submitted_jobs_) names.push_back(job.job_name);
  const CommandOutcome listing = run_(
      {"squeue", "--noheader", "--states=all", fmt::format("--name={}", fmt::join(names, ",")), "--format=%j|%T|%N"});
  if (!listing.ok()) return;
  std::map<std::string, SlurmJob> jobs;  // job name -> its state and nodes
  std::istringstream lines(listing.output);
  for (std::string line; std::getline(lines, line);) {
    const auto fields = split_list(first_line(line), '|');
    if (fields.size() >= 2) jobs[fields[0]] = {"", fields[1], fields.size() > 2 ? fields[2] : ""};
  }
  for (auto& [id, job] : submitted_jobs_) {
    const auto listed = jobs.find(job.job_name);
    if (listed == jobs.end()) continue;
    const std::string& state = listed->second.state;
    if (state == "RUNNING" && !listed->second.nodes.empty()) job.nodes_while_running = listed->second.nodes;
    if (ended_by_cluster(state)) local_.signal(id, SIGKILL);
    if (state == "PENDING") cancel_if_pinned_to_unavailable_node(job);
  }
}

std::optional<Finished> SlurmExecutor::wait(Clock::time_point until) {
  if (now() >= next_poll_) stop_sruns_of_ended_jobs();
  auto finished = local_.wait(std::min(until, next_poll_));
  if (!finished) return finished;
  if (const auto it = submitted_jobs_.find(finished->id); it != submitted_jobs_.end()) {
    Submitted job = std::move(it->second);
    submitted_jobs_.erase(it);
    account_for_job(job, *finished);
    if (finished->cluster_failure.empty()) finished->cluster_failure = job.cancelled_because;
    if (placement_) placement_->give_back(job.placement);
    // The cluster failed it (its node, most likely): no stage goes to a node that is down.
    if (!finished->cluster_failure.empty()) refresh_node_states();
  }
  return finished;
}

void SlurmExecutor::signal(const std::string& id, int signal) {
  local_.signal(id, signal);
  const auto it = submitted_jobs_.find(id);
  if (it == submitted_jobs_.end()) return;
  const std::string& name = it->second.job_name;
  if (signal == SIGKILL)
    run_({"scancel", "--signal=KILL", "--name=" + name});
  else
    run_({"scancel", "--name=" + name});
}

}  // namespace tipc::run
