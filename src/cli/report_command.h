#pragma once
// `tipc-run report DIR [--bundle FILE.tar.gz] [--strict]`: rebuilds the reports of every
// plan whose state (.tipc-plan.json, .tipc-journal.jsonl) lies at or under DIR, from that
// state alone, into DIR: the same files the run wrote at its end, also for a run that
// was interrupted or killed. Exit codes: 0 the run passed, 1 it failed or did not finish
// (--strict: UNSUPPORTED stages fail it too), 2 bad input (no run state under DIR, an
// unreadable plan file, an unwritable report or bundle).
#include <iosfwd>
#include <string>
#include <vector>

namespace tipc::cli {

// `args` are the words after "report".
int report_main(const std::vector<std::string>& args);
int report_main(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace tipc::cli
