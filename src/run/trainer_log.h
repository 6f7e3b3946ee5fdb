#pragma once
// The trainer's own log (plan::ResultsLogFields::trainer_log: a path or a glob), which the reference
// appends to the stage log once the stage has ended (`cat train.log >> stage.log`); its lines
// are checked like the stage's output. The executor that ran the stage copies it, after the
// stage's processes ended and before it reports the stage finished, in bounded pieces
// between its deadline checks, so a large trainer log delays no other stage's deadline
// (the scheduler's event loop copies nothing).
#include <fstream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "run/log_scanner.h"

namespace tipc::run {

// The files the reference's `cat PATTERN` reads: the path itself, or, for a pattern
// (PaddleGAN names its trainer's log by a glob), every match in the shell's order.
std::vector<std::string> trainer_log_files(const std::string& pattern);

struct TrainerLogOutcome {
  bool found = false;                 // some file could be read (the reference's cat succeeded)
  std::vector<std::string> findings;  // of the log checks, on the trainer log's lines
};

// One copy, piece by piece: the files are found when it is made (after the stage ended).
class TrainerLogCopy {
 public:
  TrainerLogCopy(const std::string& pattern, const std::vector<LogPattern>& checks);
  // The next piece (at most buffer.size() bytes), already fed to the log checks; empty once
  // every file was read.
  std::string_view next(std::span<char> buffer);
  TrainerLogOutcome finish() &&;

 private:
  std::vector<std::string> files_;
  std::size_t next_file_ = 0;
  std::ifstream in_;
  bool found_ = false;
  LogScanner scanner_;
};

// The whole copy at once, appended to the file `to` (opened only when there is something to append).
TrainerLogOutcome append_trainer_log(const std::string& pattern, const std::string& to,
                                     const std::vector<LogPattern>& checks);

}  // namespace tipc::run
