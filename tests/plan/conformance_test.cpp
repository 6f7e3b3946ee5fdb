// Conformance on the recorded corpus (../shared/tipc-corpus, README §8): for every
// comparable run, the compat plan must equal what the repository's own reference
// runner executed — argv, order, cwd, CUDA_VISIBLE_DEVICES, the byte-exact command
// strings, and the status lines of an all-success run.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "compat/reference_planning_rules.h"
#include "dialect/dialect.h"
#include "plan/plan_file.h"
#include "support/golden_trace.h"
#include "support/paths.h"
#include "support/run_binary.h"
#include "support/text_lines.h"
#include "support/traced_corpus.h"

namespace tipc::plan {
namespace {
namespace TIPC_TEST_FILE {
namespace fs = std::filesystem;
using nlohmann::json;
using test::lines_of;

fs::path corpus_dir() { return fs::path(test::shared_dir()) / "tipc-corpus"; }

// The golden data writes the repository root as <REPO_ROOT>; we plan with a real
// absolute path (a '<' in a command would be a shell redirection) and map it back.
const std::string kRoot = "/conformance/repo-root";

std::string with_placeholder(const std::string& text) { return test::replace_all(text, kRoot, "<REPO_ROOT>"); }

struct Invocation {
  std::string argv0;
  std::vector<std::string> argv;
  std::string cwd;
  std::optional<std::string> cuda_visible_devices;
  bool operator==(const Invocation&) const = default;
};

std::string describe(const Invocation& i) {
  return fmt::format("[{}] cwd={} cvd={} {}", i.argv0, i.cwd, i.cuda_visible_devices.value_or("<unset>"),
                     fmt::join(i.argv, " "));
}

std::vector<Invocation> golden_invocations(const fs::path& file) {
  std::vector<Invocation> out;
  for (const auto& line : lines_of(test::slurp(file))) {
    if (line.empty()) continue;
    const json j = json::parse(line);
    Invocation i{j["argv0"], j["argv"].get<std::vector<std::string>>(), j["cwd"], std::nullopt};
    if (!j["cuda_visible_devices"].is_null()) i.cuda_visible_devices = j["cuda_visible_devices"].get<std::string>();
    // The dino pre-step runs outside the string evaluation with a recording artefact as cwd (README §6).
    if (!i.argv.empty() && i.argv[0] == "setup_ms_deformable_attn_op.py") continue;
    out.push_back(i);
  }
  return out;
}

std::vector<Invocation> planned_invocations(const Plan& plan) {
  std::vector<Invocation> out;
  for (const auto& stage : plan.stages) {
    Invocation i{stage.argv.empty() ? "" : stage.argv[0], {}, stage.cwd, std::nullopt};
    for (std::size_t k = 1; k < stage.argv.size(); ++k) i.argv.push_back(with_placeholder(stage.argv[k]));
    if (auto it = stage.env.find("CUDA_VISIBLE_DEVICES"); it != stage.env.end()) i.cuda_visible_devices = it->second;
    out.push_back(i);
  }
  return out;
}

// A path relative to the repository root (the planner's root, or ./).
std::string from_root(const std::string& path) {
  if (path.starts_with(kRoot + "/")) return path.substr(kRoot.size() + 1);
  return path.starts_with("./") ? path.substr(2) : path;
}

// Whether the recording stub (README §4) left the trainer's own log where the runner
// reads it: for each KEY=VALUE argument under test_tipc/output/ whose last component has
// no '.', it wrote VALUE/train.log and VALUE/<model_name>/train.log. A compat train's
// status line comes from that log (D2 in docs/reference-runner.md), so where the stub wrote none the reference said
// "Run failed".
bool stub_wrote_trainer_log(const Plan& plan, const Stage& stage) {
  if (stage.results_log.trainer_log.empty()) return true;
  const std::string wanted = from_root(stage.results_log.trainer_log);
  for (const auto& word : stage.argv) {
    const auto equals = word.find('=');
    if (equals == std::string::npos) continue;
    const std::string value = from_root(word.substr(equals + 1));
    const std::string last = value.substr(value.find_last_of('/') + 1);
    if (!value.starts_with("test_tipc/output/") || last.find('.') != std::string::npos) continue;
    if (wanted == value + "/train.log" || wanted == value + "/" + plan.model_name + "/train.log") return true;
  }
  return false;
}

std::string status_log(const Plan& plan) {
  std::string out;
  if (!plan.stages.empty() && !plan.banner.empty()) out += plan.banner + "\n";
  for (const auto& stage : plan.stages) {
    out += render_status_line(plan, stage, stub_wrote_trainer_log(plan, stage)).value() + "\n";
  }
  return with_placeholder(out);
}

std::string golden_status_log(const fs::path& file) {
  std::string out;
  for (const auto& line : lines_of(test::slurp(file))) {
    if (!line.starts_with("### ")) out += line + "\n";
  }
  return out;
}

std::string first_difference(const std::vector<std::string>& want, const std::vector<std::string>& got) {
  for (std::size_t k = 0; k < std::max(want.size(), got.size()); ++k) {
    const std::string w = k < want.size() ? want[k] : "<none>";
    const std::string g = k < got.size() ? got[k] : "<none>";
    if (w != g) return fmt::format("#{} of {}/{}\n  want: {}\n  got:  {}", k, want.size(), got.size(), w, g);
  }
  return "";
}

// How many failing runs a test prints in full (TIPC_CONFORMANCE_REPORT overrides, for debugging a dialect).
const int kReportedFailures =
    std::getenv("TIPC_CONFORMANCE_REPORT") ? std::atoi(std::getenv("TIPC_CONFORMANCE_REPORT")) : 5;

struct Tally {
  int argv_pass = 0, argv_fail = 0, cmds_pass = 0, cmds_fail = 0, log_pass = 0, log_fail = 0, commands = 0;
};

// Compares one recorded run; returns the failures found (empty: conforms).
std::vector<std::string> check_run(const fs::path& meta_file, const dialect::Dialect& dialect, Tally& tally) {
  const json meta = json::parse(test::slurp(meta_file));
  const json& corpus = meta["corpus"];
  const std::string base = meta_file.string().substr(0, meta_file.string().size() - std::string(".meta.json").size());
  PlanOptions options;
  options.mode = corpus["mode_arg"];
  options.rules = &tipc::compat::reference_planning_rules();
  options.repo_root = kRoot;
  options.run_dir = corpus["run_dir"];
  const auto text = config::read_config_text((corpus_dir() / corpus["config_file"].get<std::string>()).string());
  if (!text) return {"read failed: " + text.error().str()};
  const auto plan = plan_config(*text, dialect, options);
  if (!plan) return {"plan failed: " + plan.error().str()};
  std::vector<std::string> failures;
  const auto want = golden_invocations(base + ".argv.jsonl");
  const auto got = planned_invocations(*plan);
  tally.commands += static_cast<int>(want.size());
  std::vector<std::string> want_text, got_text;
  for (const auto& i : want) want_text.push_back(describe(i));
  for (const auto& i : got) got_text.push_back(describe(i));
  if (want == got)
    ++tally.argv_pass;
  else {
    ++tally.argv_fail;
    failures.push_back("argv " + first_difference(want_text, got_text));
  }
  std::vector<std::string> shell;
  for (const auto& stage : plan->stages) shell.push_back(with_placeholder(stage.results_log.shell_text));
  auto raw = lines_of(test::slurp(base + ".raw.cmds"));
  std::erase_if(raw, [](const std::string& l) { return l.empty(); });
  if (raw == shell)
    ++tally.cmds_pass;
  else {
    ++tally.cmds_fail;
    failures.push_back("raw.cmds " + first_difference(raw, shell));
  }
  if (corpus["compare"]["results_log"].get<bool>()) {
    const std::string want_log = golden_status_log(base + ".results_python.log");
    const std::string got_log = status_log(*plan);
    if (want_log == got_log)
      ++tally.log_pass;
    else {
      ++tally.log_fail;
      failures.push_back("results_python.log " + first_difference(lines_of(want_log), lines_of(got_log)));
    }
  }
  return failures;
}

void run_repo(const std::string& repo) {
  if (!fs::exists(corpus_dir())) {
    GTEST_SKIP() << "CONFORMANCE NOT CHECKED: " << corpus_dir() << " is missing";
  }
  const auto dialect = test::native_dialect(repo);
  ASSERT_TRUE(dialect) << "no native dialect for " << repo;
  Tally tally;
  int runs = 0, reported = 0;
  std::vector<fs::path> metas;
  for (const auto& entry : fs::directory_iterator(corpus_dir() / "golden" / repo)) {
    if (entry.path().string().ends_with(".meta.json")) metas.push_back(entry.path());
  }
  std::sort(metas.begin(), metas.end());
  for (const auto& meta_file : metas) {
    const json corpus = json::parse(test::slurp(meta_file))["corpus"];
    const bool dino = meta_file.filename().string().find("dino_r50_4scale") != std::string::npos;
    if (!corpus["compare"]["argv"].get<bool>() && !dino) continue;
    ++runs;
    const auto failures = check_run(meta_file, *dialect, tally);
    if (!failures.empty() && reported++ < kReportedFailures) {
      ADD_FAILURE() << meta_file.filename() << "\n" << fmt::format("{}", fmt::join(failures, "\n"));
    }
  }
  std::cout << fmt::format(
      "{} conformance ({} runs, {} commands): argv {} passed, {} failed; raw.cmds {} passed, {} "
      "failed; results_python.log {} passed, {} failed\n",
      repo, runs, tally.commands, tally.argv_pass, tally.argv_fail, tally.cmds_pass, tally.cmds_fail, tally.log_pass,
      tally.log_fail);
  const int passed = tally.argv_pass + tally.cmds_pass + tally.log_pass;
  const int failed = tally.argv_fail + tally.cmds_fail + tally.log_fail;
  std::cout << fmt::format("{}: {} passed, {} failed\n", repo, passed, failed);
  EXPECT_EQ(failed, 0);
  EXPECT_GT(runs, 0);
}

TEST(Conformance, PaddleOCRPlansMatchTheReference) { run_repo("PaddleOCR"); }
TEST(Conformance, PaddleClasPlansMatchTheReference) { run_repo("PaddleClas"); }
TEST(Conformance, PaddleDetectionPlansMatchTheReference) { run_repo("PaddleDetection"); }
TEST(Conformance, PaddleSegPlansMatchTheReference) { run_repo("PaddleSeg"); }
TEST(Conformance, PaddleVideoPlansMatchTheReference) { run_repo("PaddleVideo"); }
TEST(Conformance, PaddleGANPlansMatchTheReference) { run_repo("PaddleGAN"); }
TEST(Conformance, ModelsTemplatePlansMatchTheReference) { run_repo("models"); }

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::plan
