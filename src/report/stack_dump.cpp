#include "report/stack_dump.h"

#include <algorithm>
#include <cctype>
#include <optional>

#include <fmt/format.h>

#include "core/file_tail.h"
#include "core/text.h"
#include "report/report_text.h"
#include "run/stack_dump.h"

namespace tipc::report {
namespace {

using Lines = std::vector<std::string_view>;
using Frames = std::vector<std::string>;

// The lines after the last marker line that end in a line feed: the last, cut by the kill, does not.
Lines lines_after_marker(std::string_view log) {
  const std::size_t marker = log.rfind(run::kStackDumpMarker);
  if (marker == std::string_view::npos) return {};
  Lines lines;
  for (std::size_t end = log.find('\n', marker); end != std::string_view::npos;) {
    const std::size_t start = end + 1;
    end = log.find('\n', start);
    if (end == std::string_view::npos) break;
    std::string_view line = log.substr(start, end - start);
    if (line.ends_with('\r')) line.remove_suffix(1);
    lines.push_back(line);
  }
  return lines;
}

void add_frame(Frames& frames, std::string frame) {
  if (frames.size() < kStackFrames) frames.push_back(cut_text(std::move(frame), kStackFrameMaxBytes));
}

// ---- Python: faulthandler ----

// `  File "/repo/hang.py", line 5 in spin` -> "hang.py:5 in spin"; nullopt for any other line.
std::optional<std::string> python_frame(std::string_view line) {
  constexpr std::string_view kStart = "  File \"", kLine = "\", line ", kIn = " in ";
  const std::size_t quote = line.rfind(kLine);
  if (!line.starts_with(kStart) || quote == std::string_view::npos || quote < kStart.size()) return std::nullopt;
  const std::string_view path = line.substr(kStart.size(), quote - kStart.size());
  const std::string_view rest = line.substr(quote + kLine.size());
  const std::size_t in = rest.find(kIn);
  if (in == std::string_view::npos || !all_digits(rest.substr(0, in))) return std::nullopt;
  const std::string_view file = path.substr(path.rfind('/') == std::string_view::npos ? 0 : path.rfind('/') + 1);
  return fmt::format("{}:{} in {}", file, rest.substr(0, in), rest.substr(in + kIn.size()));
}

struct PythonThread {
  bool current = false;
  Frames frames;
};

// A thread's header in a faulthandler dump: whether it is the current thread; nullopt for another line.
std::optional<bool> python_thread_header(std::string_view line) {
  if (!line.ends_with("(most recent call first):")) return std::nullopt;
  if (line.starts_with("Current thread ") || line.starts_with("Stack ")) return true;
  if (line.starts_with("Thread 0x")) return false;
  return std::nullopt;
}

// The threads of the first faulthandler dump (a second `Fatal Python error` line starts another
// process's). A thread's frames end at the first line that is no frame (`  <no Python frame>`,
// `  ...`, the blank line after them).
std::vector<PythonThread> python_threads(const Lines& lines) {
  std::vector<PythonThread> threads;
  bool in_thread = false;
  for (const std::string_view line : lines) {
    if (line.starts_with("Fatal Python error") && !threads.empty()) break;
    if (const auto current = python_thread_header(line)) {
      threads.push_back({*current, {}});
      in_thread = true;
    } else if (const auto frame = in_thread ? python_frame(line) : std::nullopt) {
      add_frame(threads.back().frames, *frame);
    } else {
      in_thread = false;
    }
  }
  return threads;
}

// The current thread's frames where it has Python frames, else the first thread's that has.
Frames python_frames(const Lines& lines) {
  const auto threads = python_threads(lines);
  const auto current = std::find_if(threads.begin(), threads.end(),
                                    [](const PythonThread& t) { return t.current && !t.frames.empty(); });
  if (current != threads.end()) return current->frames;
  const auto any =
      std::find_if(threads.begin(), threads.end(), [](const PythonThread& t) { return !t.frames.empty(); });
  return any == threads.end() ? Frames{} : any->frames;
}

// ---- native: eu-stack, gdb ----

// `tipc-run: native stack of pid 1234 (python3) from eu-stack:` -> "1234"; nullopt for another line.
std::optional<std::string_view> native_stack_pid(std::string_view line) {
  constexpr std::string_view kStart = "tipc-run: native stack of pid ";
  if (!line.starts_with(kStart)) return std::nullopt;
  const std::string_view rest = line.substr(kStart.size());
  return rest.substr(0, rest.find(' '));
}

// `#0  0x00007f2a1c0e4d3f __select` (eu-stack), `#1  0x000055d4 in spin (n=3) at hang.c:5`
// or `#0  spin () at hang.c:5` (gdb) -> the function; its address where no name follows.
std::optional<std::string> native_frame(std::string_view line) {
  const std::size_t number_end = line.find_first_not_of("0123456789", 1);
  if (!line.starts_with('#') || number_end == 1 || number_end == std::string_view::npos || line[number_end] != ' ') {
    return std::nullopt;
  }
  std::string_view rest = line.substr(number_end);
  rest.remove_prefix(std::min(rest.size(), rest.find_first_not_of(' ')));
  std::string_view address;
  if (rest.starts_with("0x")) {
    address = rest.substr(0, rest.find(' '));
    rest = rest.substr(std::min(rest.size(), address.size() + 1));
  }
  if (rest.starts_with("in ")) rest.remove_prefix(3);
  for (const std::string_view end : {" (", " at ", " from ", " - "}) rest = rest.substr(0, rest.find(end));
  return std::string(rest.empty() ? address : rest);
}

struct NativeThread {
  bool main = false;
  Frames frames;
};

// A native thread's header: eu-stack's `TID 1234:`, gdb's `Thread 1 (Thread 0x... (LWP 1234) "x"):`.
std::optional<bool> native_thread_header(std::string_view line, std::string_view pid) {
  if (line.starts_with("TID ")) return line == fmt::format("TID {}:", pid);
  if (line.starts_with("Thread ") && !line.starts_with("Thread 0x")) {
    return line.find(fmt::format("(LWP {})", pid)) != std::string_view::npos;
  }
  return std::nullopt;
}

// Each native stack's threads, in the log's order; a stack ends at the next one or a Python dump.
std::vector<std::vector<NativeThread>> native_stacks(const Lines& lines) {
  std::vector<std::vector<NativeThread>> stacks;
  std::string_view pid;
  bool in_stack = false;
  for (const std::string_view line : lines) {
    if (const auto next = native_stack_pid(line)) {
      pid = *next;
      in_stack = true;
      stacks.emplace_back();
    } else if (line.starts_with("Fatal Python error")) {
      in_stack = false;
    } else if (!in_stack) {
      continue;
    } else if (const auto main = native_thread_header(line, pid)) {
      stacks.back().push_back({*main, {}});
    } else if (const auto frame = native_frame(line)) {
      if (stacks.back().empty()) stacks.back().emplace_back();
      add_frame(stacks.back().back().frames, *frame);
    }
  }
  return stacks;
}

// The first stack's with frames: its main thread's, else its first thread's that has frames.
Frames native_frames(const Lines& lines) {
  for (const auto& threads : native_stacks(lines)) {
    const auto has_frames = [](const NativeThread& t) { return !t.frames.empty(); };
    const auto main =
        std::find_if(threads.begin(), threads.end(), [&](const NativeThread& t) { return t.main && has_frames(t); });
    if (main != threads.end()) return main->frames;
    const auto any = std::find_if(threads.begin(), threads.end(), has_frames);
    if (any != threads.end()) return any->frames;
  }
  return {};
}

}  // namespace

std::vector<std::string> first_stack_frames(std::string_view log) {
  const Lines lines = lines_after_marker(log);
  Frames frames = python_frames(lines);
  return frames.empty() ? native_frames(lines) : frames;
}

std::vector<std::string> first_stack_frames_of_file(const std::string& path) {
  return first_stack_frames(file_tail(path, kStackDumpWindow));
}

}  // namespace tipc::report
