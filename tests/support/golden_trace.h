#pragma once
// A trace::Trace built from one recorded corpus run (tipc-corpus README §5), so the traced
// planner can be tested without the tracer: argv.jsonl -> calls (cwd, CUDA_VISIBLE_DEVICES),
// raw.cmds -> evals one to one (the dino pre-step, run outside any evaluated string, gets no
// eval: README §6), results_python.log minus its `### path` header -> the status log, and
// each call's stdout from its evaluated string's redirection.
#include <string>
#include <vector>

#include "trace/trace.h"

namespace tipc::test {

// `base`: the golden file path without its suffix (golden/<Repo>/<id>). `repo_root`
// replaces <REPO_ROOT> in every string (the absolute root as the trace spells it).
// Helpers the corpus tests share with the adapter.
std::string replace_all(std::string text, const std::string& from, const std::string& to);
std::vector<std::string> non_empty_lines(const std::string& text);

trace::Trace golden_trace(const std::string& base, const std::string& repo_root);

}  // namespace tipc::test
