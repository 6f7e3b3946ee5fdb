#include "report/console_reporter.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>

#include <fmt/format.h>

#include "core/error.h"
#include "report/report_text.h"

namespace tipc::report {

ConsoleStyle ConsoleStyle::detect(int fd) {
  const char* term = std::getenv("TERM");
  const bool tty = isatty(fd) && !(term && std::string(term) == "dumb");
  const char* force = std::getenv("CLICOLOR_FORCE");
  const bool forced = force && std::string(force) != "0";
  const bool no_color = std::getenv("NO_COLOR") && *std::getenv("NO_COLOR");
  return {tty, !no_color && (tty || forced)};
}

std::string log_tail(const std::string& path, int lines) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return "";
  const std::streamoff size = in.tellg();
  const std::streamoff start = std::max<std::streamoff>(0, size - (64 << 10));
  in.seekg(start);
  std::string text(static_cast<std::size_t>(size - start), '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  std::size_t at = text.size();
  if (at > 0 && text[at - 1] == '\n') --at;
  for (int n = 0; n < lines && at != std::string::npos && at > 0; ++n) at = text.rfind('\n', at - 1);
  return at == std::string::npos || at == 0 ? text : text.substr(at + 1);
}

std::string ConsoleReporter::paint(const std::string& text, run::Status status) const {
  if (!style_.color) return text;
  const char* code = status == run::Status::kPass          ? "32"
                     : run::is_failure(status)             ? "31"
                     : status == run::Status::kUnsupported ? "33"
                                                           : "36";
  return fmt::format("\x1b[{}m{}\x1b[0m", code, text);
}

void ConsoleReporter::status(const std::string& text) {
  if (!style_.rewrite) return;
  std::fprintf(out_, "\r%s\x1b[K", text.c_str());
  std::fflush(out_);
  status_shown_ = true;
}

void ConsoleReporter::line(const std::string& text) {
  if (status_shown_) std::fputs("\r\x1b[K", out_);
  status_shown_ = false;
  std::fprintf(out_, "%s\n", text.c_str());
  std::fflush(out_);
}

void ConsoleReporter::run_started(const run::RunInfo& info) {
  total_ = info.total_stages;
  line(fmt::format("tipc-run: {} stages, {} job{}, {} GPU{} ({})", info.total_stages, info.jobs,
                   info.jobs == 1 ? "" : "s", info.resources.gpus.size(), info.resources.gpus.size() == 1 ? "" : "s",
                   info.resources.source.empty() ? "none" : info.resources.source));
}

void ConsoleReporter::stage_started(const run::StageRecord& record) {
  status(fmt::format("[{}/{}] {}", done_, total_, record.stage->id));
}

void ConsoleReporter::stage_finished(const run::StageRecord& record) {
  ++done_;
  const run::Status result = record.verdict.result;
  const double seconds = record.end_seconds >= 0 ? record.end_seconds - record.start_seconds : 0;
  const std::string word = paint(fmt::format("{:<11}", run::to_string(result)), result);
  std::string text = fmt::format("[{}/{}] {} {}", done_, total_, word, record.stage->id);
  if (record.start_seconds >= 0 && record.end_seconds >= 0) text += fmt::format(" ({:.1f} s)", seconds);
  if (!record.job_id.empty()) text += fmt::format(" [job {}]", record.job_id);
  if (!record.verdict.reason.empty()) text += " - " + record.verdict.reason;
  if (result == run::Status::kPass && style_.rewrite) {
    status(text);
    return;
  }
  line(text);
  if (run::is_failure(result) && record.start_seconds >= 0) {
    std::string command;
    for (const auto& word_ : record.stage->argv) command += (command.empty() ? "" : " ") + word_;
    line(fmt::format("    command: {}\n    cwd: {}\n    log: {}", command, record.stage->cwd, record.log_path));
    const std::string tail = log_tail(record.log_path, tail_lines_);
    if (!tail.empty()) line(fmt::format("    last {} log lines:\n{}", tail_lines_, tail));
  }
}

void ConsoleReporter::check_finished(const run::StageRecord& record, const CheckDetails& check) {
  if (!run::is_failure(record.verdict.result)) return;  // a pass is one line, as for any stage
  constexpr std::size_t kFailingValuesShown = 10;
  const auto shown = headline_values(check, kFailingValuesShown, 0);
  std::string text = "    check values:";
  for (const CheckValue* value : shown) text += "\n      " + check_value_line(*value);
  const std::size_t failing =
      std::count_if(check.values.begin(), check.values.end(), [](const CheckValue& v) { return !v.passed; });
  if (failing > shown.size()) text += fmt::format("\n      ... and {} more failing (report.json)", failing - shown.size());
  for (const auto& note : check.notes) text += "\n      note: " + note;
  if (!shown.empty() || !check.notes.empty()) line(text);
}

void ConsoleReporter::run_finished(const run::RunSummary& summary) {
  using run::Status;
  line(fmt::format("tipc-run: {} passed, {} failed, {} timed out, {} unsupported, {} skipped, {} unresolved in {:.1f} s{}",
                   summary.count(Status::kPass), summary.count(Status::kFail), summary.count(Status::kTimeout),
                   summary.count(Status::kUnsupported), summary.count(Status::kSkipped),
                   summary.count(Status::kUnresolved), summary.seconds, summary.interrupted ? " (interrupted)" : ""));
}

std::string verdict_line(const run::RunVerdict& verdict, const run::VerdictRules& rules) {
  if (verdict.kind == run::VerdictKind::kNothingRan) {
    return fmt::format("tipc-run: {} ({})", verdict.explanation(),
                       verdict.exit_code(rules) == kExitPassed ? "accepted: --allow-nothing"
                                                               : "exit 1; --allow-nothing accepts it");
  }
  const std::string why = verdict.explanation();
  return "tipc-run: " + verdict.headline() + (why.empty() ? "" : ": " + why);
}

}  // namespace tipc::report
