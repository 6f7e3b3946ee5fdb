// Default-mode conformance (issue 38, item 11): every recorded run of both shared corpora
// (../shared/tipc-corpus and ../shared/tipc-corpus-longtail) planned as a user plans it,
// `tipc-run CONFIG MODE --dry-run --format jsonl` from the run's directory, with neither
// --compat nor --dialect, in the shared checkout of its repository (support/corpus_share.h:
// the runner scripts and every config at their paths, and a checkout's directories). A comparable run must be
// planned, never refused, and its python calls must be the recorded ones in the recorded
// order: argv (the scratch root spelled <REPO_ROOT>, as the recordings spell theirs) and cwd
// relative to the repository root. GPU ids are tipc-run's own allocation and replayed setup
// stages are extra stages (docs/reference-runner.md, "The default mode"), so both are set
// aside. A run in which the runner started no program must be refused, with that reason.
// CTest plans a sample (the shared sample, about every third run, and the first of each runner and MODE);
// TIPC_CONFORMANCE_EVERY_RUN=1 plans every one (bench/default_mode_corpus.py does the same
// from Python and prints the totals).
#include <algorithm>
#include <filesystem>
#include <future>
#include <iostream>
#include <map>
#include <set>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/corpus_share.h"
#include "support/env_flag.h"
#include "support/paths.h"
#include "support/run_binary.h"
#include "support/temp_dir.h"
#include "support/text_lines.h"

namespace tipc::cli {
namespace {
namespace TIPC_TEST_FILE {
namespace fs = std::filesystem;
using nlohmann::json;

// One python call: argv as the recording spells it, and its cwd relative to the repository root.
using Call = std::pair<std::vector<std::string>, std::string>;

struct RecordedRun {
  std::string id, repo, run_dir, config, mode;
  bool comparable = false;
  std::vector<Call> calls;
};

std::string normal_cwd(const std::string& run_dir, const std::string& cwd) {
  const std::string joined = (fs::path(run_dir.empty() ? "." : run_dir) / cwd).lexically_normal().string();
  return joined.ends_with("/") && joined.size() > 1 ? joined.substr(0, joined.size() - 1) : joined;
}

std::vector<Call> recorded_calls(const std::string& argv_file) {
  std::vector<Call> calls;
  for (const auto& line : test::lines_of(test::slurp(argv_file))) {
    if (line.empty()) continue;
    const json call = json::parse(line);
    std::vector<std::string> argv{call["argv0"].get<std::string>()};
    for (const auto& word : call["argv"]) argv.push_back(word.get<std::string>());
    calls.emplace_back(std::move(argv), normal_cwd("", call["cwd"].get<std::string>()));
  }
  return calls;
}

// Comparable as each corpus's README says: tipc-corpus by its meta's compare.argv; the
// longtail when its runner exited 0 with no shell errors and started exactly the stand-ins it
// evaluated. A run without a runner beside its config is never comparable.
RecordedRun recorded_run(const fs::path& meta_file) {
  const json meta = json::parse(test::slurp(meta_file.string()));
  RecordedRun run{meta["id"], meta["repo"], "", meta["config"], meta.value("mode", ""), false, {}};
  if (meta.contains("corpus")) {
    const json& corpus = meta["corpus"];
    run.comparable = corpus["compare"]["argv"].get<bool>();
    run.run_dir = corpus["run_dir"];
    run.config = corpus["config_arg"];
    run.mode = corpus["mode_arg"];
  } else {
    run.comparable =
        meta["exit_code"] == 0 && meta["shell_errors"].empty() && meta["stub_calls_minus_python_evals"] == 0;
  }
  run.comparable = run.comparable && meta.contains("runner");
  std::string argv_file = meta_file.string();
  argv_file.replace(argv_file.size() - std::string(".meta.json").size(), std::string::npos, ".argv.jsonl");
  run.calls = recorded_calls(argv_file);
  return run;
}

std::vector<RecordedRun> recorded_runs(const fs::path& corpus) {
  std::vector<fs::path> metas;
  for (const auto& entry : fs::recursive_directory_iterator(corpus / "golden")) {
    if (entry.path().string().ends_with(".meta.json")) metas.push_back(entry.path());
  }
  std::sort(metas.begin(), metas.end());
  std::vector<RecordedRun> runs;
  for (const auto& meta : metas) runs.push_back(recorded_run(meta));
  return runs;
}

// The plan's python calls, spelled as the recording spells them.
std::vector<Call> planned_calls(const std::string& jsonl, const std::string& root, const std::string& run_dir) {
  std::vector<Call> calls;
  for (const auto& line : test::lines_of(jsonl)) {
    if (line.empty()) continue;
    const json stage = json::parse(line);
    if (stage.value("kind", "") == "setup" || !stage.contains("argv") || stage["argv"].empty()) continue;
    if (!fs::path(stage["argv"][0].get<std::string>()).filename().string().starts_with("python")) continue;
    std::vector<std::string> argv;
    for (const auto& word : stage["argv"]) {
      std::string text = word;
      for (auto at = text.find(root); at != std::string::npos; at = text.find(root, at + 1)) {
        text.replace(at, root.size(), "<REPO_ROOT>");
      }
      argv.push_back(text);
    }
    calls.emplace_back(std::move(argv), normal_cwd(run_dir, stage.value("cwd", ".")));
  }
  return calls;
}

std::string describe(const std::vector<Call>& calls) {
  std::string out;
  for (const auto& [argv, cwd] : calls) out += fmt::format("\n    [{}] {}", cwd, fmt::join(argv, " "));
  return out.empty() ? "\n    (none)" : out;
}

struct Planned {
  int exit_code = -1;
  std::string out, err;
};

// The dry runs, two at a time (each traces its runner in bash), in the checkouts by repository.
std::vector<Planned> plan_all(const std::vector<const RecordedRun*>& runs,
                              const std::map<std::string, fs::path>& checkouts) {
  std::vector<Planned> planned(runs.size());
  const auto plan_from = [&](std::size_t first) {
    const test::TempDir capture;
    for (std::size_t i = first; i < runs.size(); i += 2) {
      const RecordedRun& run = *runs[i];
      const fs::path cwd = checkouts.at(run.repo) / run.run_dir;
      const std::string out = (capture.path() / "out").string(), err = (capture.path() / "err").string();
      const std::string command =
          fmt::format("cd {} && TIPC_TRACE_CACHE={} {} {} {} --dry-run --format jsonl >{} 2>{} </dev/null",
                      test::shell_quote(cwd.string()), test::shell_quote(test::shared_trace_cache()),
                      test::shell_quote(test::tipc_run_binary()), test::shell_quote(run.config),
                      test::shell_quote(run.mode), test::shell_quote(out), test::shell_quote(err));
      const int status = std::system(command.c_str());
      planned[i] = {WIFEXITED(status) ? WEXITSTATUS(status) : -1, test::slurp(out), test::slurp(err)};
    }
  };
  auto second = std::async(std::launch::async, plan_from, 1);
  plan_from(0);
  second.get();
  return planned;
}

// Which runs are planned: by default the shared sample (about every third, the runs the other
// replays trace: support/corpus_share.h), and the first of each repository and MODE, so that
// each runner meets each of its MODEs.
std::vector<const RecordedRun*> sample(const std::vector<RecordedRun>& runs) {
  const bool all = test::env_flag("TIPC_CONFORMANCE_EVERY_RUN");
  std::set<std::string> seen;
  std::vector<const RecordedRun*> taken;
  for (const auto& run : runs) {
    const bool first_of_its_kind = seen.insert(run.repo + " " + run.mode).second;
    const std::string config = (fs::path(run.run_dir) / run.config).lexically_normal().string();
    if (all || first_of_its_kind || test::in_shared_sample(run.repo, config, run.mode)) taken.push_back(&run);
  }
  return taken;
}

struct Tally {
  std::map<std::string, int> counts;  // "comparable matched", "not comparable refused", ...
  std::vector<std::string> failures;
};

// A run whose runner started no program (the recording has no call: a config with nothing in
// that MODE, or a runner that died first) must be refused, with the reason; every other
// comparable run must be planned with the recorded calls.
void judge(const RecordedRun& run, const Planned& planned, const std::string& root, Tally& tally) {
  const bool started_nothing = run.calls.empty();
  const std::string side = started_nothing ? "started nothing, " : run.comparable ? "comparable " : "not comparable ";
  if (planned.exit_code != 0) {
    ++tally.counts[side + "refused"];
    if (planned.err.find("error:") == std::string::npos) {
      tally.failures.push_back(
          fmt::format("{} ({}): refused without an error naming why:\n{}", run.id, run.mode, planned.err));
    } else if (run.comparable && !started_nothing) {
      tally.failures.push_back(
          fmt::format("{} ({}): refused (exit {}):\n{}", run.id, run.mode, planned.exit_code, planned.err));
    }
    return;
  }
  const auto got = planned_calls(planned.out, root, run.run_dir);
  ++tally.counts[side + (got == run.calls ? "matched" : "differs")];
  if (started_nothing && got.empty()) {
    tally.failures.push_back(fmt::format("{} ({}): the runner started no program, and the plan was not refused:\n{}",
                                         run.id, run.mode, planned.out));
  } else if (run.comparable && got != run.calls) {
    tally.failures.push_back(fmt::format("{} ({}): python calls differ\n  recorded:{}\n  planned:{}", run.id, run.mode,
                                         describe(run.calls), describe(got)));
  }
}

void plan_corpus(const std::string& name) {
  const fs::path corpus = fs::path(test::shared_dir()) / name;
  if (!fs::exists(corpus)) GTEST_SKIP() << "DEFAULT-MODE CONFORMANCE NOT CHECKED: " << corpus << " is missing";
  const auto runs = recorded_runs(corpus);
  const auto taken = sample(runs);
  std::map<std::string, fs::path> checkouts;
  for (const auto* run : taken) {
    if (!checkouts.contains(run->repo)) checkouts[run->repo] = test::shared_checkout(corpus, run->repo);
  }
  const auto planned = plan_all(taken, checkouts);
  Tally tally;
  for (std::size_t i = 0; i < taken.size(); ++i)
    judge(*taken[i], planned[i], checkouts.at(taken[i]->repo).string(), tally);
  std::string counts;
  for (const auto& [what, n] : tally.counts) counts += fmt::format("{}{} {}", counts.empty() ? "" : ", ", n, what);
  std::cout << fmt::format(
      "[ default  ] {}: {} of {} runs planned in the default mode{}: {}\n", name, taken.size(), runs.size(),
      taken.size() < runs.size() ? " (a sample: TIPC_CONFORMANCE_EVERY_RUN=1 plans every one)" : "", counts);
  for (std::size_t i = 0; i < tally.failures.size() && i < 10; ++i) ADD_FAILURE() << tally.failures[i];
  EXPECT_TRUE(tally.failures.empty()) << tally.failures.size() << " runs failed";
  EXPECT_GT(tally.counts["comparable matched"], 0);
  EXPECT_EQ(tally.counts["comparable refused"], 0);
}

TEST(DefaultModeConformance, TipcCorpus) { plan_corpus("tipc-corpus"); }
TEST(DefaultModeConformance, TipcCorpusLongtail) { plan_corpus("tipc-corpus-longtail"); }

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::cli
