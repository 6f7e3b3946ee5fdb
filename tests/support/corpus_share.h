#pragma once
// What the corpus replays (CTest label `corpus`) share within one CTest run: each corpus
// repository laid out once as a checkout, one trace cache, and one sample of (config, MODE)
// runs. TraceConformance, TracedChains, DefaultModeConformance and SuiteCorpus trace the same
// runner and config with the same request (the command line's, no extra options), so a
// trace made by one is read back by the others instead of being made again. CTest names the
// share in TIPC_TEST_CORPUS_SHARE and empties it before the first replay (the
// CorpusShare.Reset fixture in CMakeLists.txt): traces never outlive the build that made them. Without it (the test binary run by hand) the share is the process's own.
#include <filesystem>
#include <string>

#include "trace/trace.h"

namespace tipc::test {

// The checkout of `repo` of the corpus at `corpus` (lay_out_checkout), laid out once per
// share whatever the number of tests and processes asking; treat it as read-only.
std::filesystem::path shared_checkout(const std::filesystem::path& corpus, const std::string& repo);

// The trace cache (TraceRequest::cache_dir, TIPC_TRACE_CACHE) of the share.
std::string shared_trace_cache();

// Whether the run of `config` (its path in the checkout) in `mode` is in the sample the
// replays take under CTest: about one in three, by a digest of the three, so every replay
// takes the same runs whatever order it meets them in.
bool in_shared_sample(const std::string& repo, const std::string& config, const std::string& mode);

// The trace with every mention of the repository `root` spelled `spelling` (the recordings
// spell theirs "<REPO_ROOT>").
trace::Trace with_root_spelled(const trace::Trace& trace, const std::string& root, const std::string& spelling);

}  // namespace tipc::test
