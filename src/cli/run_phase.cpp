#include "cli/run_phase.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <set>
#include <thread>

#include <fmt/format.h>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include "cli/run_exit_code.h"
#include "compat/run_semantics.h"
#include "core/command.h"
#include "core/plural.h"
#include "data/extract.h"
#include "history/run_recording.h"
#include "report/check_events.h"
#include "report/console_reporter.h"
#include "report/environment_probe.h"
#include "report/report_writer.h"
#include "run/executor_registry.h"
#include "run/journal.h"
#include "run/output_lock.h"
#include "run/prepare_scripts.h"
#include "run/process_executor.h"
#include "run/scheduler.h"

namespace tipc::cli {
namespace fs = std::filesystem;
namespace {

// One data step of the settings, unpacked unless its stamp says it is up to date.
Result<void> prepare_step(const Project& project, const config::DataStepSetting& step) {
  const data::DataStep data_step{(fs::path(project.root) / step.archive).string(),
                                 (fs::path(project.root) / step.destination).string(), step.creates};
  auto report = TRY(data::prepare_data(data_step));
  std::cout << fmt::format(
      "tipc-run: data {} -> {}/{}: {}\n", step.archive, step.destination, step.creates,
      report.skipped
          ? (report.hashed ? "up to date (same SHA-256)" : "up to date (archive unchanged since its stamp)")
          : fmt::format("extracted {}, {}", plural(report.entries, "entry", "entries"), plural(report.bytes, "byte")));
  return {};
}

// The data steps of every MODE of the run, each step once (MODEs share most of them).
Result<void> prepare_data(const Project& project, const std::vector<std::string>& modes) {
  std::set<std::string> done;
  for (const auto& mode : modes) {
    for (const auto& step : project.settings.data_for(mode)) {
      if (done.insert(step.archive + '\n' + step.destination + '\n' + step.creates).second)
        TRY(prepare_step(project, step));
    }
  }
  return {};
}

run::Timeouts timeouts_for(const Project& project, const Options& options) {
  run::Timeouts t;
  t.by_kind = project.settings.timeouts;
  t.all = options.timeout;
  t.grace = project.settings.grace;
  t.idle = options.idle_timeout.value_or(project.settings.idle_timeout);
  return t;
}

std::vector<run::LogPattern> checks_for(const Project& project, const plan::Stage& stage) {
  auto patterns = run::default_log_patterns(stage.kind == plan::StageKind::kTrain);
  for (const auto& check : project.settings.log_checks) {
    const bool applies =
        check.kinds.empty() || std::find(check.kinds.begin(), check.kinds.end(), stage.kind) != check.kinds.end();
    if (applies) patterns.push_back({check.name, std::regex(check.pattern), ""});
  }
  return patterns;
}

}  // namespace

Result<run::ResourceSpec> resources_for(const Options& options, const run::GpuInventory& inventory) {
  if (options.resource_spec) return run::load_resource_spec(*options.resource_spec, inventory);
  if (options.gpus) return run::parse_gpu_list(*options.gpus, inventory);
  auto variable = [](const char* name) {
    const char* value = std::getenv(name);
    return value ? std::optional<std::string>(value) : std::nullopt;
  };
  return run::detect_gpus({variable("CUDA_VISIBLE_DEVICES"), variable("NVIDIA_VISIBLE_DEVICES")}, inventory);
}

namespace {

// What the executor is built from: the command line over the settings.
run::ExecutorSettings executor_settings(const Project& project, const Options& options) {
  const config::SlurmSetting& setting = project.settings.slurm;
  return {{options.partition ? options.partition : setting.partition,
           options.account ? options.account : setting.account, setting.cpus_per_task, setting.srun_args},
          setting.tipc_run_places,
          [](const auto& argv) { return run_command(argv); }};
}

// The machine's GPUs as the driver shows them (NVML, else nvidia-smi; none without a driver)
// and the watch over them that the scheduler asks (run/gpu_watch.h).
struct LocalGpus {
  std::unique_ptr<run::GpuDriver> driver;
  std::optional<run::GpuWatch> watch;
};

// Where the stages go: GPUs of this machine, as many as --expect-gpus asks; or what the
// executor's cluster offers (its nodes, on which the executor may place the stages).
Result<void> place_stages(const Options& options, const Project& project, const run::ExecutorType& executor,
                          const run::ExecutorSettings& settings, run::SchedulerOptions& scheduler, LocalGpus& local) {
  const std::optional<int> expected = options.expect_gpus ? options.expect_gpus : project.settings.gpus.expect;
  if (executor.uses_local_gpus) {
    local.driver = run::open_gpu_driver([](const auto& argv) { return run_command(argv); });
    const run::GpuInventory inventory = local.driver ? local.driver->inventory() : run::GpuInventory{};
    scheduler.resources = TRY(resources_for(options, inventory));
    if (expected) TRY(run::expect_gpus(scheduler.resources, *expected));
    if (local.driver && !scheduler.resources.gpus.empty()) {
      const config::GpuSetting& gpus = project.settings.gpus;
      local.watch.emplace(*local.driver, scheduler.resources,
                          run::GpuWatchOptions{gpus.release_wait, gpus.exclusive, 1});
      scheduler.gpu_watch = &*local.watch;
    }
    return {};
  }
  auto cluster = TRY(executor.capacity(settings));
  scheduler.cluster = cluster;
  scheduler.resources.source = fmt::format("{}: {}, up to {} per node", cluster.source, plural(cluster.nodes, "node"),
                                           plural(cluster.max_gpus_per_node, "GPU"));
  if (expected) TRY(expect_cluster_gpus(cluster, *expected));
  return {};
}

// The run's debug log (spdlog's default logger, off unless --verbose): stderr, one
// "tipc-run: " line per message, next to the console's stdout; through std::cerr, so that
// its stage ids and commands are shown as visible text (cli/visible_console.h).
void set_up_debug_log(bool verbose) {
  auto logger =
      std::make_shared<spdlog::logger>("tipc-run", std::make_shared<spdlog::sinks::ostream_sink_st>(std::cerr));
  logger->set_pattern("tipc-run: %v");
  logger->set_level(verbose ? spdlog::level::debug : spdlog::level::off);
  spdlog::set_default_logger(logger);
}

// The verdict's exit code where the semantics say the verdict (else the reference's 0, but 2
// for a config left out: compat/run_semantics.h), except that a run whose journal, plan file,
// results log or --bundle could not be written does not pass: 0 becomes 1. The verdict is the
// reports' (the whole plan's, as every report prints it); the run's own when no reports
// could be written.
int exit_code(const run::RunSummary& summary, const std::optional<report::RunReport>& report,
              const std::vector<const std::string*>& write_errors, const Options& options, bool says_verdict,
              run::ConfigCount configs) {
  const run::RunVerdict verdict = report ? report->verdict() : summary.verdict(configs);
  int code = summary.interrupted ? kExitInterrupted : configs.invalid > 0 ? kExitUsage : kExitPassed;
  if (says_verdict) {
    const run::VerdictRules rules{options.strict, options.allow_nothing};
    std::cout << report::verdict_line(verdict, rules) << '\n';
    code = verdict.exit_code(rules);
  }
  std::vector<std::string> unwritten;
  for (const std::string* error : write_errors) {
    if (!error->empty()) unwritten.push_back(*error);
  }
  if (unwritten.empty()) return code;
  std::cerr << fmt::format("tipc-run: error: this run's results were not all recorded: {}\n",
                           fmt::join(unwritten, "; "));
  return code == kExitPassed ? kExitFailed : code;
}

Result<run::OutputLocks> lock_outputs(const std::vector<plan::Plan>& plans, const Project& project,
                                      const Options& options) {
  std::vector<std::string> dirs;
  for (const auto& plan : plans) dirs.push_back(run::plan_output_path(project.root, plan));
  const auto waiting = [](const std::string& line) { std::cerr << "tipc-run: " << line << std::endl; };
  return run::lock_output_dirs(dirs, {!options.no_wait, waiting});
}

// How the scheduler runs the stages: -j, timeouts, retries, the semantics' logs and launches, log checks.
void set_scheduling(const Project& project, const Options& options, const compat::RunSemantics& semantics,
                    const run::ExecutorType& executor, const run::ExecutorSettings& settings,
                    run::SchedulerOptions& scheduler) {
  const int default_jobs = executor.default_jobs(settings, scheduler.cluster);
  scheduler.jobs = options.jobs.value_or(project.settings.jobs.value_or(default_jobs));
  scheduler.timeouts = timeouts_for(project, options);
  scheduler.retries = options.retries;
  scheduler.fail_fast = options.fail_fast;
  scheduler.repo_root = project.root;
  scheduler.appended_logs = semantics.appended_logs;
  scheduler.multi_node_here = semantics.multi_node_here;
  scheduler.checks = [&project](const plan::Stage& stage) { return checks_for(project, stage); };
}

// --prepare-script: each config's test_tipc/prepare.sh before any stage, with --timeout.
Result<void> run_prepare_scripts(const std::vector<plan::Plan>& plans, const Project& project, const Options& options,
                                 run::Executor& local, const run::SignalWatch& signals) {
  if (!options.prepare_script) return {};
  run::SchedulerOptions prepare;
  prepare.repo_root = project.root;
  prepare.timeouts.all = options.timeout;
  prepare.timeouts.grace = project.settings.grace;
  return run::run_prepare_scripts(plans, local, prepare, [&] { return signals.interrupted(); });
}

// What the journals and times files say of the earlier runs: the stages --resume keeps, the
// estimates of the start order.
Result<void> read_earlier_runs(const std::string& repo_root, bool resume, const std::vector<const plan::Plan*>& plans,
                               run::SchedulerOptions& scheduler) {
  if (resume) scheduler.resumed = TRY(run::passed_in_journal(repo_root, plans));
  scheduler.history = TRY(run::recorded_durations(repo_root, plans));
  return {};
}

}  // namespace

int run_plans(const std::vector<plan::Plan>& plans, const std::vector<plan::Plan>& whole_plans, const Project& project,
              const Options& options, const run::ConfigsLeftOut& left_out, run::ConfigCount configs) {
  set_up_debug_log(options.verbose);
  // Before anything is written: another run on these output directories finishes first.
  const auto locks = lock_outputs(plans, project, options);
  if (!locks) return report_error(locks.error());
  if (auto ok = prepare_data(project, options.modes); !ok) return report_error(ok.error());
  run::SchedulerOptions scheduler;
  const run::ExecutorType& executor_type = *run::find_executor_type(options.executor);  // a name --executor checked
  const run::ExecutorSettings executor_inputs = executor_settings(project, options);
  LocalGpus gpus;
  if (auto ok = place_stages(options, project, executor_type, executor_inputs, scheduler, gpus); !ok) {
    return report_error(ok.error());
  }

  run::SignalWatch& signals = run::SignalWatch::install();
  run::ProcessExecutor local(signals);
  if (auto ok = run_prepare_scripts(plans, project, options, local, signals); !ok) return report_error(ok.error());
  const std::unique_ptr<run::Executor> made = executor_type.make(local, executor_inputs, scheduler.cluster);
  run::Executor& executor = made ? *made : local;

  const compat::RunSemantics semantics = compat::run_semantics(options.compat, project.root, options.resume);
  set_scheduling(project, options, semantics, executor_type, executor_inputs, scheduler);
  std::vector<const plan::Plan*> pointers, whole_pointers;
  for (const auto& plan : plans) pointers.push_back(&plan);
  for (const auto& plan : whole_plans) whole_pointers.push_back(&plan);
  if (auto ok = read_earlier_runs(project.root, options.resume, pointers, scheduler); !ok)
    return report_error(ok.error());

  report::ConsoleReporter console(stdout, report::ConsoleStyle::detect(STDOUT_FILENO, options.quiet));
  const std::string settings_file =
      project.settings.path.empty() ? "" : fs::absolute(project.settings.path).lexically_normal().string();
  report::ReportWriter reports(
      {project.root, options.resume, settings_file, project.dialect_choice.source, left_out, whole_pointers},
      options.bundle, std::cout);
  reports.set_environment(report::probe_environment(report::environment_inputs(project.root, plans, options.python)));
  run::MultiListener listeners;
  listeners.add(console);
  listeners.add(*semantics.results_log);
  listeners.add(reports);
  report::CheckEventSource events(project.root, listeners, console);  // the console prints a failed check's values
  const auto summary = run::run_stages(pointers, executor, events, scheduler, [&] { return signals.interrupted(); });
  // Before the verdict, which stays the last line, and which the comparison with the baseline is part of.
  std::optional<report::RunReport> judged = reports.report();
  const history::RecordingRequest recording{options.history, options.no_history, options.baseline, options.bundle};
  const int gated =
      history::record_and_compare(judged, recording, project.settings, project.root, std::cout, std::cerr);
  const std::vector<const std::string*> write_errors = {&reports.state_error(), &semantics.results_log->write_error(),
                                                        &reports.bundle_error()};
  const int code = exit_code(summary, judged, write_errors, options, semantics.says_verdict, configs);
  return gated_exit_code(code, gated, std::cout);
}

}  // namespace tipc::cli
