#include "run/journal.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>

#include <fmt/format.h>

#include "core/atomic_file.h"
#include "core/json_file.h"
#include "core/unique_fd.h"
#include "plan/plan_json.h"
#include "run/scheduler.h"

namespace tipc::run {
namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

std::string stage_fingerprint(const plan::Stage& stage) {
  std::uint64_t hash = 1469598103934665603ull;  // FNV-1a: stable across builds and machines
  auto mix = [&](const std::string& text) {
    for (unsigned char c : text) hash = (hash ^ c) * 1099511628211ull;
    hash = (hash ^ 0xff) * 1099511628211ull;  // separator
  };
  for (const auto& word : stage.argv) mix(word);
  mix(stage.cwd);
  for (const auto& [name, value] : stage.env) mix(name + "=" + value.value_or("<unset>"));
  return fmt::format("{:016x}", hash);
}

std::string plan_output_path(const std::string& repo_root, const plan::Plan& plan) {
  return (fs::path(repo_root) / plan.run_dir / plan.output_dir).lexically_normal().string();
}

std::string journal_path(const std::string& repo_root, const plan::Plan& plan) {
  return (fs::path(plan_output_path(repo_root, plan)) / kJournalFileName).string();
}

std::string plan_file_path(const std::string& repo_root, const plan::Plan& plan) {
  return (fs::path(plan_output_path(repo_root, plan)) / kPlanFileName).string();
}

std::vector<nlohmann::json> read_journal(const std::string& path) {
  std::vector<nlohmann::json> lines;
  nlohmann::json run_id = nullptr, run_started = nullptr;  // of the last "run started" line
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    auto entry = nlohmann::json::parse(line, nullptr, false);
    if (entry.is_discarded() || !entry.is_object()) continue;
    if (entry.value("run", "") == "started") {
      run_id = entry.value("run_id", nlohmann::json(nullptr));
      run_started = entry.value("started", nlohmann::json(nullptr));
    } else if (!entry.contains("run_id")) {
      entry["run_id"] = run_id;
      if (entry.contains("stage")) entry["run_started"] = run_started;
    }
    lines.push_back(std::move(entry));
  }
  return lines;
}

namespace {

// Each stage's last journal entry that `counts`, by stage id (a run's own lines come last).
template <typename Counts>
std::map<std::string, nlohmann::json> last_entries(const std::string& path, Counts counts) {
  std::map<std::string, nlohmann::json> last;
  for (auto& entry : read_journal(path)) {
    if (!entry.contains("stage") || !entry["stage"].is_string() || !counts(entry)) continue;
    const std::string id = entry["stage"];
    last[id] = std::move(entry);
  }
  return last;
}

}  // namespace

std::set<std::string> passed_in_journal(const std::string& repo_root, const std::vector<const plan::Plan*>& plans) {
  std::set<std::string> passed;
  for (const auto* plan : plans) {
    const auto last = last_entries(journal_path(repo_root, *plan), [](const nlohmann::json&) { return true; });
    for (const auto& stage : plan->stages) {
      const auto it = last.find(stage.id);
      const auto result = status_from_string(it == last.end() ? "" : it->second.value("result", ""));
      if (result && is_passed(*result) &&
          it->second.value("fingerprint", "") == stage_fingerprint(stage)) {
        passed.insert(stage_key(*plan, stage));
      }
    }
  }
  return passed;
}

std::string times_file_path(const std::string& repo_root, const plan::Plan& plan) {
  return (fs::path(plan_output_path(repo_root, plan)) / kTimesFileName).string();
}

namespace {

// Stage id -> seconds: the times file of the plan's output directory, with the journal's
// times over it (they are newer). Stages no longer planned keep their time.
std::map<std::string, double> durations_by_id(const std::string& repo_root, const plan::Plan& plan) {
  std::map<std::string, double> seconds;
  std::ifstream in(times_file_path(repo_root, plan));
  const auto recorded = nlohmann::json::parse(in, nullptr, false);
  const auto schema = recorded.is_object() ? recorded.find("schema") : recorded.end();
  if (schema != recorded.end() && schema->is_number_integer() && *schema == kStateSchema &&
      recorded.contains("seconds") && recorded["seconds"].is_object()) {
    for (const auto& [id, value] : recorded["seconds"].items()) {
      if (value.is_number() && value.get<double>() >= 0) seconds[id] = value.get<double>();
    }
  }
  // A stage an interrupt stopped (SKIPPED after it started) ran for less than it takes.
  const auto ran = [](const nlohmann::json& entry) {
    return entry.contains("started") && !entry["started"].is_null() && entry.value("result", "") != "SKIPPED" &&
           entry.contains("seconds") && entry["seconds"].is_number() && entry["seconds"].get<double>() >= 0;
  };
  for (const auto& [id, entry] : last_entries(journal_path(repo_root, plan), ran)) seconds[id] = entry["seconds"];
  return seconds;
}

}  // namespace

std::map<std::string, double> recorded_durations(const std::string& repo_root,
                                                 const std::vector<const plan::Plan*>& plans) {
  std::map<std::string, double> seconds;
  for (const auto* plan : plans) {
    const auto by_id = durations_by_id(repo_root, *plan);
    for (const auto& stage : plan->stages) {
      if (const auto it = by_id.find(stage.id); it != by_id.end()) seconds[stage_key(*plan, stage)] = it->second;
    }
  }
  return seconds;
}

void compact_journal(const std::string& path) {
  std::error_code ec;
  if (!fs::exists(path, ec)) return;
  const auto lines = read_journal(path);
  std::map<std::string, std::size_t> last;  // stage id -> index of its last line
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].contains("stage") && lines[i]["stage"].is_string()) last[lines[i]["stage"]] = i;
  }
  std::vector<std::size_t> kept;
  for (const auto& [id, index] : last) kept.push_back(index);
  std::sort(kept.begin(), kept.end());
  std::string text;
  for (const std::size_t i : kept) text += lines[i].dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  // A journal that cannot be rewritten is appended to as it is: nothing is lost but space.
  if (auto written = write_file_atomically(path, text); !written) {
    std::cerr << "tipc-run: warning: " << written.error().str() << '\n';
  }
}

namespace {

double unix_now() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

Json optional_json(const auto& value) { return value ? Json(*value) : Json(nullptr); }

// True when the file ends in the middle of a line (a crash cut its last write).
bool ends_mid_line(int fd) {
  struct stat info {};
  char last = '\n';
  return fstat(fd, &info) == 0 && info.st_size > 0 && pread(fd, &last, 1, info.st_size - 1) == 1 && last != '\n';
}

// One O_APPEND write per line: a crash leaves at most one cut line, which readers skip.
// A line after a cut one starts on a line of its own (--resume appends to the journal).
// No fsync: a killed tipc-run loses nothing the kernel already has, and a line lost to a
// power cut only makes --resume run that stage again; an fsync per stage cost the
// scheduler's thread 0.5 s in a 200-stage suite (bench/RESULTS.md).
// A failure says "cannot write PATH: REASON".
Result<void> append_line(const std::string& path, const Json& entry) {
  std::string line = entry.dump(-1, ' ', false, Json::error_handler_t::replace) + "\n";
  const UniqueFd fd(open(path.c_str(), O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0644));
  if (!fd.valid()) return fail(Error::plain(fmt::format("cannot write {}: {}", path, errno_text(errno))));
  if (ends_mid_line(fd.get())) line.insert(0, "\n");
  const ssize_t n = write(fd.get(), line.data(), line.size());
  if (n < 0) return fail(Error::plain(fmt::format("cannot write {}: {}", path, errno_text(errno))));
  if (static_cast<std::size_t>(n) < line.size()) {
    return fail(Error::plain(fmt::format("cannot write {}: only {} of {} bytes written", path, n, line.size())));
  }
  return {};
}

// The plan file's stage: the dry run's JSON with absolute cwd and log, and the
// fingerprint that tells a resumed stage (an older PASS of the same command).
Json stage_state_json(const std::string& repo_root, const plan::Plan& plan, const plan::Stage& stage) {
  Json json = plan::stage_json(stage);
  json["cwd"] = stage_cwd_path(repo_root, stage);
  json["log"] = stage_log_path(repo_root, plan, stage);
  json["fingerprint"] = stage_fingerprint(stage);
  return json;
}

Json invalid_configs_json(const std::vector<Diagnostic>& problems) {
  Json list = Json::array();
  for (const auto& p : problems) list.push_back({{"file", p.file}, {"line", p.line}, {"key", p.key}, {"message", p.message}});
  return list;
}

// The plan file: the whole plan's stages (`whole`), and the ids of those this run selected
// (`plan`'s; null when it runs them all). Written stage by stage (append_streamed): the
// JSON tree of a 1000-stage plan took about 4 MB more than its text.
std::string plan_state_text(const RunContext& context, const plan::Plan& plan, const plan::Plan& whole,
                            const std::string& run_id, double started) {
  Json selected = nullptr;
  if (&plan != &whole) {
    selected = Json::array();
    for (const auto& stage : plan.stages) selected.push_back(stage.id);
  }
  std::error_code ec;
  const Json head = {{"schema", kStateSchema},
                     {"tool_version", TIPC_VERSION},
                     {"run_id", run_id},
                     {"started", started},
                     {"config", plan.config_path},
                     {"config_file", fs::absolute(plan.config_path, ec).lexically_normal().string()},
                     {"settings_file", context.settings_file.empty() ? Json(nullptr) : Json(context.settings_file)},
                     {"mode", plan.mode},
                     {"model", plan.model_name},
                     {"dialect", plan.dialect},
                     {"dialect_source", context.dialect_source},
                     {"invalid_configs", invalid_configs_json(context.invalid_configs)},
                     {"compat", plan.compat},
                     {"repo_root", context.repo_root},
                     {"output_dir", plan_output_path(context.repo_root, plan)},
                     {"selected", selected},
                     {"stages", Json::array()}};
  std::string text;
  append_streamed(text, head, 0, whole.stages.size(), [&](std::string& out, std::size_t i, int depth) {
    append_nested(out, stage_state_json(context.repo_root, whole, whole.stages[i]), depth);
  });
  text += '\n';
  return text;
}

Json run_started_json(const RunInfo& info, const RunContext& context, const std::string& run_id, double started) {
  std::vector<std::string> gpus;
  for (const auto& gpu : info.resources.gpus) gpus.push_back(gpu.id);
  return {{"run", "started"},
          {"run_id", run_id},
          {"started", started},
          {"jobs", info.jobs},
          {"gpus", gpus},
          {"resources", info.resources.source},
          {"resumed", context.resumed},
          {"tool_version", TIPC_VERSION}};
}

}  // namespace

namespace {

// The tries --retries ran before the last one, oldest first: each one's result, times and log.
Json attempts_json(const std::vector<Attempt>& attempts, double run_started_unix) {
  Json list = Json::array();
  for (const Attempt& attempt : attempts) {
    list.push_back({{"result", to_string(attempt.verdict.result)},
                    {"reason", attempt.verdict.reason},
                    {"started", run_started_unix + attempt.start_seconds},
                    {"seconds", attempt.end_seconds - attempt.start_seconds},
                    {"exit_code", optional_json(attempt.exit_code)},
                    {"signal", optional_json(attempt.signal)},
                    {"log", attempt.log_path}});
  }
  return list;
}

}  // namespace

void JournalWriter::run_started(const RunInfo& info) {
  plans_ = info.plans;
  not_started_.clear();
  started_unix_ = unix_now();
  // Unique also for two runs of one process within a millisecond (the tests start many).
  static int runs_of_this_process = 0;
  ++runs_of_this_process;
  run_id_ = runs_of_this_process == 1 ? fmt::format("{:.0f}-{}", started_unix_ * 1000, getpid())
                                      : fmt::format("{:.0f}-{}-{}", started_unix_ * 1000, getpid(), runs_of_this_process);
  for (std::size_t i = 0; i < plans_.size(); ++i) {
    const plan::Plan& plan = *plans_[i];
    const plan::Plan& whole = i < context_.whole_plans.size() ? *context_.whole_plans[i] : plan;
    const std::string path = journal_path(context_.repo_root, plan);
    std::error_code ec;
    fs::create_directories(fs::path(path).parent_path(), ec);
    compact_journal(path);
    note_write_error(write_file_atomically(plan_file_path(context_.repo_root, plan),
                                           plan_state_text(context_, plan, whole, run_id_, started_unix_)));
    note_write_error(append_line(path, run_started_json(info, context_, run_id_, started_unix_)));
  }
}

void JournalWriter::stage_finished(const StageRecord& record) {
  const Observation& o = record.observation;
  const bool started = record.start_seconds >= 0;
  if (record.resumed) return;  // it keeps its last result, the PASS it was resumed on
  Json entry = {{"stage", record.stage->id},
               {"run_id", run_id_},
               {"run_started", started_unix_},
               {"fingerprint", stage_fingerprint(*record.stage)},
               {"result", to_string(record.verdict.result)},
               {"reason", record.verdict.reason},
               {"seconds", record.end_seconds >= 0 ? record.end_seconds - record.start_seconds : 0},
               {"started", started ? Json(started_unix_ + record.start_seconds) : Json(nullptr)},
               {"exit_code", optional_json(o.exit_code)},
               {"signal", optional_json(o.signal)},
               {"gpus", record.gpus},
               {"log_findings", o.log_findings}};
  if (!record.job_id.empty()) entry["job_id"] = record.job_id;
  if (!record.attempts.empty()) entry["attempts"] = attempts_json(record.attempts, started_unix_);
  // An interrupt also skips the dependents of the stages it stopped: whether a skip is
  // this run's result is known only at its end.
  if (!started && record.verdict.result == Status::kSkipped) {
    not_started_.emplace_back(record.plan, std::move(entry));
    return;
  }
  note_write_error(append_line(journal_path(context_.repo_root, *record.plan), entry));
}

void JournalWriter::run_finished(const RunSummary& summary) {
  for (const auto& [plan, skipped] : not_started_) {
    if (!summary.interrupted) note_write_error(append_line(journal_path(context_.repo_root, *plan), skipped));
  }
  not_started_.clear();
  const Json entry = {{"run", "finished"},
                      {"run_id", run_id_},
                      {"finished", started_unix_ + summary.seconds},
                      {"seconds", summary.seconds},
                      {"interrupted", summary.interrupted}};
  for (const auto* plan : plans_) {
    note_write_error(append_line(journal_path(context_.repo_root, *plan), entry));
    // Only estimates: a times file that cannot be written costs the next run its start order, not its result.
    const auto written = write_json_atomically(times_file_path(context_.repo_root, *plan),
                                               {{"schema", kStateSchema}, {"seconds", durations_by_id(context_.repo_root, *plan)}});
    if (!written) {
      std::cerr << "tipc-run: warning: " << written.error().str() << "; the next run orders its stages without these times\n";
    }
  }
}

void JournalWriter::note_write_error(const Result<void>& written) {
  if (written || !write_error_.empty()) return;
  write_error_ = written.error().str();
  std::cerr << "tipc-run: error: " << write_error_ << "; --resume and the reports cannot see this run's results\n";
}

}  // namespace tipc::run
