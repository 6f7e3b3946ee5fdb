#include "trace/tracer.h"

#include <algorithm>
#include <atomic>
#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <thread>

#include <fmt/format.h>

#include "core/command.h"
#include "trace/runner_arguments.h"
#include "trace/sandbox.h"
#include "trace/scratch_tree.h"
#include "trace/stand_ins.h"
#include "trace/trace_cache.h"
#include "trace/trace_log.h"

namespace tipc::trace {
namespace fs = std::filesystem;
namespace {

constexpr std::size_t kOutputLimit = 256 * 1024;
constexpr std::uintmax_t kStatusLogLimit = 16 * 1024 * 1024;

using Environment = std::map<std::string, std::string>;

// Variables the shell or the trace itself sets: not the runner's doing.
bool is_bookkeeping(const std::string& name) {
  static const char* const names[] = {"PWD", "OLDPWD", "SHLVL", "_", "BASH_ENV"};
  return name.starts_with("TIPC_TRACE_") || std::find(std::begin(names), std::end(names), name) != std::end(names);
}

// The environment the reference recorded under (docs/reference-runner.md#the-recorded-corpus): emptied, the stand-ins
// first on PATH, a throw-away HOME, LC_ALL=C, CUDA_VISIBLE_DEVICES unset; and the variables
// passed in (request.passed_env), which never replace these (trace_uncached refuses them).
Environment start_environment(const ScratchTree& tree, const TraceRequest& request) {
  Environment start = {{"PATH", tree.bin().string() + ":/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
                       {"HOME", tree.home().string()},
                       {"LC_ALL", "C"},
                       {"TMPDIR", tree.tmp().string()},
                       {"BASH_ENV", tree.bash_env().string()},
                       {"TIPC_TRACE_CALLS", tree.calls_log().string()},
                       {"TIPC_TRACE_EVALS", tree.evals_log().string()},
                       {"TIPC_TRACE_MODEL", request.model_name},
                       {"TIPC_TRACE_REPO", tree.repo().string()},
                       {"TIPC_TRACE_STAND_IN", tree.stand_in().string()},
                       {"TIPC_TRACE_ACTIONS", stand_in_actions()},
                       {"TIPC_TRACE_UNPACK", tree.unpack_script().string()},
                       {"TIPC_TRACE_EVAL", ""}};
  if (request.failing_call) {
    start["TIPC_TRACE_FAIL_CALL"] = std::to_string(*request.failing_call);
    start["TIPC_TRACE_CALL_COUNTER"] = tree.calls_log().string() + ".count";
  }
  start.insert(request.passed_env.begin(), request.passed_env.end());
  return start;
}

// A passed variable counts as a change (the run's stages get it as the runner had it) unless
// the runner unset it.
std::map<std::string, std::optional<std::string>> environment_changes(const std::vector<std::string>& seen,
                                                                      const Environment& start,
                                                                      const PassedEnvironment& passed,
                                                                      const PathMap& map) {
  std::map<std::string, std::optional<std::string>> changes;
  Environment now;
  for (const auto& entry : seen) {
    const auto equals = entry.find('=');
    if (equals != std::string::npos) now[entry.substr(0, equals)] = entry.substr(equals + 1);
  }
  for (const auto& [name, value] : now) {
    const auto before = passed.contains(name) ? start.end() : start.find(name);
    if (!is_bookkeeping(name) && (before == start.end() || before->second != value)) changes[name] = map.text(value);
  }
  for (const auto& [name, value] : start) {
    if (!is_bookkeeping(name) && !now.contains(name)) changes[name] = std::nullopt;
  }
  return changes;
}

Error runner_error(const TraceRequest& request, const std::string& what, const std::string& stderr_text) {
  auto message = fmt::format("the runner {} {}", request.runner, what);
  if (!stderr_text.empty()) message += "; its stderr:\n" + stderr_text;
  return Error::at((fs::path(request.repo_root) / request.runner).string(), 0, "", message);
}

// Files the runner wrote with status lines (results_python.log and its siblings), read as the
// repository copy is swept away: the last look at it.
std::vector<StatusLog> status_logs(const ScratchTree& tree, const RepoInputs& inputs, const PathMap& map) {
  std::vector<StatusLog> logs;
  tree.sweep_repo([&](const std::string& relative) {
    if (inputs.files.contains(relative)) return;
    const auto bytes = read_runner_file((tree.repo() / relative).string(), kStatusLogLimit);
    if (!bytes) return;
    const std::string& text = *bytes;
    if (text.find("Run successfully with command") == std::string::npos &&
        text.find("Run failed with command") == std::string::npos) {
      return;
    }
    logs.push_back({relative, map.text(text)});
  });
  std::sort(logs.begin(), logs.end(), [](const auto& a, const auto& b) { return a.path < b.path; });
  return logs;
}

// A program the runner started in the background (`eval "$cmd &"`) may record itself after
// the next command has: the calls are in the order the stand-ins ran, the evaluated strings
// in the order the runner evaluated them. Calls under evaluated strings take their strings'
// order, in the places such calls hold (a call outside any stays where it is).
void order_calls_by_their_evals(std::vector<TracedCall>& calls) {
  std::vector<std::size_t> places;
  std::vector<TracedCall> evaluated;
  for (std::size_t i = 0; i < calls.size(); ++i) {
    if (calls[i].eval_index == kNoEval) continue;
    places.push_back(i);
    evaluated.push_back(std::move(calls[i]));
  }
  std::stable_sort(evaluated.begin(), evaluated.end(),
                   [](const TracedCall& a, const TracedCall& b) { return a.eval_index < b.eval_index; });
  for (std::size_t k = 0; k < places.size(); ++k) calls[places[k]] = std::move(evaluated[k]);
}

// By name, as found on PATH; a program started by its path (an absolute interpreter bound
// over by the stand-in, a built binary it was put in place of) keeps that path.
TracedCall traced_call(const RawCall& raw, const Environment& start, const PassedEnvironment& passed,
                       const PathMap& map) {
  TracedCall call;
  call.program = map.text(raw.program);
  call.cwd = map.directory(raw.cwd);
  call.env = environment_changes(raw.environment, start, passed, map);
  call.stdout_path = map.target(raw.stdout_target);
  call.stderr_path = map.target(raw.stderr_target);
  call.stdin_from_pipe = raw.stdin_target.starts_with("pipe:");
  for (const auto& arg : raw.args) call.args.push_back(map.text(arg));
  return call;
}

// The file a `tee` call writes: its first argument that is not an option, as an absolute
// path of the scratch tree; "" when it writes none (`| tee` to the terminal).
std::string tee_file(const RawCall& tee) {
  for (const auto& arg : tee.args) {
    if (arg.empty() || (arg.starts_with("-") && arg != "-")) continue;
    return (fs::path(tee.cwd) / arg).lexically_normal().string();  // an absolute arg replaces cwd
  }
  return "";
}

// A program whose output the runner piped into `tee` (`python x.py 2>&1 | tee -a LOG`)
// wrote LOG: its descriptors that point at that pipe point at LOG instead, as they would for
// `> LOG 2>&1`. The tee reading that pipe is the nearest record whose standard input it is
// (both ends are open at once; the number of a closed pipe may be used again later).
void follow_pipes_into_tee(std::vector<RawCall>& calls) {
  for (std::size_t i = 0; i < calls.size(); ++i) {
    RawCall& call = calls[i];
    if (call.housekeeping || !call.stdout_target.starts_with("pipe:")) continue;
    std::optional<std::size_t> tee;
    for (std::size_t j = 0; j < calls.size(); ++j) {
      const bool reads_it =
          calls[j].housekeeping && writes_a_log(calls[j].program) && calls[j].stdin_target == call.stdout_target;
      const auto distance = [i](std::size_t k) { return k > i ? k - i : i - k; };
      if (reads_it && (!tee || distance(j) < distance(*tee))) tee = j;
    }
    const std::string file = tee ? tee_file(calls[*tee]) : "";
    if (file.empty()) continue;
    if (call.stderr_target == call.stdout_target) call.stderr_target = file;
    call.stdout_target = file;
  }
}

Result<Trace> collect_trace(const TraceRequest& request, const ScratchTree& tree, const RepoInputs& inputs,
                            const Environment& start) {
  const PathMap map(tree.repo().string(), request.repo_root);
  const auto evals = TRY(read_evals(tree.evals_log().string()));
  auto calls = TRY(read_calls(tree.calls_log().string()));
  follow_pipes_into_tee(calls);
  Trace trace;
  trace.runner = request.runner;
  trace.run_dir = request.run_dir;
  trace.config_arg = request.config_arg;
  trace.mode = request.mode;
  trace.extra_args = request.extra_args;
  std::map<std::string, std::size_t> eval_index;
  for (const auto& eval : evals) {
    eval_index.emplace(eval.token, trace.evals.size());
    trace.evals.push_back(map.text(eval.text));
  }
  for (const auto& raw : calls) {
    if (raw.housekeeping && writes_a_log(raw.program)) continue;  // its file is its writer's log
    TracedCall call = traced_call(raw, start, request.passed_env, map);
    if (const auto found = eval_index.find(raw.eval_token); found != eval_index.end()) call.eval_index = found->second;
    if (raw.housekeeping) {
      trace.housekeeping.push_back({std::move(call), trace.calls.size()});
    } else {
      trace.calls.push_back(std::move(call));
    }
  }
  order_calls_by_their_evals(trace.calls);
  trace.status_logs = status_logs(tree, inputs, map);
  return trace;
}

// A config's interpreter named by an absolute path (`python:/opt/conda/bin/python`) is not
// found through PATH, so the stand-in goes over that file inside the sandbox. Without
// bubblewrap, or where the file does not exist, that cannot be done, and the trace would run
// the real interpreter: refused.
Result<std::vector<FileBind>> interpreter_binds(const TraceRequest& request, const Sandbox& sandbox) {
  if (!request.interpreter.starts_with("/")) return std::vector<FileBind>{};
  const std::string why = !sandbox.bwrap
                              ? "only bubblewrap can put the stand-in there, and it is not used: " + sandbox.warning
                          : !fs::is_regular_file(request.interpreter) ? "it does not exist on this machine"
                                                                      : "";
  if (why.empty()) return std::vector<FileBind>{{stand_in_binary(), request.interpreter}};
  const fs::path config = fs::path(request.repo_root) / request.run_dir / request.config_arg;
  return fail(Error::at(config.lexically_normal().string(), 0, "python",
                        fmt::format("the interpreter is the absolute path {}, which the trace must replace by its "
                                    "stand-in, but {}; name it by its command name (e.g. python3) or plan with "
                                    "--plan-from dialect",
                                    request.interpreter, why)));
}

// A passed variable the trace cannot take (trace/passed_env.h) is an error naming it: cli
// refuses it earlier with where it was given; this keeps the promise for every caller.
Result<void> check_passed_env(const TraceRequest& request) {
  for (const auto& [name, value] : request.passed_env) {
    if (const auto why = passed_variable_refusal(name)) {
      return fail(Error::plain(fmt::format("the variable {} cannot be passed into the trace: {}", name, *why)));
    }
  }
  return {};
}

Result<Trace> trace_uncached(const TraceRequest& request, const RepoInputs& inputs) {
  TRY(check_passed_env(request));
  const auto sandbox = TRY(choose_sandbox(request.isolation));
  auto binds = TRY(interpreter_binds(request, sandbox));
  const auto user = sandbox_user(sandbox);
  const auto tree = TRY(ScratchTree::create(inputs, request.interpreter, user, sandbox.bwrap));
  for (auto& bind : binds) bind.source = tree->stand_in().string();  // each so far puts it over an interpreter
  const auto start = start_environment(*tree, request);
  CommandSpec spec;
  spec.cwd = (tree->repo() / request.run_dir).lexically_normal().string();
  spec.environment.emplace();
  for (const auto& [name, value] : start) spec.environment->push_back(name + "=" + value);
  std::vector<std::string> argv = {"bash", fs::path(request.runner).lexically_relative(request.run_dir).string(),
                                   request.config_arg};
  const auto runner_text = inputs.files.find(fs::path(request.runner).lexically_normal().generic_string());
  if (runner_text == inputs.files.end() || takes_mode_argument(runner_text->second)) argv.push_back(request.mode);
  argv.insert(argv.end(), request.extra_args.begin(), request.extra_args.end());
  spec.argv = sandboxed_argv(sandbox, tree->root().string(), argv, binds);
  spec.run_as = user;
  spec.timeout_seconds = request.timeout_seconds;
  spec.separate_stderr = true;
  spec.output_limit = kOutputLimit;
  const auto outcome = run_command(spec);
  const PathMap map(tree->repo().string(), request.repo_root);
  const std::string stderr_text = map.text(outcome.error_output);
  if (!outcome.launch_error.empty()) return fail(runner_error(request, "could not start: " + outcome.launch_error, ""));
  if (outcome.timed_out) {
    return fail(runner_error(
        request, fmt::format("did not finish within {} s and was stopped", request.timeout_seconds), stderr_text));
  }
  if (outcome.exit_code != 0) {
    const auto how =
        outcome.exit_code ? fmt::format("exited with status {}", *outcome.exit_code) : "was killed by a signal";
    return fail(runner_error(request, how, stderr_text));
  }
  auto trace = TRY(collect_trace(request, *tree, inputs, start));
  trace.stderr_text = stderr_text;
  if (!sandbox.warning.empty()) trace.warnings.push_back(sandbox.warning);
  return trace;
}

Result<Trace> trace_with(const TraceRequest& request, std::vector<std::string> directories) {
  const auto inputs = TRY(collect_inputs(request, std::move(directories)));
  if (request.cache_dir.empty()) return trace_uncached(request, inputs);
  const std::string key = trace_cache_key(request, inputs);
  if (auto cached = load_cached_trace(request.cache_dir, key)) return std::move(*cached);
  const CacheClaim claim(request.cache_dir, key);
  if (auto cached = load_cached_trace(request.cache_dir, key)) return std::move(*cached);  // made while we waited
  auto trace = trace_uncached(request, inputs);
  if (trace) store_cached_trace(request.cache_dir, key, *trace);
  return trace;
}

}  // namespace

Result<Trace> trace_runner(const TraceRequest& request) {
  return trace_with(request, shadow_directories(request.repo_root));
}

std::vector<Result<Trace>> trace_each_call_failing(const TraceRequest& request, std::size_t calls, int jobs) {
  std::vector<TraceRequest> probes(calls, request);
  for (std::size_t n = 0; n < calls; ++n) probes[n].failing_call = n;
  return trace_runners(probes, jobs);
}

int trace_jobs(std::optional<int> given, unsigned cores, std::optional<std::uint64_t> available_bytes) {
  std::uint64_t jobs = given && *given > 0 ? static_cast<std::uint64_t>(*given) : 2ull * std::max(1u, cores);
  if (available_bytes) jobs = std::min(jobs, *available_bytes / kTraceMemoryBytes);
  return static_cast<int>(std::max<std::uint64_t>(jobs, 1));
}

int trace_jobs(std::optional<int> given) {
  std::optional<std::uint64_t> available;
  std::ifstream meminfo("/proc/meminfo");
  for (std::string line; std::getline(meminfo, line);) {
    std::uint64_t kilobytes = 0;
    if (std::sscanf(line.c_str(), "MemAvailable: %" SCNu64 " kB", &kilobytes) == 1) available = kilobytes * 1024;
  }
  return trace_jobs(given, std::thread::hardware_concurrency(), available);
}

std::vector<Result<Trace>> trace_runners(const std::vector<TraceRequest>& requests, int jobs) {
  std::map<std::string, std::vector<std::string>> directories;  // one walk a repository
  for (const auto& request : requests) {
    if (!directories.contains(request.repo_root))
      directories[request.repo_root] = shadow_directories(request.repo_root);
  }
  std::vector<std::optional<Result<Trace>>> results(requests.size());
  std::atomic<std::size_t> next{0};
  const auto work = [&] {
    for (std::size_t i = next++; i < requests.size(); i = next++) {
      results[i] = trace_with(requests[i], directories.at(requests[i].repo_root));
    }
  };
  std::vector<std::thread> threads;
  for (int t = 1; t < std::max(jobs, 1); ++t) threads.emplace_back(work);
  work();
  for (auto& thread : threads) thread.join();
  std::vector<Result<Trace>> out;
  for (auto& result : results) out.push_back(std::move(*result));
  return out;
}

}  // namespace tipc::trace
