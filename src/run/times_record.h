#pragma once
// The times file, <LOG>/.tipc-times.json: each stage's time the last time it ran, by stage
// id, across runs (ninja's .ninja_log). What the scheduler's start order estimates from
// (run/journal.h recorded_durations); rewritten when a run ends. docs/report-schema.md.
#include <map>
#include <string>

#include "core/error.h"

namespace tipc::run {

inline constexpr const char* kTimesFileName = ".tipc-times.json";
inline constexpr int kTimesVersion = 1;  // written as "schema"; a reader rejects a larger one

struct TimesRecord {
  int version = kTimesVersion;
  std::map<std::string, double> seconds;  // stage id -> seconds (>= 0)
  bool operator==(const TimesRecord&) const = default;
};

// A missing file is an empty record. An error names the file: one that is not a times file
// (cut short, damaged, a negative or non-numeric time), or one of a newer tipc-run.
Result<TimesRecord> read_times_file(const std::string& path);

// Written atomically; a failure says "cannot write PATH: REASON".
Result<void> write_times_file(const std::string& path, const TimesRecord& record);

}  // namespace tipc::run
