#include "run/scheduler.h"

#include <csignal>
#include <filesystem>
#include <numeric>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <spdlog/spdlog.h>

#include "core/plural.h"
#include "run/priority.h"
#include "run/service_probe.h"
#include "run/working_directory.h"

namespace tipc::run {
namespace fs = std::filesystem;

double Timeouts::for_kind(plan::StageKind kind) const {
  if (all) return *all;
  const auto it = by_kind.find(kind);
  return it == by_kind.end() ? 0 : it->second;
}

std::string stage_key(const plan::Plan& plan, const plan::Stage& stage) { return plan.config_path + "#" + stage.id; }

std::string stage_cwd_path(const std::string& repo_root, const plan::Stage& stage) {
  const fs::path path = (fs::path(repo_root) / stage.cwd).lexically_normal();
  return path.has_filename() || path == path.root_path() ? path.string() : path.parent_path().string();  // "x/." -> "x"
}

std::string stage_log_path(const std::string& repo_root, const plan::Plan& plan, const plan::Stage& stage) {
  return (fs::path(repo_root) / plan.run_dir / stage.log).lexically_normal().string();
}

std::string attempt_log_path(const std::string& log_path, std::size_t attempt) {
  const fs::path path(log_path);
  const fs::path name = fmt::format("{}.attempt{}{}", path.stem().string(), attempt, path.extension().string());
  return (path.parent_path() / name).string();
}

namespace {

enum class State { kWaiting, kRunning, kDone };

// How often a service that is not ready yet is probed.
constexpr double kReadyPollSeconds = 0.05;
// How often a GPU whose stage ended is asked whether its memory is free.
constexpr double kReleasePollSeconds = 0.2;

struct Slot {
  StageRecord record;
  State state = State::kWaiting;
  std::vector<std::size_t> deps;
  std::vector<std::size_t> after;  // plan::Stage::after: ended first, whatever their result
  std::vector<std::size_t> dependents;
  double attempt_start = 0;  // seconds since start: when its current try started
  double deadline = 0;       // seconds since start; 0: none
  double kill_deadline = 0;  // after SIGTERM
  // A service stage (plan::Service):
  double ready_deadline = 0;
  bool ready = false;            // its clients may start
  bool stopping = false;         // tipc-run asked it to stop
  std::string service_failure;   // why it was stopped as a failure ("" after its last client)
  std::optional<int> group;      // its processes' group, while it runs (Executor::process_group)
  double next_sample = 0;        // when its GPUs are read next
  double relaunch_deadline = 0;  // > 0: its retry waits for the memory of its last try until then

  bool serves() const { return record.stage->service.has_value(); }
  std::optional<int> port() const { return serves() ? record.stage->service->port : std::nullopt; }
};

class Run {
 public:
  Run(const std::vector<const plan::Plan*>& plans, Executor& executor, Listener& listener,
      const SchedulerOptions& options, const std::function<bool()>& interrupted)
      : executor_(executor), listener_(listener), options_(options), interrupted_(interrupted) {
    start_ = executor_.now();
    for (const auto* plan : plans) add_plan(*plan);
    order_ = start_order();
    info_.plans = plans;
    info_.total_stages = slots_.size();
    info_.jobs = options.jobs;
    info_.resources = options.resources;
  }

  RunSummary run();

 private:
  void add_plan(const plan::Plan& plan);
  std::vector<std::size_t> start_order() const;
  double seconds_since_start(Clock::time_point t) const { return std::chrono::duration<double>(t - start_).count(); }
  double now() const { return seconds_since_start(executor_.now()); }
  void finish(std::size_t index, Verdict verdict);
  void preflight();
  std::optional<std::string> service_problem(std::size_t index) const;
  void skip_after_failed_dependencies();
  void start_ready();
  bool start(std::size_t index, const std::vector<std::string>& gpus);
  bool launch(std::size_t index);
  bool retry(std::size_t index, const Verdict& verdict);
  Verdict final_verdict(const Slot& slot, Verdict verdict) const;
  void skip_after_fail_fast();
  Launch launch_for(const Slot& slot, const std::vector<std::string>& gpus) const;
  void handle(const Finished& finished);
  void enforce_deadlines();
  void stop_everything();
  bool dependency_met(std::size_t dep) const;
  // What start_ready does next after offering a stage its start: go on, stop (serial), or stop
  // so that running stages drain before a benchmark.
  enum class StartAttempt { kStarted, kNotNow, kDrain };
  StartAttempt try_start(std::size_t index);
  bool jobs_busy() const { return static_cast<int>(running_ - services_running_) >= options_.jobs; }
  void poll_services();
  void stop_service(std::size_t index, std::string failure);
  void stop_services_nobody_can_use();
  Verdict service_verdict(const Slot& slot) const;
  std::optional<double> next_deadline() const;
  bool anything_running() const;
  std::string key_of(const Slot& slot) const { return stage_key(*slot.record.plan, *slot.record.stage); }
  void release_gpus(std::size_t index);
  void poll_releases();
  void hand_on_released_gpus();
  void relaunch_retries();
  bool relaunch_pending() const;
  bool gpus_ready_for(std::size_t index);
  std::set<int> running_groups() const;
  void sample_gpus();
  void time_out(Slot& slot, double idle_seconds);
  bool idle_too_long(const Slot& slot) const;

  Executor& executor_;
  Listener& listener_;
  const SchedulerOptions& options_;
  const std::function<bool()>& interrupted_;
  Clock::time_point start_;
  RunInfo info_;
  std::vector<Slot> slots_;
  std::vector<std::size_t> order_;            // slot indices in the order start_ready offers them resources
  std::map<std::string, std::size_t> by_id_;  // launch id -> slot
  Usage usage_;
  std::size_t running_ = 0;
  std::size_t finished_ = 0;
  bool benchmark_running_ = false;
  std::size_t services_running_ = 0;
  std::set<int> ports_in_use_;  // by running services
  bool stopping_ = false;
  double stopped_at_ = 0;  // when stopping_ began
  double stop_kill_deadline_ = 0;
  std::string first_failure_;  // --fail-fast: the id of the stage whose failure stops new starts
  // GPUs of ended stages held until the driver says their memory is free (SchedulerOptions::gpu_watch).
  struct Releasing {
    std::size_t slot;
    std::string gpu;
    double deadline;  // then handed on anyway
  };
  std::vector<Releasing> releasing_;
  double next_release_poll_ = 0;
  std::map<std::string, std::string> late_release_;  // GPU -> what its next stage's log says of it
};

void Run::add_plan(const plan::Plan& plan) {
  std::map<std::string, std::size_t> local;
  for (const auto& stage : plan.stages) {
    Slot slot;
    slot.record.plan = &plan;
    slot.record.stage = &stage;
    slot.record.log_path = stage_log_path(options_.repo_root, plan, stage);
    for (const auto& dep : stage.deps) {
      if (const auto it = local.find(dep); it != local.end()) {
        slot.deps.push_back(it->second);
        slots_[it->second].dependents.push_back(slots_.size());
      }
    }
    for (const auto& earlier : stage.after) {
      if (const auto it = local.find(earlier); it != local.end()) slot.after.push_back(it->second);
    }
    local[stage.id] = slots_.size();
    by_id_[stage_key(plan, stage)] = slots_.size();
    slots_.push_back(std::move(slot));
  }
}

void Run::finish(std::size_t index, Verdict verdict) {
  Slot& slot = slots_[index];
  if (slot.state == State::kRunning) {
    --running_;
    release_gpus(index);
    if (slot.record.stage->benchmark) benchmark_running_ = false;
    if (slot.serves()) --services_running_;
    if (const auto port = slot.port()) ports_in_use_.erase(*port);
    slot.record.end_seconds = now();
  }
  slot.state = State::kDone;
  ++finished_;
  if (options_.fail_fast && first_failure_.empty() && is_failure(verdict.result))
    first_failure_ = slot.record.stage->id;
  slot.record.verdict = std::move(verdict);
  slot.record.done = true;
  listener_.stage_finished(slot.record);
}

// With a GPU watch, an ended stage's GPUs stay taken until the memory its processes held is
// free (poll_releases); without one they are free at once.
void Run::release_gpus(std::size_t index) {
  const Slot& slot = slots_[index];
  if (!options_.gpu_watch) {
    for (const auto& gpu : slot.record.gpus) --usage_[gpu];
    return;
  }
  const double deadline = now() + options_.gpu_watch->options().release_wait;
  for (const auto& gpu : slot.record.gpus) releasing_.push_back({index, gpu, deadline});
}

// What waits for a GPU's memory is looked at every kReleasePollSeconds.
void Run::poll_releases() {
  if ((releasing_.empty() && !relaunch_pending()) || now() < next_release_poll_) return;
  next_release_poll_ = now() + kReleasePollSeconds;
  hand_on_released_gpus();
  relaunch_retries();
}

bool Run::relaunch_pending() const {
  return std::any_of(slots_.begin(), slots_.end(), [](const Slot& slot) { return slot.relaunch_deadline > 0; });
}

// A retry starts on its GPUs once its last try's memory is free, or its wait is over (said in its log).
void Run::relaunch_retries() {
  GpuWatch& watch = *options_.gpu_watch;
  for (std::size_t i = 0; i < slots_.size(); ++i) {
    Slot& slot = slots_[i];
    if (slot.relaunch_deadline <= 0) continue;
    std::vector<GpuProcess> left;
    for (const auto& gpu : slot.record.gpus) {
      for (const auto& p : watch.leftovers(key_of(slot), gpu, slot.group)) left.push_back(p);
    }
    if (!left.empty() && now() < slot.relaunch_deadline) continue;
    if (!left.empty()) {
      slot.record.gpu_warnings.push_back(held_after_wait("its last try", watch.options().release_wait, left));
    }
    slot.relaunch_deadline = 0;
    launch(i);
  }
}

// Hands on each GPU whose ended stage left nothing on it, or whose wait is over: the next
// stage there is told in its log.
void Run::hand_on_released_gpus() {
  GpuWatch& watch = *options_.gpu_watch;
  for (auto it = releasing_.begin(); it != releasing_.end();) {
    const Slot& slot = slots_[it->slot];
    const auto left = watch.leftovers(key_of(slot), it->gpu, slot.group);
    if (!left.empty() && now() < it->deadline) {
      ++it;
      continue;
    }
    if (!left.empty()) {
      watch.hand_on_with(it->gpu, left);
      late_release_[it->gpu] = fmt::format("GPU {}: {}", it->gpu,
                                           held_after_wait(slot.record.stage->id, watch.options().release_wait, left));
    }
    --usage_[it->gpu];
    const std::size_t released = it->slot;
    it = releasing_.erase(it);
    if (std::none_of(releasing_.begin(), releasing_.end(), [&](const Releasing& r) { return r.slot == released; })) {
      watch.forget(key_of(slots_[released]));
    }
  }
}

std::set<int> Run::running_groups() const {
  std::set<int> groups;
  for (const auto& slot : slots_) {
    if (slot.state == State::kRunning && slot.group) groups.insert(*slot.group);
  }
  return groups;
}

// Before a stage starts on its GPUs: what the driver shows there that this run did not start
// (and a GPU handed on before its memory was free) becomes the stage's warnings; on machines
// that must be exclusive a foreign process fails the stage. False when it may not start.
bool Run::gpus_ready_for(std::size_t index) {
  Slot& slot = slots_[index];
  if (!options_.gpu_watch || slot.record.gpus.empty()) return true;
  auto& warnings = slot.record.gpu_warnings;
  warnings.clear();
  for (const auto& gpu : slot.record.gpus) {
    if (const auto note = late_release_.find(gpu); note != late_release_.end()) {
      warnings.push_back(note->second);
      late_release_.erase(note);
    }
  }
  const auto foreign = options_.gpu_watch->before_start(key_of(slot), slot.record.gpus, running_groups());
  warnings.insert(warnings.end(), foreign.begin(), foreign.end());
  if (foreign.empty() || !options_.gpu_watch->options().exclusive) return true;
  finish(index,
         {Status::kFail, fmt::format("its GPUs are not exclusive (gpus: exclusive): {}{}", foreign.front(),
                                     foreign.size() > 1 ? fmt::format(" (and {} more)", foreign.size() - 1) : "")});
  return false;
}

// Once when a stage starts (a short one gets a reading too), then every sample_every seconds.
void Run::sample_gpus() {
  if (!options_.gpu_watch) return;
  const double t = now();
  for (auto& slot : slots_) {
    if (slot.state != State::kRunning || slot.record.gpus.empty() || t < slot.next_sample) continue;
    options_.gpu_watch->sample(slot.record.gpus, slot.record.gpu_figures);
    slot.next_sample = t + options_.gpu_watch->options().sample_every;
  }
}

// Stages run, or GPUs wait for their memory while a stage waits for them.
bool Run::anything_running() const {
  if (running_ > 0) return true;
  return !releasing_.empty() &&
         std::any_of(slots_.begin(), slots_.end(), [](const Slot& slot) { return slot.state == State::kWaiting; });
}

// With -j 1 plan order, the reference's serial order; otherwise critical path first.
std::vector<std::size_t> Run::start_order() const {
  if (options_.jobs <= 1) {
    spdlog::debug("start order: plan order (-j 1, the reference's serial order)");
    std::vector<std::size_t> plan_order(slots_.size());
    std::iota(plan_order.begin(), plan_order.end(), 0);
    return plan_order;
  }
  std::vector<StageCost> costs;
  costs.reserve(slots_.size());
  for (const auto& slot : slots_) {
    const plan::Stage& stage = *slot.record.stage;
    costs.push_back({stage.kind, stage.needs.gpus, slot.deps, stage_key(*slot.record.plan, stage)});
  }
  const auto estimates = estimate_seconds(costs, options_.history);
  auto start = critical_path_order(costs, estimates);
  if (spdlog::should_log(spdlog::level::debug)) {  // --verbose: why the stages start in this order
    spdlog::debug(
        "start order, critical path first (estimated seconds ahead: the stage's own and its longest chain of "
        "dependents'):");
    for (std::size_t rank = 0; rank < start.order.size(); ++rank) {
      const std::size_t i = start.order[rank];
      spdlog::debug("  {:>4}. {}  {:.1f} s ahead, {:.1f} s its own ({}), {}", rank + 1, costs[i].key, start.ahead[i],
                    estimates[i].seconds, to_string(estimates[i].source), plural(costs[i].gpus, "GPU"));
    }
  }
  return std::move(start.order);
}

// Why a stage can never run where this run sends it; nullopt when it can.
std::optional<std::string> never_fits(const plan::Needs& needs, const SchedulerOptions& options) {
  if (const auto& cluster = options.cluster) {
    if (needs.nodes > cluster->nodes) {
      return fmt::format("needs {}; the cluster has {} ({})", plural(needs.nodes, "node"), cluster->nodes,
                         cluster->source);
    }
    if (needs.gpus > cluster->max_gpus_per_node) {
      return fmt::format("needs {} per node; the cluster's nodes have at most {} ({})", plural(needs.gpus, "GPU"),
                         cluster->max_gpus_per_node, cluster->source);
    }
    return std::nullopt;
  }
  if (needs.nodes > 1 && !options.multi_node_here) {
    return fmt::format("needs {} nodes; the local executor runs on one machine", needs.nodes);
  }
  if (!can_ever_fit(options.resources, needs.gpus)) {
    const std::size_t have = options.resources.gpus.size();
    const std::string& source = options.resources.source;
    return fmt::format("needs {}; {} available{}", plural(needs.gpus, "GPU"), have == 0 ? "none" : std::to_string(have),
                       source.empty() || source == "none" ? "" : " (" + source + ")");
  }
  return std::nullopt;
}

// Why a stage after a left-out one can never run here: that one could not (nullopt: it could).
std::optional<std::string> unselected_dep_never_fits(const plan::Stage& stage, const SchedulerOptions& options) {
  for (const auto& dep : stage.unselected_deps) {
    if (const auto reason = never_fits(dep.needs, options)) {
      return fmt::format("dependency {} (not selected) {}", dep.id, *reason);
    }
  }
  return std::nullopt;
}

// A stage that can never fit is UNSUPPORTED at once instead of waited on forever; so is
// one after a stage --only or -k left out that could never run here (as in a full run).
void Run::preflight() {
  for (std::size_t i = 0; i < slots_.size(); ++i) {
    const plan::Stage& stage = *slots_[i].record.stage;
    if (options_.resumed.count(stage_key(*slots_[i].record.plan, stage))) {
      slots_[i].record.resumed = true;
      finish(i, {Status::kPass, "passed in an earlier run (--resume)"});
    } else if (stage.unsupported) {
      finish(i, {Status::kUnsupported, *stage.unsupported});
    } else if (auto reason = never_fits(stage.needs, options_)) {
      finish(i, {Status::kUnsupported, *reason});
    } else if ((reason = unselected_dep_never_fits(stage, options_)) || (reason = service_problem(i))) {
      finish(i, {Status::kUnsupported, *reason});
    }
  }
}

// Why a service, or a client of services, cannot run as planned; nullopt when it can.
std::optional<std::string> Run::service_problem(std::size_t index) const {
  const Slot& slot = slots_[index];
  if (slot.serves() && options_.cluster) {
    return "a service runs on the local executor only: its clients reach it on 127.0.0.1";
  }
  std::set<int> ports;
  for (const std::size_t dep : slot.deps) {
    const auto port = slots_[dep].port();
    if (port && !ports.insert(*port).second) {
      return fmt::format("depends on two services that both hold port {}, which never run at once", *port);
    }
  }
  return std::nullopt;
}

void Run::skip_after_failed_dependencies() {
  for (bool changed = true; changed;) {
    changed = false;
    for (std::size_t i = 0; i < slots_.size(); ++i) {
      if (slots_[i].state != State::kWaiting) continue;
      for (std::size_t dep : slots_[i].deps) {
        const StageRecord& d = slots_[dep].record;
        if (slots_[dep].state == State::kDone && !is_passed(d.verdict.result)) {
          // What cannot run here makes its dependents unsupported too; a failure makes them skipped.
          const Status status = d.verdict.result == Status::kUnsupported ? Status::kUnsupported : Status::kSkipped;
          finish(i, {status, fmt::format("dependency {} {}", d.stage->id, to_string(d.verdict.result))});
          changed = true;
          break;
        }
      }
    }
  }
}

// What the stage takes of a cluster's nodes, as its launch asks for it.
Demand demand_of(const plan::Stage& stage) {
  return {stage.needs.nodes, stage.needs.gpus, std::max(stage.processes, 1), stage.benchmark};
}

Launch Run::launch_for(const Slot& slot, const std::vector<std::string>& gpus) const {
  const plan::Stage& stage = *slot.record.stage;
  Launch launch;
  launch.id = stage_key(*slot.record.plan, stage);
  launch.argv = stage.argv;
  launch.cwd = stage_cwd_path(options_.repo_root, stage);
  launch.env = stage.env;
  // Python's faulthandler, so that a hang's SIGABRT (run/stack_dump.h) prints every thread's stack.
  launch.env.try_emplace("PYTHONFAULTHANDLER", "1");
  launch.notes = slot.record.gpu_warnings;
  if (const auto it = launch.env.find("CUDA_VISIBLE_DEVICES"); it != launch.env.end() && it->second && !gpus.empty()) {
    it->second = map_devices(*it->second, gpus);
  }
  if (options_.cluster && stage.needs.gpus > 0) launch.env["CUDA_VISIBLE_DEVICES"] = std::nullopt;  // the cluster's
  const Demand demand = demand_of(stage);
  launch.gpus = demand.gpus;
  launch.nodes = demand.nodes;
  launch.exclusive = demand.exclusive;
  launch.hosts = stage.hosts;
  if (const double timeout = options_.timeouts.for_kind(stage.kind); timeout > 0) {
    launch.time_limit = timeout + options_.timeouts.grace;  // a backstop: tipc-run stops it at the timeout
  }
  launch.log_path = slot.record.log_path;
  // SchedulerOptions::appended_logs: the reference runner appends its train logs (cat >>) and
  // truncates the others (> log).
  launch.append_log = options_.appended_logs.count(stage.kind) > 0;
  launch.processes = stage.processes;
  if (options_.checks) launch.checks = options_.checks(stage);
  if (const std::string& trainer_log = stage.results_log.trainer_log; !trainer_log.empty()) {
    const fs::path file = fs::path(options_.repo_root) / slot.record.plan->run_dir / trainer_log;
    // A trainer log that is the stage's own log (`> train.log`, then `cat train.log >>`) is in it already:
    // appending it to itself would never reach its end.
    if (file.lexically_normal() != fs::path(launch.log_path).lexically_normal()) launch.trainer_log = file.string();
  }
  return launch;
}

bool Run::start(std::size_t index, const std::vector<std::string>& gpus) {
  Slot& slot = slots_[index];
  const plan::Stage& stage = *slot.record.stage;
  slot.record.gpus = gpus;
  slot.record.start_seconds = now();
  if (!gpus_ready_for(index)) return false;
  if (spdlog::should_log(spdlog::level::debug)) {
    spdlog::debug("start {}{}", stage_key(*slot.record.plan, stage),
                  gpus.empty() ? "" : fmt::format(" on GPU {}", fmt::join(gpus, ",")));
  }
  listener_.stage_started(slot.record);
  if (!launch(index)) return false;
  slot.state = State::kRunning;
  ++running_;
  for (const auto& gpu : gpus) ++usage_[gpu];
  sample_gpus();
  if (stage.benchmark) benchmark_running_ = true;
  if (stage.service) {  // it runs as long as its clients do: no timeout of its own, a readiness deadline
    ++services_running_;
    if (stage.service->port) ports_in_use_.insert(*stage.service->port);
    slot.deadline = 0;
    slot.ready_deadline = slot.record.start_seconds + stage.service->ready_timeout;
  }
  return true;
}

// Why a stage could not start. A working directory that cannot be entered is the trace of
// housekeeping that did not happen: the reason names the step that should have made it.
std::string launch_error_text(const Error& error, const plan::Stage& stage) {
  if (!is_working_directory_error(error)) return error.str();
  if (stage.cwd_made_by.empty()) return error.str() + "; no step of the plan makes it";
  return error.str() + "; " + stage.cwd_made_by + " should have made it";
}

// Starts the stage's process (its first try or a retry, on the GPUs it holds) and sets its
// deadline; a stage that cannot be started is finished as UNRESOLVED.
bool Run::launch(std::size_t index) {
  Slot& slot = slots_[index];
  if (auto ok = executor_.start(launch_for(slot, slot.record.gpus)); !ok) {
    slot.record.observation.launch_error = launch_error_text(ok.error(), *slot.record.stage);
    finish(index, classify(slot.record.observation));
    return false;
  }
  slot.record.observation.started = true;
  slot.group = executor_.process_group(key_of(slot));
  slot.attempt_start = now();
  const double timeout = options_.timeouts.for_kind(slot.record.stage->kind);
  slot.record.observation.timeout_seconds = timeout;
  slot.deadline = timeout > 0 ? slot.attempt_start + timeout : 0;
  slot.kill_deadline = 0;
  return true;
}

// --retries: a stage that failed and may run again keeps this try's log and result and runs
// again at once, on the GPUs it holds. False when it ends with this verdict.
bool Run::retry(std::size_t index, const Verdict& verdict) {
  Slot& slot = slots_[index];
  StageRecord& record = slot.record;
  const bool may_retry = !slot.serves() && !stopping_ && is_retryable(verdict.result) &&
                         static_cast<int>(record.attempts.size()) < options_.retries;
  if (!may_retry) return false;
  const std::string kept = attempt_log_path(record.log_path, record.attempts.size() + 1);
  std::error_code ec;
  fs::rename(record.log_path, kept, ec);  // none to keep when the stage wrote no log
  record.attempts.push_back(
      {verdict, slot.attempt_start, now(), kept, record.observation.exit_code, record.observation.signal});
  spdlog::debug("retry {} (attempt {} of {}): {}", stage_key(*record.plan, *record.stage), record.attempts.size() + 1,
                options_.retries + 1, verdict.reason);
  record.observation = Observation{};
  if (options_.gpu_watch && !record.gpus.empty()) {  // on its GPUs once its last try's memory is free
    slot.relaunch_deadline = now() + options_.gpu_watch->options().release_wait;
    slot.deadline = slot.kill_deadline = 0;
    return true;
  }
  launch(index);
  return true;
}

// The result of a stage's last try, and what its earlier tries make of it: a pass after a
// failure is FLAKY; a failure says which try it was.
Verdict Run::final_verdict(const Slot& slot, Verdict verdict) const {
  const auto& attempts = slot.record.attempts;
  if (attempts.empty()) return verdict;
  const std::size_t tries = attempts.size() + 1;
  if (is_passed(verdict.result)) {
    return {Status::kFlaky, fmt::format("passed on attempt {} of {}; attempt 1: {} {}", tries, options_.retries + 1,
                                        to_string(attempts.front().verdict.result), attempts.front().verdict.reason)};
  }
  verdict.reason += fmt::format(" (attempt {} of {})", tries, options_.retries + 1);
  return verdict;
}

// --fail-fast: once a stage failed, every stage that has not started is SKIPPED.
void Run::skip_after_fail_fast() {
  if (first_failure_.empty()) return;
  for (std::size_t i = 0; i < slots_.size(); ++i) {
    if (slots_[i].state == State::kWaiting) {
      finish(i, {Status::kSkipped, fmt::format("not started: --fail-fast after {} failed", first_failure_)});
    }
  }
}

// Done and passed, or a service that is ready and not being stopped.
bool Run::dependency_met(std::size_t dep) const {
  const Slot& d = slots_[dep];
  if (d.state == State::kDone) return is_passed(d.record.verdict.result);
  return d.state == State::kRunning && d.ready && !d.stopping;
}

// In start order; a stage that does not fit now is passed over for later ones that do
// (backfilling). A benchmark stage waits until nothing runs and then runs alone.
// Services do not count against -j: a client must be able to run beside its server. With
// -j 1 (the reference's serial order) nothing starts ahead of a stage that has not ended,
// nor of one that cannot start yet, not even a later server: only a running server stays
// up behind its clients, as the runner's `&` leaves it.
void Run::start_ready() {
  const bool serial = options_.jobs <= 1;
  for (const std::size_t i : order_) {
    if (stopping_ || !first_failure_.empty() || (benchmark_running_ && !options_.cluster)) return;
    const Slot& slot = slots_[i];
    if (serial && slot.state == State::kRunning && !slot.serves()) return;
    if (slot.state != State::kWaiting) continue;
    const StartAttempt attempt = try_start(i);
    if (attempt == StartAttempt::kDrain) return;
    if (serial && (attempt == StartAttempt::kNotNow || !slot.serves())) return;
  }
}

Run::StartAttempt Run::try_start(std::size_t index) {
  const Slot& slot = slots_[index];
  if (!slot.serves() && jobs_busy()) return StartAttempt::kNotNow;
  if (!std::all_of(slot.deps.begin(), slot.deps.end(), [&](std::size_t d) { return dependency_met(d); }) ||
      !std::all_of(slot.after.begin(), slot.after.end(),
                   [&](std::size_t a) { return slots_[a].state == State::kDone; })) {
    return StartAttempt::kNotNow;
  }
  if (const auto port = slot.port(); port && ports_in_use_.count(*port)) return StartAttempt::kNotNow;
  if (options_.cluster) {  // the cluster's executor places it, a benchmark on a machine of its own
    if (!executor_.has_room_for(demand_of(*slot.record.stage))) return StartAttempt::kNotNow;
    start(index, {});
    return StartAttempt::kStarted;
  }
  if (slot.record.stage->benchmark && running_ > services_running_) return StartAttempt::kDrain;  // then alone
  const auto gpus = allocate(options_.resources, usage_, slot.record.stage->needs.gpus);
  if (!gpus) return StartAttempt::kNotNow;
  start(index, *gpus);
  return StartAttempt::kStarted;
}

void Run::handle(const Finished& finished) {
  const auto it = by_id_.find(finished.id);
  if (it == by_id_.end()) return;
  Slot& slot = slots_[it->second];
  Observation& o = slot.record.observation;
  o.exit_code = finished.exit_code;
  o.signal = finished.signal;
  o.log_findings = finished.log_findings;
  slot.record.job_id = finished.job_id;
  o.cluster_failure = finished.cluster_failure;
  slot.record.nodes = finished.nodes;
  o.trainer_log_found = finished.trainer_log_found;  // the executor appended it (run/trainer_log.h)
  // The trainer log was appended after the stage's processes ended: a deadline or an
  // interrupt that came during that copy is not the stage's.
  const double ended = finished.processes_ended ? seconds_since_start(*finished.processes_ended) : now();
  if (o.timed_out && o.idle_seconds == 0 && slot.deadline > ended) o.timed_out = false;
  if (stopping_ && stopped_at_ <= ended && !o.timed_out) o.interrupted = true;
  const Verdict verdict = slot.serves() ? service_verdict(slot) : classify(o);
  if (retry(it->second, verdict)) return;
  finish(it->second, final_verdict(slot, verdict));
}

// A service passes when tipc-run stopped it after its last client (its exit status after the
// SIGTERM is not its fault); it fails when it was not ready in time or ended on its own.
Verdict Run::service_verdict(const Slot& slot) const {
  const Observation& o = slot.record.observation;
  if (o.interrupted) return classify(o);
  if (!slot.service_failure.empty()) return {Status::kFail, slot.service_failure};
  if (slot.stopping) return {Status::kPass, "stopped after its last client"};
  const Verdict ended = classify(o);
  return {Status::kFail, fmt::format("{}: {}", slot.ready ? "ended while its clients ran" : "ended before it was ready",
                                     ended.reason.empty() ? "exit code 0" : ended.reason)};
}

void Run::stop_service(std::size_t index, std::string failure) {
  Slot& slot = slots_[index];
  slot.stopping = true;
  slot.service_failure = std::move(failure);
  slot.kill_deadline = now() + options_.timeouts.grace;
  executor_.signal(stage_key(*slot.record.plan, *slot.record.stage), SIGTERM);
}

// What a service waits for, in words: "port 9393", "a log line matching 'Serving'".
std::string readiness_sign(const plan::Service& service) {
  return service.port ? fmt::format("port {}", *service.port)
                      : fmt::format("a log line matching '{}'", service.ready_pattern);
}

// Probes the services that are not ready yet, and stops those whose clients have all ended.
void Run::poll_services() {
  for (std::size_t i = 0; i < slots_.size(); ++i) {
    Slot& slot = slots_[i];
    if (slot.state != State::kRunning || !slot.serves() || slot.stopping) continue;
    const plan::Service& service = *slot.record.stage->service;
    if (!slot.ready) {
      slot.ready = options_.ready_probe ? options_.ready_probe(service, slot.record.log_path)
                                        : service_ready(service, slot.record.log_path);
      if (!slot.ready && now() >= slot.ready_deadline) {
        stop_service(
            i, fmt::format("not ready within {:g} s (waited for {})", service.ready_timeout, readiness_sign(service)));
      }
      if (!slot.ready) continue;
    }
    if (std::all_of(slot.dependents.begin(), slot.dependents.end(),
                    [&](std::size_t d) { return slots_[d].state == State::kDone; })) {
      stop_service(i, "");
    }
  }
}

// When only ready services run and none of their waiting clients could start, nothing will
// ever free what those clients wait for (a GPU a service holds): the services are stopped as
// failures, and their clients are skipped, instead of a run that never ends.
void Run::stop_services_nobody_can_use() {
  for (std::size_t i = 0; i < slots_.size(); ++i) {
    const Slot& slot = slots_[i];
    if (slot.state == State::kRunning && (!slot.serves() || !slot.ready || slot.stopping)) return;
  }
  for (std::size_t i = 0; i < slots_.size(); ++i) {
    if (slots_[i].state == State::kRunning) {
      stop_service(i, "its clients could not start while it ran (they need resources it holds)");
    }
  }
}

// A timed-out stage's stacks go into its log before it is stopped (Executor::dump_stacks).
void Run::time_out(Slot& slot, double idle_seconds) {
  const std::string id = key_of(slot);
  slot.record.observation.timed_out = true;
  slot.record.observation.idle_seconds = idle_seconds;
  executor_.dump_stacks(id);
  slot.kill_deadline = now() + options_.timeouts.grace;
  executor_.signal(id, SIGTERM);
}

// Timeouts' idle: it printed nothing for that long (a service is quiet while it serves).
bool Run::idle_too_long(const Slot& slot) const {
  if (options_.timeouts.idle <= 0 || slot.serves() || slot.relaunch_deadline > 0) return false;
  const auto last = executor_.last_output(key_of(slot));
  const double since = std::max(slot.attempt_start, last ? seconds_since_start(*last) : 0.0);
  return now() - since >= options_.timeouts.idle;
}

void Run::enforce_deadlines() {
  const double t = now();
  for (auto& slot : slots_) {
    if (slot.state != State::kRunning) continue;
    const bool timed_out = slot.record.observation.timed_out;
    if (!timed_out && slot.deadline > 0 && t >= slot.deadline) {
      time_out(slot, 0);
    } else if (!timed_out && idle_too_long(slot)) {
      time_out(slot, options_.timeouts.idle);
    } else if (slot.kill_deadline > 0 && t >= slot.kill_deadline) {
      slot.kill_deadline = 0;
      executor_.signal(key_of(slot), SIGKILL);
    }
  }
  if (stopping_ && stop_kill_deadline_ > 0 && t >= stop_kill_deadline_) {
    stop_kill_deadline_ = 0;
    for (auto& slot : slots_) {
      if (slot.state == State::kRunning) executor_.signal(key_of(slot), SIGKILL);
    }
  }
}

void Run::stop_everything() {
  stopping_ = true;
  stopped_at_ = now();
  stop_kill_deadline_ = now() + options_.timeouts.grace;
  for (std::size_t i = 0; i < slots_.size(); ++i) {
    Slot& slot = slots_[i];
    if (slot.state != State::kRunning) continue;
    if (slot.relaunch_deadline > 0) {  // a retry that has not started: nothing to stop
      slot.relaunch_deadline = 0;
      slot.record.observation.interrupted = true;
      finish(i, classify(slot.record.observation));
    } else {
      executor_.signal(key_of(slot), SIGTERM);
    }
  }
}

std::optional<double> Run::next_deadline() const {
  std::optional<double> next;
  auto consider = [&](double t) {
    if (t > 0 && (!next || t < *next)) next = t;
  };
  for (const auto& slot : slots_) {
    if (slot.state != State::kRunning) continue;
    consider(slot.kill_deadline);
    if (!slot.record.observation.timed_out) consider(slot.deadline);
    if (slot.serves() && !slot.ready && !slot.stopping)
      consider(std::min(slot.ready_deadline, now() + kReadyPollSeconds));
  }
  if (stopping_) consider(stop_kill_deadline_);
  if (!releasing_.empty() || relaunch_pending()) consider(std::max(next_release_poll_, now() + 0.001));
  return next;
}

RunSummary Run::run() {
  listener_.run_started(info_);
  preflight();
  while (true) {
    const std::size_t finished_before = finished_;
    skip_after_failed_dependencies();
    skip_after_fail_fast();
    if (!stopping_ && interrupted_()) stop_everything();
    poll_releases();
    sample_gpus();
    if (!stopping_) {
      poll_services();
      const std::size_t running_before = running_;
      start_ready();
      if (running_ == running_before && running_ > 0) stop_services_nobody_can_use();
    }
    if (!anything_running()) {
      if (finished_ != finished_before) continue;  // a stage ended without running: its dependents may now be decided
      break;
    }
    const auto deadline = next_deadline();
    // Wake at least once a second so an interrupt flag is noticed even without a signal.
    const double wake = std::min(deadline.value_or(now() + 1), now() + 1);
    const auto until = start_ + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(wake));
    if (const auto finished = executor_.wait(until)) handle(*finished);
    enforce_deadlines();
    listener_.tick(now());
  }
  RunSummary summary;
  summary.interrupted = stopping_;
  for (std::size_t i = 0; i < slots_.size(); ++i) {
    if (slots_[i].state != State::kWaiting) continue;
    slots_[i].record.observation.interrupted = stopping_;
    finish(i, stopping_ ? classify(slots_[i].record.observation)
                        : Verdict{Status::kUnresolved, "could not be scheduled (a dependency cycle?)"});
  }
  for (auto& slot : slots_) summary.stages.push_back(slot.record);
  summary.seconds = now();
  listener_.run_finished(summary);
  return summary;
}

}  // namespace

RunSummary run_stages(const std::vector<const plan::Plan*>& plans, Executor& executor, Listener& listener,
                      const SchedulerOptions& options, const std::function<bool()>& interrupted) {
  return Run(plans, executor, listener, options, interrupted).run();
}

}  // namespace tipc::run
