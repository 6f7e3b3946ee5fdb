// The checks' --json files, as the real commands write them, read into report rows.
#include "report/check_details.h"

#include <gtest/gtest.h>

#include <sstream>

#include "cli/compare_results_command.h"
#include "cli/diff_command.h"
#include "cli/init_check_command.h"
#include "support/npy_file.h"
#include "support/run_binary.h"
#include "support/temp_dir.h"

namespace tipc::report {
namespace {
namespace TIPC_TEST_FILE {

class CheckDetailsTest : public ::testing::Test {
 protected:
  // Runs a check command and reads back the JSON file it wrote.
  nlohmann::ordered_json run(int (*command)(const std::vector<std::string>&, std::ostream&, std::ostream&),
                             std::vector<std::string> args) {
    std::ostringstream out, err;
    args.insert(args.end(), {"--json", path("check.json")});
    command(args, out, err);
    return nlohmann::ordered_json::parse(test::slurp(path("check.json")));
  }
  std::string path(const std::string& name) const { return (dir_.path() / name).string(); }

  test::TempDir dir_;
};

TEST_F(CheckDetailsTest, DiffGivesEveryStatisticAgainstTheThreshold) {
  dir_.write("a.npz", test::npz({{"logits", test::npy_float32({1, 2, 3, 4})}}));
  dir_.write("b.npz", test::npz({{"logits", test::npy_float32({1, 2, 3, 4.5})}}));
  const auto json = run(cli::diff_main, {path("a.npz"), path("b.npz"), "--method", "mean,max", "--threshold", "0.2"});
  const auto details = check_details_from_json(plan::CheckKind::kDiff, json, "check.json", dir_.path().string());
  ASSERT_TRUE(details) << details.error().str();
  EXPECT_EQ(details->kind, CheckKind::kDiff);
  EXPECT_FALSE(details->passed);
  ASSERT_EQ(details->values.size(), 2u);
  EXPECT_EQ(details->values[0].label, "logits: mean");
  EXPECT_DOUBLE_EQ(details->values[0].value, 0.125);
  EXPECT_EQ(details->values[0].limit, 0.2);
  EXPECT_TRUE(details->values[0].passed);
  EXPECT_DOUBLE_EQ(details->values[1].value, 0.5);
  EXPECT_FALSE(details->values[1].passed);
  EXPECT_EQ(details->compared_files, (std::vector<std::string>{path("a.npz"), path("b.npz")}));
}

TEST_F(CheckDetailsTest, CompareResultsGivesEveryKeysWorstElementAgainstItsTolerance) {
  dir_.write("results/python_m_results_fp32.txt", "Metric psnr: 27.3670\nMetric ssim: 0.8021\n");
  dir_.write("output/metric_fp32.txt", "Metric psnr: 27.5\n");
  dir_.write("output/metric.txt", "Metric psnr: 27.3670\n");
  const auto json = run(cli::compare_results_main,
                        {"--format", "metric", "--gt", path("results/*.txt"), "--log", path("output/*.txt")});
  const auto details = check_details_from_json(plan::CheckKind::kCompareResults, json, "check.json", "/");
  ASSERT_TRUE(details) << details.error().str();
  EXPECT_FALSE(details->passed);
  ASSERT_EQ(details->values.size(), 2u);
  EXPECT_EQ(details->values[0].label, "metric_fp32.txt: Metric psnr");
  EXPECT_NEAR(details->values[0].value, 0.133, 1e-9);
  ASSERT_TRUE(details->values[0].limit);
  EXPECT_GT(*details->values[0].limit, 0.0);
  EXPECT_FALSE(details->values[0].passed);
  EXPECT_EQ(details->values[1].label, "metric_fp32.txt: Metric ssim");  // missing from the log
  EXPECT_TRUE(std::isnan(details->values[1].value));
  EXPECT_FALSE(details->values[1].passed);
  ASSERT_FALSE(details->notes.empty());  // the log without a precision in its name was skipped
  EXPECT_NE(details->notes[0].find("output/metric.txt: SKIPPED"), std::string::npos) << details->notes[0];
}

TEST_F(CheckDetailsTest, InitCheckGivesTheKsStatisticAndBothHistograms) {
  dir_.write("a.npy", test::npy_float32({0.1f, -0.2f, 0.3f, 0.05f, -0.1f, 0.2f}));
  dir_.write("b.npy", test::npy_float32({0.15f, -0.1f, 0.25f, 0.0f, -0.2f, 0.1f}));
  const auto json = run(cli::init_check_main, {path("a.npy"), path("b.npy"), "--bins", "4"});
  const auto details = check_details_from_json(plan::CheckKind::kInitCheck, json, "check.json", "/");
  ASSERT_TRUE(details) << details.error().str();
  EXPECT_EQ(details->kind, CheckKind::kInitCheck);
  ASSERT_EQ(details->values.size(), 1u);
  EXPECT_EQ(details->values[0].label, "KS");
  EXPECT_EQ(details->values[0].value, json["keys"][0]["ks_statistic"].get<double>());
  EXPECT_EQ(details->values[0].limit, json["keys"][0]["ks_limit"].get<double>());
  EXPECT_EQ(details->passed, details->values[0].passed);
  ASSERT_EQ(details->histograms.size(), 1u);
  EXPECT_EQ(details->histograms[0].edges.size(), 5u);
  EXPECT_EQ(details->histograms[0].reference.size(), 4u);
  EXPECT_EQ(details->histograms[0].candidate.size(), 4u);
}

TEST_F(CheckDetailsTest, AFileOfAnotherShapeSaysWhichField) {
  dir_.write("a.npy", test::npy_float32({0.1f, -0.2f, 0.3f, 0.05f}));
  auto json = run(cli::init_check_main, {path("a.npy"), path("a.npy")});
  json["keys"][0].erase("ks_limit");
  const auto details = check_details_from_json(plan::CheckKind::kInitCheck, json, "check.json", "/");
  ASSERT_FALSE(details);
  EXPECT_NE(details.error().str().find("check.json"), std::string::npos) << details.error().str();
  EXPECT_NE(details.error().str().find("keys[0].ks_limit"), std::string::npos) << details.error().str();
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::report
