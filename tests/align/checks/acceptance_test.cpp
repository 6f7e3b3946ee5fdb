// `tipc-run acceptance DIR`: the five reprod_log checks of a paper reproduction, on a
// reproduction folder built from the real alexnet_* reprod_log samples (copied under the
// guide's file names; a "perturbed" candidate is a copy with its float32 value patched).
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include "align/checks/acceptance.h"
#include "cli/acceptance_command.h"
#include "core/error.h"
#include "support/align_samples.h"
#include "support/run_binary.h"
#include "support/tar_file.h"
#include "support/temp_dir.h"

namespace tipc::align {
namespace {
namespace TIPC_TEST_FILE {

namespace fs = std::filesystem;

std::string sample(const std::string& name) { return test::slurp(test::align_samples_dir() + "/" + name); }

// alexnet_top1.npy holds {'top1': array([0.5655], dtype=float32)}; its 4 data bytes appear
// once in the pickle, so replacing them gives the same dict with another value.
std::string top1_with(float value) {
  std::string bytes = sample("alexnet_top1.npy");
  const float original = 0.5655f;
  const std::string needle(reinterpret_cast<const char*>(&original), sizeof original);
  const auto at = bytes.find(needle);
  EXPECT_NE(at, std::string::npos);
  EXPECT_EQ(bytes.find(needle, at + 1), std::string::npos);
  std::memcpy(bytes.data() + at, &value, sizeof value);
  return bytes;
}

// Which sample stands in for each check (the keys do not matter to the acceptance logic).
const std::map<std::string, std::string>& sample_for_check() {
  static const std::map<std::string, std::string> samples = {{"forward", "alexnet_top1.npy"},
                                                             {"metric", "alexnet_top1.npy"},
                                                             {"loss", "alexnet_lr.npy"},
                                                             {"bp_align", "alexnet_bp_align.npy"},
                                                             {"train_align", "alexnet_top1.npy"}};
  return samples;
}

// Writes all five pairs with the guide's names (torch / benchmark first) under `folder`.
void write_reproduction(const test::TempDir& dir, const std::string& folder = "") {
  const std::string prefix = folder.empty() ? "" : folder + "/";
  for (const auto& [check, file] : sample_for_check()) {
    const std::string reference = check == "train_align" ? "_benchmark.npy" : "_torch.npy";
    dir.write(prefix + check + reference, sample(file));
    dir.write(prefix + check + "_paddle.npy", sample(file));
  }
}

struct CommandRun {
  int exit_code = -1;
  std::string out, err;
};

CommandRun acceptance(const std::vector<std::string>& args) {
  std::ostringstream out, err;
  CommandRun run;
  run.exit_code = cli::acceptance_main(args, out, err);
  run.out = out.str();
  run.err = err.str();
  return run;
}

// The summary table's row for `check` (rows start with the check name).
std::string row_of(const std::string& table, const std::string& check) {
  std::istringstream lines(table);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind(check + " ", 0) == 0) return line;
  }
  return "";
}

bool row_ends_with(const std::string& table, const std::string& check, const std::string& status) {
  const std::string row = row_of(table, check);
  return row.size() >= status.size() && row.compare(row.size() - status.size(), status.size(), status) == 0;
}

const std::vector<std::string> kChecks = {"forward", "metric", "loss", "bp_align", "train_align"};

TEST(AcceptanceCommand, AllFivePassExitZeroAndWriteFiveLogs) {
  SKIP_WITHOUT_ALIGN_SAMPLES();
  test::TempDir dir;
  write_reproduction(dir);
  const auto run = acceptance({dir.path().string()});
  EXPECT_EQ(run.exit_code, kExitPassed) << run.out << run.err;
  for (const std::string& check : kChecks) {
    EXPECT_TRUE(row_ends_with(run.out, check, "PASS")) << run.out;
    const fs::path log = dir.path() / (check + "_diff.log");
    ASSERT_TRUE(fs::exists(log)) << log;
    EXPECT_NE(test::slurp(log.string()).find("root INFO: diff check passed"), std::string::npos);
  }
  EXPECT_NE(row_of(run.out, "train_align").find("0.0015"), std::string::npos) << run.out;
  EXPECT_NE(row_of(run.out, "forward").find("forward_torch.npy vs forward_paddle.npy"), std::string::npos);
  // Logs are the only thing written: no temp files are left behind.
  for (const auto& entry : fs::directory_iterator(dir.path()))
    EXPECT_EQ(entry.path().string().find(".tmp."), std::string::npos) << entry.path();
}

TEST(AcceptanceCommand, PerturbedPairFailsThatRowAndExitsOne) {
  SKIP_WITHOUT_ALIGN_SAMPLES();
  test::TempDir dir;
  write_reproduction(dir);
  dir.write("metric_paddle.npy", top1_with(0.5755f));  // 0.01 off
  const auto run = acceptance({dir.path().string()});
  EXPECT_EQ(run.exit_code, kExitFailed) << run.out << run.err;
  EXPECT_TRUE(row_ends_with(run.out, "metric", "FAIL")) << run.out;
  for (const char* check : {"forward", "loss", "bp_align", "train_align"})
    EXPECT_TRUE(row_ends_with(run.out, check, "PASS")) << run.out;
  const std::string log = test::slurp((dir.path() / "metric_diff.log").string());
  EXPECT_NE(log.find("mean diff: check passed: False"), std::string::npos) << log;
  EXPECT_NE(log.find("diff check failed"), std::string::npos) << log;
  EXPECT_NE(run.err.find("metric FAIL: top1"), std::string::npos) << run.err;
}

TEST(AcceptanceCommand, MissingPairIsReportedWithTheNamesLookedFor) {
  SKIP_WITHOUT_ALIGN_SAMPLES();
  test::TempDir dir;
  write_reproduction(dir);
  fs::remove(dir.path() / "loss_paddle.npy");
  const auto run = acceptance({dir.path().string()});
  EXPECT_EQ(run.exit_code, kExitFailed);
  EXPECT_TRUE(row_ends_with(run.out, "loss", "MISSING")) << run.out;
  EXPECT_NE(run.err.find("loss_torch.npy, loss_pytorch.npy or loss_benchmark.npy"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("loss_paddle.npy"), std::string::npos) << run.err;
  EXPECT_FALSE(fs::exists(dir.path() / "loss_diff.log"));
  EXPECT_TRUE(fs::exists(dir.path() / "forward_diff.log"));
}

TEST(AcceptanceFind, TorchPytorchAndBenchmarkSpellingsAndSubFoldersAreFound) {
  SKIP_WITHOUT_ALIGN_SAMPLES();
  test::TempDir dir;
  dir.write("log_reprod/forward_pytorch.npy", sample("alexnet_top1.npy"));
  dir.write("log_reprod/forward_paddle.npy", sample("alexnet_top1.npy"));
  dir.write("diff/train_align_torch.npy", sample("alexnet_top1.npy"));
  dir.write("diff/train_align_paddle.npy", sample("alexnet_top1.npy"));
  dir.write("metric_torch.npy", sample("alexnet_top1.npy"));
  dir.write("metric_paddle.npy", sample("alexnet_top1.npy"));
  const auto checks = default_acceptance_checks();
  ASSERT_EQ(checks.size(), 5u);
  const auto forward = find_pair(dir.path().string(), checks[0]);
  ASSERT_TRUE(forward);
  EXPECT_EQ(fs::path(forward->reference).filename(), "forward_pytorch.npy");
  const auto metric = find_pair(dir.path().string(), checks[1]);
  ASSERT_TRUE(metric);
  EXPECT_EQ(fs::path(metric->reference).filename(), "metric_torch.npy");
  const auto train = find_pair(dir.path().string(), checks[4]);
  ASSERT_TRUE(train);
  EXPECT_EQ(fs::path(train->reference).filename(), "train_align_torch.npy");
  EXPECT_FALSE(find_pair(dir.path().string(), checks[2]));  // loss: nowhere
}

TEST(AcceptanceFind, PairsInTheLogReprodFolderPassTheWholeRun) {
  SKIP_WITHOUT_ALIGN_SAMPLES();
  test::TempDir dir;
  write_reproduction(dir, "log_reprod");
  const auto run = acceptance({dir.path().string()});
  EXPECT_EQ(run.exit_code, kExitPassed) << run.out << run.err;
  EXPECT_TRUE(fs::exists(dir.path() / "bp_align_diff.log"));  // logs go into DIR itself
}

TEST(AcceptanceConfig, ThresholdYamlChangesTheVerdict) {
  SKIP_WITHOUT_ALIGN_SAMPLES();
  test::TempDir dir;
  write_reproduction(dir);
  dir.write("metric_paddle.npy", top1_with(0.5665f));       // 0.001 off: fails 1e-6
  dir.write("train_align_paddle.npy", top1_with(0.5665f));  // within the default 0.0015
  const auto strict = acceptance({dir.path().string()});
  EXPECT_EQ(strict.exit_code, kExitFailed);
  EXPECT_TRUE(row_ends_with(strict.out, "metric", "FAIL")) << strict.out;
  EXPECT_TRUE(row_ends_with(strict.out, "train_align", "PASS")) << strict.out;

  const std::string relaxed = dir.write("relaxed.yaml", "acceptance:\n  metric: 0.01\n");
  const auto run = acceptance({dir.path().string(), "--config", relaxed});
  EXPECT_EQ(run.exit_code, kExitPassed) << run.out << run.err;
  EXPECT_TRUE(row_ends_with(run.out, "metric", "PASS")) << run.out;

  const std::string tighter = dir.write("tight.yaml", "acceptance: {train_align: 1e-4}\n");
  const auto tight = acceptance({dir.path().string(), "--config", tighter});
  EXPECT_EQ(tight.exit_code, kExitFailed);
  EXPECT_TRUE(row_ends_with(tight.out, "train_align", "FAIL")) << tight.out;
}

TEST(AcceptanceConfig, UnknownKeyIsUsageErrorNamingFileAndLine) {
  SKIP_WITHOUT_ALIGN_SAMPLES();
  test::TempDir dir;
  write_reproduction(dir);
  const std::string config = dir.write("bad.yaml", "acceptance:\n  forward: 1e-6\n  metrc: 1e-6\n");
  const auto run = acceptance({dir.path().string(), "--config", config});
  EXPECT_EQ(run.exit_code, kExitUsage);
  EXPECT_NE(run.err.find(config + ":3: unknown check 'acceptance.metrc'"), std::string::npos) << run.err;
  EXPECT_FALSE(fs::exists(dir.path() / "forward_diff.log"));  // nothing ran
}

TEST(AcceptanceConfig, BadValuesAndTopLevelKeysAreRejected) {
  test::TempDir dir;
  const auto with = [&](const std::string& text) {
    return apply_threshold_file(default_acceptance_checks(), dir.write("t.yaml", text));
  };
  const auto not_number = with("acceptance:\n  loss: small\n");
  ASSERT_FALSE(not_number);
  EXPECT_EQ(not_number.error().diagnostics.at(0).line, 2);
  EXPECT_FALSE(with("acceptance:\n  loss: -1\n"));
  const auto top = with("thresholds:\n  loss: 1\n");
  ASSERT_FALSE(top);
  EXPECT_EQ(top.error().diagnostics.at(0).line, 1);
  const auto ok = with("acceptance: {bp_align: 1e-5}\n");
  ASSERT_TRUE(ok) << ok.error().str();
  EXPECT_DOUBLE_EQ(ok->at(3).threshold, 1e-5);
  EXPECT_DOUBLE_EQ(ok->at(4).threshold, 0.0015);
}

// An earlier run's log of a pair that is now missing must not pass for this run's.
TEST(AcceptanceCommand, EarlierLogOfAPairNowMissingIsRenamedStale) {
  SKIP_WITHOUT_ALIGN_SAMPLES();
  test::TempDir dir;
  write_reproduction(dir);
  ASSERT_EQ(acceptance({dir.path().string()}).exit_code, kExitPassed);
  const std::string earlier = test::slurp((dir.path() / "loss_diff.log").string());
  fs::remove(dir.path() / "loss_paddle.npy");
  const auto run = acceptance({dir.path().string()});
  EXPECT_EQ(run.exit_code, kExitFailed);
  EXPECT_FALSE(fs::exists(dir.path() / "loss_diff.log"));
  EXPECT_EQ(test::slurp((dir.path() / "loss_diff.log.stale").string()), earlier);
  EXPECT_NE(run.err.find("renamed the earlier run's loss_diff.log to loss_diff.log.stale"), std::string::npos)
      << run.err;
  EXPECT_TRUE(fs::exists(dir.path() / "forward_diff.log"));
}

TEST(AcceptanceCommand, BundleHoldsOnlyTheLogsThisRunWrote) {
  SKIP_WITHOUT_ALIGN_SAMPLES();
  test::TempDir dir;
  write_reproduction(dir);
  ASSERT_EQ(acceptance({dir.path().string()}).exit_code, kExitPassed);
  fs::remove(dir.path() / "metric_torch.npy");
  dir.write("bp_align_paddle.npy", "not a numpy file");  // ERROR: no log this run either
  const std::string bundle = (dir.path() / "out" / "acceptance.tar.gz").string();
  const auto run = acceptance({dir.path().string(), "--bundle", bundle});
  EXPECT_EQ(run.exit_code, kExitUsage) << run.err;
  const auto members = test::read_tar_gz(bundle);
  std::set<std::string> names;
  for (const auto& [name, contents] : members) names.insert(name);
  EXPECT_EQ(names, (std::set<std::string>{"forward_diff.log", "loss_diff.log", "train_align_diff.log"}));
  EXPECT_EQ(members.at("loss_diff.log"), test::slurp((dir.path() / "loss_diff.log").string()));
}

TEST(AcceptanceCommand, AttachedFilesGoIntoTheBundleUnderTheirNames) {
  SKIP_WITHOUT_ALIGN_SAMPLES();
  test::TempDir dir;
  write_reproduction(dir);
  const std::string plot = dir.write("extra/curves.svg", "<svg/>");
  const std::string report = dir.write("extra/padiff.txt", "PASS: no divergence\n");
  const std::string bundle = (dir.path() / "acceptance.tar.gz").string();
  const auto run = acceptance({dir.path().string(), "--bundle", bundle, "--attach", plot, "--attach", report});
  EXPECT_EQ(run.exit_code, kExitPassed) << run.err;
  const auto members = test::read_tar_gz(bundle);
  EXPECT_EQ(members.size(), 7u);
  EXPECT_EQ(members.at("curves.svg"), "<svg/>");
  EXPECT_EQ(members.at("padiff.txt"), "PASS: no divergence\n");
  EXPECT_TRUE(members.count("bp_align_diff.log"));
}

TEST(AcceptanceCommand, AttachingWithoutABundleAMissingFileOrTwoOfOneNameIsAUsageError) {
  SKIP_WITHOUT_ALIGN_SAMPLES();
  test::TempDir dir;
  write_reproduction(dir);
  const std::string plot = dir.write("curves.svg", "<svg/>");
  const std::string twin = dir.write("other/curves.svg", "<svg/>");
  const std::string bundle = (dir.path() / "acceptance.tar.gz").string();
  EXPECT_EQ(acceptance({dir.path().string(), "--attach", plot}).exit_code, kExitUsage);
  EXPECT_EQ(acceptance({dir.path().string(), "--bundle", bundle, "--attach", plot + ".missing"}).exit_code, kExitUsage);
  const auto twins = acceptance({dir.path().string(), "--bundle", bundle, "--attach", plot, "--attach", twin});
  EXPECT_EQ(twins.exit_code, kExitUsage);
  EXPECT_NE(twins.err.find("would both be 'curves.svg' in the bundle"), std::string::npos) << twins.err;
  EXPECT_FALSE(fs::exists(bundle));
}

TEST(AcceptanceCommand, UsageErrorsExitTwo) {
  EXPECT_EQ(acceptance({}).exit_code, kExitUsage);
  EXPECT_EQ(acceptance({"/nonexistent/reproduction"}).exit_code, kExitUsage);
}

TEST(AcceptanceBinary, RealBinaryRunsTheFiveChecks) {
  SKIP_WITHOUT_ALIGN_SAMPLES();
  test::TempDir dir;
  write_reproduction(dir);
  const auto passed = test::run_tipc(dir.path().string(), {"acceptance", "."});
  EXPECT_EQ(passed.exit_code, kExitPassed) << passed.out << passed.err;
  EXPECT_TRUE(row_ends_with(passed.out, "train_align", "PASS")) << passed.out;
  EXPECT_TRUE(fs::exists(dir.path() / "train_align_diff.log"));

  fs::remove(dir.path() / "bp_align_torch.npy");
  const auto missing = test::run_tipc(dir.path().string(), {"acceptance", "."});
  EXPECT_EQ(missing.exit_code, kExitFailed);
  EXPECT_TRUE(row_ends_with(missing.out, "bp_align", "MISSING")) << missing.out;
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::align
