#include "cli/options.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <limits>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <CLI/CLI.hpp>

#include "cli/subcommand.h"
#include "compat/reference_planning_rules.h"
#include "core/text.h"
#include "core/version.h"
#include "core/vocabulary.h"
#include "run/executor_registry.h"

namespace tipc::cli {
namespace {

// Modes of the Paddle dialects (each dialect file lists its own).
constexpr std::array<std::string_view, 6> kKnownModes{"lite_train_lite_infer",   "lite_train_whole_infer",
                                                      "whole_train_whole_infer", "whole_infer",
                                                      "klquant_whole_infer",     "benchmark_train"};

// `tipc-run MODE CONFIG`: no CONFIG by that name, and it is a mode's name (or the mode names a file).
bool looks_swapped(const Options& o) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::exists(o.config, ec)) return false;
  return std::find(kKnownModes.begin(), kKnownModes.end(), o.config) != kKnownModes.end() || fs::exists(o.mode, ec);
}

// "a,b,c" -> {a, b, c}: each MODE once, none empty.
std::vector<std::string> mode_list(const std::string& text) {
  std::vector<std::string> modes;
  for (const std::string& mode : split(text, ',')) {
    if (mode.empty()) throw CLI::ValidationError("mode", "an empty MODE in the list '" + text + "'");
    if (std::find(modes.begin(), modes.end(), mode) != modes.end()) {
      throw CLI::ValidationError("mode", "MODE '" + mode + "' twice in the list '" + text + "'");
    }
    modes.push_back(mode);
  }
  return modes;
}

// Option values checked in words, where CLI11's own checks print numeric bounds
// ("-j 0": a 309-digit range). Each returns "" when the value is good.
CLI::Validator whole_number_from(int min, const std::string& what) {
  return CLI::Validator(
      [min, what](std::string& value) -> std::string {
        std::size_t used = 0;
        long long n = min - 1;
        try {
          n = std::stoll(value, &used);
        } catch (const std::exception&) {
          used = 0;
        }
        if (!value.empty() && used == value.size() && n >= min && n <= std::numeric_limits<int>::max()) return "";
        return fmt::format("'{}' is not a valid number of {}: a whole number, {} or more", value, what, min);
      },
      fmt::format("INT>={}", min));
}

CLI::Validator seconds() {
  return CLI::Validator(
      [](std::string& value) -> std::string {
        std::size_t used = 0;
        double n = 0;
        try {
          n = std::stod(value, &used);
        } catch (const std::exception&) {
          used = 0;
        }
        if (!value.empty() && used == value.size() && std::isfinite(n) && n > 0) return "";
        return fmt::format("'{}' is not a number of seconds: give one above 0, e.g. 600 or 0.5", value);
      },
      "SECONDS>0");
}

// A check that reuses a parser of stage_selection.h: its error's text, or "".
template <class Parse>
CLI::Validator parsed_by(Parse parse, const std::string& description) {
  return CLI::Validator(
      [parse](std::string& value) -> std::string {
        const auto parsed = parse(value);
        return parsed ? "" : parsed.error().str();
      },
      description);
}

}  // namespace

namespace {

constexpr const char* kExitCodesHelp =
    "Exit codes (the verdict every report prints):\n"
    "  0    PASS: every stage passed, or passed with some UNSUPPORTED (not with --strict); --dry-run, --help\n"
    "  1    FAIL: a stage failed, timed out or is UNRESOLVED (or is UNSUPPORTED with --strict)\n"
    "  2    a usage, config or settings error; in a suite, a config left out as invalid\n"
    "  5    NOTHING RAN: no stage of this run passed or failed (0 with --allow-nothing)\n"
    "  130  INTERRUPTED\n";

// What to plan and how: the config, the mode, the planner and its inputs.
void add_planning_options(CLI::App& app, Options& o) {
  app.add_option("config", o.config, "TIPC config (train_infer_python.txt format), or a directory of them (a suite)")
      ->required();
  app.add_option("mode", o.mode,
                 fmt::format("{}, ...; a comma list runs a directory's configs in each MODE their chain takes; "
                             "none: the settings' modes:",
                             fmt::join(kKnownModes, ", ")));
  app.add_flag("--dry-run", o.dry_run, "print the plan and run nothing");
  app.add_option("--format", o.format, "dry-run output format")->check(CLI::IsMember({"text", "jsonl"}));
  app.add_flag("--compat", o.compat, "reproduce the reference runner exactly, quirks included");
  app.add_option("--dialect", o.dialect, "paddleocr, paddleclas, paddledetection, paddleseg, ... (default: detected)");
  app.add_option_function<std::string>(
         "--plan-from",
         [&o](const std::string& v) {
           o.plan_from = v == "runner" ? PlanFrom::kRunner : v == "dialect" ? PlanFrom::kDialect : PlanFrom::kAuto;
         },
         "runner: trace the repository's own runner; dialect: plan natively; auto (default): the runner of the "
         "config's chain (chains.yaml) when it is in the test_tipc/ above the config, else the chain's planner")
      ->check(CLI::IsMember({"auto", "runner", "dialect"}));
  app.add_option("--runner", o.runner,
                 "the runner script to trace (default: the config's chain's runner in its test_tipc/, chains.yaml)");
  app.add_option("--python", o.python, "interpreter to use instead of the config's python: line");
  app.add_option("--trace-env", o.trace_env,
                 "NAME=VALUE, or NAME for its value here: a variable the traced runner is started with (repeatable; "
                 "settings' trace_env); the plan's stages get it too")
      ->allow_extra_args(false);
  app.add_option("--dialect-dir", o.dialect_dir, "directory of dialect YAML files");
  app.add_option("--repo-root", o.repo_root, "repository root (default: the directory holding test_tipc/)");
  app.add_option("--launcher", o.launcher, "launcher of distributed trains (configs/launchers.yaml), e.g. rank-env");
  app.add_option("--settings", o.settings, "project settings (default: test_tipc/tipc-run.yaml when present)");
}

// Where and how the stages run, and what makes the run pass.
void add_running_options(CLI::App& app, Options& o) {
  app.add_option("-j,--jobs", o.jobs, "stages run at once (default: settings, else the number of CPU cores)")
      ->check(whole_number_from(1, "stages run at once"));
  app.add_option("--gpus", o.gpus,
                 "GPUs to use: indices (0,1,2,3), UUIDs (GPU-...), MIG devices (MIG-...), or none "
                 "(default: CUDA_VISIBLE_DEVICES, NVIDIA_VISIBLE_DEVICES, else what the driver shows)");
  app.add_option("--expect-gpus", o.expect_gpus,
                 "fewer usable GPUs than N is an error before any stage (default: settings)")
      ->check(whole_number_from(1, "GPUs"));
  app.add_option("--resource-spec", o.resource_spec, "GPU resource spec file, YAML or JSON (CTest style)");
  app.add_option("--timeout", o.timeout, "seconds every stage may run (default: per kind, from settings)")
      ->check(seconds());
  app.add_option("--idle-timeout", o.idle_timeout,
                 "a stage that prints nothing for this many seconds ends TIMEOUT (default: settings' timeouts: idle)")
      ->check(seconds());
  app.add_option("--retries", o.retries,
                 "run a stage that FAILs or TIMES OUT again, up to N more times; one that passes then is FLAKY "
                 "(counted as passed, reported apart; each try's log kept as NAME.attemptK.log)")
      ->check(whole_number_from(0, "retries"));
  app.add_flag("-x,--fail-fast", o.fail_fast,
               "start no stage after the first failure (FAIL, TIMEOUT, UNRESOLVED); running stages finish, the rest "
               "are SKIPPED");
  app.add_flag("--strict", o.strict,
               "UNSUPPORTED stages fail the run, and what the cross-check finds in a traced config is an error");
  app.add_flag(
      "--allow-nothing", o.allow_nothing,
      "accept a run in which no stage could run (all UNSUPPORTED or SKIPPED, or none selected): exit 0, not 5");
  app.add_flag("--offline", o.offline,
               "replay no download of a traced runner's setup that is not in the download cache: its setup stage "
               "is UNSUPPORTED with the URL, and the stages after it with it");
  app.add_flag("--no-wait", o.no_wait,
               "when another tipc-run holds an output directory, exit 2 at once instead of waiting for it");
  std::vector<std::string> executors, described;
  for (const run::ExecutorType& type : run::executor_types()) {
    executors.push_back(type.name);
    described.push_back(type.name + " (" + type.description + ")");
  }
  app.add_option("--executor", o.executor, "where stages run: " + join(described, "; "))
      ->check(CLI::IsMember(executors));
  app.add_option("--partition", o.partition, "slurm: the partition (default: settings' slurm.partition)");
  app.add_option("--account", o.account, "slurm: the account (default: settings' slurm.account)");
  app.add_flag("--prepare-script", o.prepare_script, "run the repository's test_tipc/prepare.sh CONFIG MODE first");
  app.add_flag("-q,--quiet", o.quiet, "print only the failures, the recap of what to look at and the verdict");
  app.add_flag("-v,--verbose", o.verbose,
               "explain the scheduler's decisions on stderr: the start order with each stage's estimate, each start");
}

// Which stages run, and what the run leaves besides its reports.
void add_selection_options(CLI::App& app, Options& o) {
  std::vector<std::string> kinds;
  for (const StageKind kind : kAllStageKinds) kinds.emplace_back(to_string(kind));
  app.add_option_function<std::vector<std::string>>(
         "--only",
         [&o](const std::vector<std::string>& words) {
           for (const auto& word : words) o.only.push_back(stage_kind_from_string(word).value());
         },
         "run only these stage kinds: " + known_words(kAllStageKinds))
      ->delimiter(',')
      ->check(CLI::IsMember(kinds));
  app.add_option("-k", o.patterns,
                 "run only the stages this selects; repeatable (any selects). Patterns joined by and, or, not: "
                 "a word matches the stage kind, a whole id segment or whole _-words of a later segment "
                 "(-k train, -k bs1, -k 'infer and not bs1'); a glob matches the whole id (-k '*/gpus_0/*')")
      ->allow_extra_args(false)
      ->check(parsed_by(plan::StageExpression::parse, "EXPRESSION"));
  app.add_option("--exclude", o.excludes,
                 "leave the configs this glob matches out of a directory suite; repeatable (settings' exclude:): "
                 "matched against the path relative to the directory, or the file name when it has no /")
      ->allow_extra_args(false);
  app.add_option_function<std::string>(
         "--shard", [&o](const std::string& v) { o.shard = plan::parse_shard(v).value(); },
         "run the Kth of N shards: whole configs, the N shards together run every config once")
      ->check(parsed_by(plan::parse_shard, "K/N"));
  app.add_flag("--resume", o.resume, "skip stages that passed in the last run with an unchanged command");
  app.add_option("--bundle", o.bundle,
                 "also write the acceptance bundle (reports, logs, check files, configs, settings) to this .tar.gz");
  app.add_option("--history", o.history,
                 "record the run in this run history (default: the settings' history:, else "
                 "test_tipc/output/.tipc-history.sqlite)");
  app.add_flag("--no-history", o.no_history, "do not record the run in the run history");
  app.add_option("--baseline", o.baseline,
                 "compare the run with this one at its end, as tipc-run compare does: a run id of the run history, a "
                 "commit prefix or branch (its latest recorded run), an output directory, or a bundle; exit 6 on a "
                 "failing regression");
  app.add_flag("--bisect", o.bisect,
               "exit as `git bisect run` reads it: 0 good, 1 bad (a stage failed, or a failing regression against "
               "--baseline), 125 this commit cannot be tested (nothing ran, a config, settings or data step error)");
}

// Options that parse one by one but do not go together (CLI11 reports them as it reports its own).
void check_combinations(const Options& o) {
  const bool local_gpus = run::find_executor_type(o.executor)->uses_local_gpus;  // a name --executor checked
  if (local_gpus && (o.partition || o.account)) {
    throw CLI::ValidationError("--partition and --account", "apply to --executor slurm only");
  }
  if (!local_gpus && (o.gpus || o.resource_spec)) {
    throw CLI::ValidationError("--gpus and --resource-spec", "apply to the local executor; the cluster (--executor " +
                                                                 o.executor + ") allocates the GPUs");
  }
  if (o.runner && o.plan_from == PlanFrom::kDialect) {
    throw CLI::ValidationError("--runner", "traces a runner; --plan-from dialect plans without one");
  }
  if (o.no_history && o.history) {
    throw CLI::ValidationError("--no-history", "records nothing; --history names where to record");
  }
  if (looks_swapped(o)) {
    throw CLI::ValidationError("config", fmt::format("no such file or directory: {}; did you mean: tipc-run {} {}?",
                                                     o.config, o.mode, o.config));
  }
}

}  // namespace

Result<Options> with_settings_modes(Options options, const config::ProjectSettings& settings) {
  if (!options.modes.empty()) return options;
  if (settings.modes.empty()) {
    return fail(
        Error::plain(fmt::format("no MODE given: name one (tipc-run {} lite_train_lite_infer), a comma list, "
                                 "or list them in the settings' modes:{}",
                                 options.config, settings.path.empty() ? "" : " (" + settings.path + ")")));
  }
  options.modes = settings.modes;
  options.mode = options.modes.front();
  return options;
}

Result<Options> parse_options(int argc, const char* const* argv) {
  Options o;
  CLI::App app{"tipc-run: runs TIPC train/inference chains and checks their results"};
  app.set_version_flag("--version", std::string("tipc-run ") + kToolVersion);
  app.footer(subcommands_help() + "\n" + kExitCodesHelp);
  add_planning_options(app, o);
  add_running_options(app, o);
  add_selection_options(app, o);
  try {
    app.parse(argc, argv);
    if (!o.mode.empty()) o.modes = mode_list(o.mode);
    o.mode = o.modes.empty() ? "" : o.modes.front();
    check_combinations(o);
    o.rules = &compat::planning_rules(o.compat);
  } catch (const CLI::ParseError& e) {
    std::ostringstream out, err;
    const int code = app.exit(e, out, err);
    Error error = Error::plain(code == 0 ? out.str() : err.str() + out.str());
    error.exit_code = code == 0 ? kExitPassed : kExitUsage;
    return fail(error);
  }
  return o;
}

}  // namespace tipc::cli
