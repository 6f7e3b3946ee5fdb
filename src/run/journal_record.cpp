#include "run/journal_record.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/atomic_file.h"
#include "core/unique_fd.h"

namespace tipc::run {
namespace {
using Json = nlohmann::ordered_json;
using JsonValue = nlohmann::json;  // read only

// A field that is absent, null or of another type reads as nullopt (field_or: as `fallback`):
// the journal is read back whatever an older or crashed writer left.
template <class T>
std::optional<T> optional_field(const JsonValue& object, const char* key) {
  const auto it = object.find(key);
  if (it == object.end() || it->is_null()) return std::nullopt;
  try {
    return it->get<T>();
  } catch (const JsonValue::exception&) {
    return std::nullopt;
  }
}

template <class T>
T field_or(const JsonValue& object, const char* key, T fallback) {
  return optional_field<T>(object, key).value_or(std::move(fallback));
}

Json optional_json(const auto& value) { return value ? Json(*value) : Json(nullptr); }

// A result word this tipc-run does not know reads as UNRESOLVED, with a reason that says so.
void read_result(const std::string& word, Status& result, std::string& reason) {
  const auto status = status_from_string(word);
  result = status.value_or(Status::kUnresolved);
  if (!status) reason = fmt::format("the journal records an unknown result '{}'", word);
}

AttemptEntry attempt_from_json(const JsonValue& item) {
  AttemptEntry attempt;
  attempt.reason = field_or<std::string>(item, "reason", "");
  read_result(field_or<std::string>(item, "result", ""), attempt.result, attempt.reason);
  attempt.started = optional_field<double>(item, "started");
  attempt.seconds = optional_field<double>(item, "seconds");
  attempt.exit_code = optional_field<int>(item, "exit_code");
  attempt.signal = optional_field<int>(item, "signal");
  attempt.log = field_or<std::string>(item, "log", "");
  return attempt;
}

// docs/report-schema.md, "gpu": a figure the driver did not give is absent.
GpuFigures gpu_figures_from_json(const JsonValue& item) {
  GpuFigures figures;
  figures.samples = field_or<int>(item, "samples", 0);
  figures.memory_peak_mib = optional_field<double>(item, "memory_peak_mib");
  figures.utilization_mean_percent = optional_field<double>(item, "utilization_mean_percent");
  figures.utilization_peak_percent = optional_field<double>(item, "utilization_peak_percent");
  figures.power_mean_watts = optional_field<double>(item, "power_mean_watts");
  figures.power_peak_watts = optional_field<double>(item, "power_peak_watts");
  figures.throttle_reasons = field_or<std::vector<std::string>>(item, "throttle_reasons", {});
  return figures;
}

Json gpu_figures_json(const GpuFigures& figures) {
  Json json = {{"samples", figures.samples}};
  auto put = [&](const char* key, const std::optional<double>& value) {
    if (value) json[key] = *value;
  };
  put("memory_peak_mib", figures.memory_peak_mib);
  put("utilization_mean_percent", figures.utilization_mean_percent);
  put("utilization_peak_percent", figures.utilization_peak_percent);
  put("power_mean_watts", figures.power_mean_watts);
  put("power_peak_watts", figures.power_peak_watts);
  if (!figures.throttle_reasons.empty()) json["throttle_reasons"] = figures.throttle_reasons;
  return json;
}

Gpu gpu_device_from_json(const JsonValue& item) {
  return {field_or<std::string>(item, "id", ""), 1, optional_field<int>(item, "index"),
          field_or<std::string>(item, "name", ""), field_or<std::string>(item, "uuid", "")};
}

Json gpu_device_json(const Gpu& gpu) {
  return {{"id", gpu.id}, {"index", optional_json(gpu.index)}, {"name", gpu.name}, {"uuid", gpu.uuid}};
}

JournalEntry entry_from_json(const JsonValue& line) {
  JournalEntry entry;
  entry.stage = line["stage"].get<std::string>();
  entry.run_id = field_or<std::string>(line, "run_id", "");
  entry.run_started = optional_field<double>(line, "run_started");
  entry.fingerprint = field_or<std::string>(line, "fingerprint", "");
  entry.reason = field_or<std::string>(line, "reason", "");
  read_result(line["result"].get<std::string>(), entry.result, entry.reason);
  entry.seconds = field_or<double>(line, "seconds", 0);
  entry.started = optional_field<double>(line, "started");
  entry.exit_code = optional_field<int>(line, "exit_code");
  entry.signal = optional_field<int>(line, "signal");
  entry.gpus = field_or<std::vector<std::string>>(line, "gpus", {});
  entry.log_findings = field_or<std::vector<std::string>>(line, "log_findings", {});
  entry.job_id = field_or<std::string>(line, "job_id", "");
  entry.nodes = field_or<std::string>(line, "nodes", "");
  for (const JsonValue& item : field_or<JsonValue>(line, "attempts", JsonValue::array())) {
    if (item.is_object()) entry.attempts.push_back(attempt_from_json(item));
  }
  if (const JsonValue gpu = field_or<JsonValue>(line, "gpu", JsonValue::object()); gpu.is_object()) {
    entry.gpu = gpu_figures_from_json(gpu);
  }
  entry.gpu_warnings = field_or<std::vector<std::string>>(line, "gpu_warnings", {});
  return entry;
}

RunStartedLine run_started_from_json(const JsonValue& line) {
  RunStartedLine started{field_or<std::string>(line, "run_id", ""),
                         field_or<double>(line, "started", 0),
                         field_or<int>(line, "jobs", 1),
                         field_or<std::vector<std::string>>(line, "gpus", {}),
                         field_or<std::string>(line, "resources", ""),
                         field_or<bool>(line, "resumed", false),
                         field_or<std::string>(line, "tool_version", ""),
                         {}};
  for (const JsonValue& item : field_or<JsonValue>(line, "gpu_devices", JsonValue::array())) {
    if (item.is_object()) started.devices.push_back(gpu_device_from_json(item));
  }
  return started;
}

RunFinishedLine run_finished_from_json(const JsonValue& line) {
  return {field_or<std::string>(line, "run_id", ""), field_or<double>(line, "finished", 0),
          field_or<double>(line, "seconds", 0), field_or<bool>(line, "interrupted", false)};
}

bool is_stage_line(const JsonValue& line) {
  return line.contains("stage") && line["stage"].is_string() && line.contains("result") && line["result"].is_string();
}

// Adds one parsed line; a stage line of an older tipc-run, without its run, takes the run of
// the "run started" line above it.
void add_line(Journal& journal, const JsonValue& line) {
  const std::string run = field_or<std::string>(line, "run", "");
  if (run == "started") {
    journal.runs_started.push_back(run_started_from_json(line));
  } else if (run == "finished") {
    journal.runs_finished.push_back(run_finished_from_json(line));
  } else if (is_stage_line(line)) {
    JournalEntry entry = entry_from_json(line);
    if (!line.contains("run_id") && !journal.runs_started.empty()) {
      entry.run_id = journal.runs_started.back().run_id;
      entry.run_started = journal.runs_started.back().started;
    }
    journal.entries.push_back(std::move(entry));
  }
}

Json attempts_json(const std::vector<AttemptEntry>& attempts) {
  Json list = Json::array();
  for (const AttemptEntry& attempt : attempts) {
    list.push_back({{"result", to_string(attempt.result)},
                    {"reason", attempt.reason},
                    {"started", optional_json(attempt.started)},
                    {"seconds", optional_json(attempt.seconds)},
                    {"exit_code", optional_json(attempt.exit_code)},
                    {"signal", optional_json(attempt.signal)},
                    {"log", attempt.log}});
  }
  return list;
}

Json entry_json(const JournalEntry& entry) {
  Json json = {{"stage", entry.stage},
               {"run_id", entry.run_id},
               {"run_started", optional_json(entry.run_started)},
               {"fingerprint", entry.fingerprint},
               {"result", to_string(entry.result)},
               {"reason", entry.reason},
               {"seconds", entry.seconds},
               {"started", optional_json(entry.started)},
               {"exit_code", optional_json(entry.exit_code)},
               {"signal", optional_json(entry.signal)},
               {"gpus", entry.gpus},
               {"log_findings", entry.log_findings}};
  if (!entry.job_id.empty()) json["job_id"] = entry.job_id;
  if (!entry.nodes.empty()) json["nodes"] = entry.nodes;
  if (!entry.attempts.empty()) json["attempts"] = attempts_json(entry.attempts);
  if (!entry.gpu.empty()) json["gpu"] = gpu_figures_json(entry.gpu);
  if (!entry.gpu_warnings.empty()) json["gpu_warnings"] = entry.gpu_warnings;
  return json;
}

std::string line_text(const Json& json) { return json.dump(-1, ' ', false, Json::error_handler_t::replace) + "\n"; }

// True when the file ends in the middle of a line (a crash cut its last write).
bool ends_mid_line(int fd) {
  struct stat info {};
  char last = '\n';
  return fstat(fd, &info) == 0 && info.st_size > 0 && pread(fd, &last, 1, info.st_size - 1) == 1 && last != '\n';
}

// One O_APPEND write per line: a crash leaves at most one cut line, which readers skip.
// A line after a cut one starts on a line of its own (--resume appends to the journal).
Result<void> append_line(const std::string& path, const Json& json) {
  std::string line = line_text(json);
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

}  // namespace

bool JournalEntry::same_command(const std::string& stage_fingerprint) const { return fingerprint == stage_fingerprint; }

bool JournalEntry::passed_with(const std::string& stage_fingerprint) const {
  return is_passed(result) && same_command(stage_fingerprint);
}

bool JournalEntry::ran() const { return started && result != Status::kSkipped && seconds >= 0; }

Result<Journal> Journal::load(const std::string& path) {
  Journal journal;
  journal.version = 0;
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    journal.version = kJournalVersion;
    return journal;
  }
  std::ifstream in(path);
  if (!in) return fail(Error::at(path, 0, "", "cannot read the journal: " + errno_text(errno)));
  int number = 0;
  for (std::string text; std::getline(in, text);) {
    ++number;
    const auto line = JsonValue::parse(text, nullptr, false);
    if (line.is_discarded() || !line.is_object()) continue;
    if (const auto version = optional_field<int>(line, "schema")) {
      if (*version > kJournalVersion) {
        return fail(
            Error::at(path, number, "schema", fmt::format("written by a newer tipc-run (schema {})", *version)));
      }
      journal.version = *version;
    }
    add_line(journal, line);
  }
  return journal;
}

Result<void> Journal::append(const std::string& path, const JournalEntry& entry) {
  return append_line(path, entry_json(entry));
}

Result<void> Journal::append(const std::string& path, const RunStartedLine& line) {
  Json json = {{"run", "started"},        {"run_id", line.run_id},
               {"started", line.started}, {"jobs", line.jobs},
               {"gpus", line.gpus},       {"resources", line.resources},
               {"resumed", line.resumed}, {"tool_version", line.tool_version}};
  if (!line.devices.empty()) {
    json["gpu_devices"] = Json::array();
    for (const Gpu& gpu : line.devices) json["gpu_devices"].push_back(gpu_device_json(gpu));
  }
  return append_line(path, json);
}

Result<void> Journal::append(const std::string& path, const RunFinishedLine& line) {
  return append_line(path, {{"run", "finished"},
                            {"run_id", line.run_id},
                            {"finished", line.finished},
                            {"seconds", line.seconds},
                            {"interrupted", line.interrupted}});
}

Result<void> Journal::write_compacted(const std::string& path) const {
  std::vector<const JournalEntry*> kept;
  for (const auto& [id, entry] : last_entries()) kept.push_back(entry);
  std::sort(kept.begin(), kept.end());  // file order: entries is one vector
  std::string text = line_text({{"schema", kJournalVersion}});
  for (const JournalEntry* entry : kept) text += line_text(entry_json(*entry));
  return write_file_atomically(path, text);
}

std::map<std::string, const JournalEntry*> Journal::last_entries() const {
  std::map<std::string, const JournalEntry*> last;
  for (const JournalEntry& entry : entries) last[entry.stage] = &entry;
  return last;
}

std::map<std::string, double> Journal::last_times() const {
  std::map<std::string, double> seconds;
  for (const JournalEntry& entry : entries) {
    if (entry.ran()) seconds[entry.stage] = entry.seconds;
  }
  return seconds;
}

const RunStartedLine* Journal::run_started(const std::string& run_id) const {
  const auto it = std::find_if(runs_started.rbegin(), runs_started.rend(),
                               [&](const RunStartedLine& line) { return line.run_id == run_id; });
  return it == runs_started.rend() ? nullptr : &*it;
}

const RunFinishedLine* Journal::run_finished(const std::string& run_id) const {
  const auto it = std::find_if(runs_finished.rbegin(), runs_finished.rend(),
                               [&](const RunFinishedLine& line) { return line.run_id == run_id; });
  return it == runs_finished.rend() ? nullptr : &*it;
}

}  // namespace tipc::run
