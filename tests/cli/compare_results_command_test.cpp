// `tipc-run compare-results`, run as a user would, on the demo's ground truth and logs made
// from it in a scratch directory.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "support/run_binary.h"
#include "support/temp_dir.h"

namespace tipc::test {
namespace {
namespace TIPC_TEST_FILE {

const std::string kFp32Log = "output/python_infer_cpu_usemkldnn_False_threads_1_precision_fp32_batchsize_1.log";

// A ground truth in the demo's format (24 images, `[class id, score]`); fixed here, so the
// demo's own file can be recorded again without touching these tests.
std::string demo_ground_truth() {
  return "./lite_data/alexnet/test/circle/circle_000.ppm\t[0, 0.913780]\n"
         "./lite_data/alexnet/test/circle/circle_001.ppm\t[0, 0.790844]\n"
         "./lite_data/alexnet/test/circle/circle_002.ppm\t[0, 0.842999]\n"
         "./lite_data/alexnet/test/circle/circle_003.ppm\t[0, 0.801778]\n"
         "./lite_data/alexnet/test/circle/circle_004.ppm\t[0, 0.892857]\n"
         "./lite_data/alexnet/test/circle/circle_005.ppm\t[0, 0.822928]\n"
         "./lite_data/alexnet/test/cross/cross_000.ppm\t[1, 0.924367]\n"
         "./lite_data/alexnet/test/cross/cross_001.ppm\t[1, 0.898996]\n"
         "./lite_data/alexnet/test/cross/cross_002.ppm\t[1, 0.958905]\n"
         "./lite_data/alexnet/test/cross/cross_003.ppm\t[1, 0.990208]\n"
         "./lite_data/alexnet/test/cross/cross_004.ppm\t[1, 0.987923]\n"
         "./lite_data/alexnet/test/cross/cross_005.ppm\t[1, 0.870635]\n"
         "./lite_data/alexnet/test/hstripes/hstripes_000.ppm\t[2, 0.997641]\n"
         "./lite_data/alexnet/test/hstripes/hstripes_001.ppm\t[2, 0.999886]\n"
         "./lite_data/alexnet/test/hstripes/hstripes_002.ppm\t[2, 0.999980]\n"
         "./lite_data/alexnet/test/hstripes/hstripes_003.ppm\t[2, 0.984654]\n"
         "./lite_data/alexnet/test/hstripes/hstripes_004.ppm\t[2, 0.999937]\n"
         "./lite_data/alexnet/test/hstripes/hstripes_005.ppm\t[2, 0.999822]\n"
         "./lite_data/alexnet/test/vstripes/vstripes_000.ppm\t[3, 1.000000]\n"
         "./lite_data/alexnet/test/vstripes/vstripes_001.ppm\t[3, 1.000000]\n"
         "./lite_data/alexnet/test/vstripes/vstripes_002.ppm\t[3, 1.000000]\n"
         "./lite_data/alexnet/test/vstripes/vstripes_003.ppm\t[3, 0.999824]\n"
         "./lite_data/alexnet/test/vstripes/vstripes_004.ppm\t[3, 1.000000]\n"
         "./lite_data/alexnet/test/vstripes/vstripes_005.ppm\t[3, 1.000000]\n";
}

// What the demo's infer.py prints for each ground-truth line: `infer result (<class>): <path>\t<result>`.
std::string demo_log(const std::string& truth) {
  std::istringstream lines(truth);
  std::string log = "loading the model\n", line;
  while (std::getline(lines, line)) {
    const std::string path = line.substr(0, line.find('\t'));
    const std::string folder = path.substr(0, path.rfind('/'));
    log += "infer result (" + folder.substr(folder.rfind('/') + 1) + "): " + line + "\n";
  }
  return log;
}

std::string replace_once(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return text.replace(at, from.size(), to);
}

std::string remove_line_with(std::string text, const std::string& key) {
  const auto at = text.find(key);
  EXPECT_NE(at, std::string::npos) << key;
  const auto start = text.rfind('\n', at) + 1;
  return text.erase(start, text.find('\n', at) + 1 - start);
}

class CompareResultsCommand : public ::testing::Test {
 protected:
  void SetUp() override {
    truth_ = demo_ground_truth();
    ASSERT_FALSE(truth_.empty());
    dir_.write("results/python_alexnet_results_fp32.txt", truth_);
  }

  RunResult compare(std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {"compare-results", "--gt", "results/python_*.txt", "--log", "output/*.log"};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_tipc(dir_.path().string(), args);
  }

  std::string truth_;
  TempDir dir_;
};

TEST_F(CompareResultsCommand, TheDemoLogMatchesItsGroundTruth) {
  dir_.write(kFp32Log, demo_log(truth_));
  const auto result = compare();
  EXPECT_EQ(result.exit_code, 0) << result.out << result.err;
  EXPECT_NE(result.out.find("PASS    " + kFp32Log + " (vs results/python_alexnet_results_fp32.txt, 24 keys)\n"),
            std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("tipc-run compare-results: 1 passed, 0 failed, 0 skipped (atol 0.001, rtol 0.001)\n"),
            std::string::npos)
      << result.out;
}

TEST_F(CompareResultsCommand, EveryFailingKeyAndEverySkippedLogIsReported) {
  std::string log = replace_once(demo_log(truth_), "[0, 0.913780]", "[0, 0.953780]");
  log = remove_line_with(log, "circle_001.ppm");
  dir_.write(kFp32Log, log);
  dir_.write("output/python_infer_cpu_batchsize_1.log", demo_log(truth_));
  dir_.write("output/python_infer_gpu_precision_fp16_batchsize_1.log", demo_log(truth_));
  const auto result = compare();
  EXPECT_EQ(result.exit_code, 1) << result.out << result.err;
  EXPECT_NE(result.out.find("FAIL    " + kFp32Log +
                            " (vs results/python_alexnet_results_fp32.txt, 24 keys): 2 of 24 keys failed "
                            "(1 not in the log)\n"),
            std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("    FAIL    circle_000.ppm: 1 of 2 elements differ; worst at [1]: |gt - pred| = "
                            "|0.91378 - 0.95378| = 0.039999999999999925 > 0.00195378; gt [0, 0.913780] (line 1), "
                            "pred [0, 0.953780] (line 2)\n"),
            std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("    MISSING circle_001.ppm: not in the log; gt [0, 0.790844] (line 2)\n"),
            std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("SKIPPED output/python_infer_cpu_batchsize_1.log: no precision (fp32, fp16 or int8) in "
                            "the file name\n"),
            std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("SKIPPED output/python_infer_gpu_precision_fp16_batchsize_1.log: no fp16 ground truth "
                            "(found: fp32 results/python_alexnet_results_fp32.txt)\n"),
            std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("0 passed, 1 failed, 2 skipped"), std::string::npos) << result.out;
}

TEST_F(CompareResultsCommand, AWiderToleranceAcceptsTheSameLog) {
  dir_.write(kFp32Log, replace_once(demo_log(truth_), "[0, 0.913780]", "[0, 0.953780]"));
  EXPECT_EQ(compare().exit_code, 1);
  const auto wider = compare({"--atol", "0.05"});
  EXPECT_EQ(wider.exit_code, 0) << wider.out;
  EXPECT_NE(wider.out.find("(atol 0.05, rtol 0.001)"), std::string::npos) << wider.out;
}

TEST_F(CompareResultsCommand, LabelsAcceptOtherScoresButNotAnotherClassOrANonFiniteScore) {
  dir_.write(kFp32Log, replace_once(demo_log(truth_), "[0, 0.913780]", "[0, 0.453780]"));
  auto result = compare({"--compare", "labels", "--json", "labels.json"});
  EXPECT_EQ(result.exit_code, 0) << result.out << result.err;
  EXPECT_NE(result.out.find("1 passed, 0 failed, 0 skipped (labels: integers equal, other numbers finite)\n"),
            std::string::npos)
      << result.out;
  const auto json = nlohmann::json::parse(slurp((dir_.path() / "labels.json").string()));
  EXPECT_EQ(json["compare"], "labels");
  EXPECT_EQ(json["atol"], nullptr) << "no tolerance applies";
  EXPECT_EQ(json["logs"][0]["max_abs_diff"], 0.0) << "only class ids are compared";

  dir_.write(kFp32Log, replace_once(demo_log(truth_), "[0, 0.913780]", "[2, 0.913780]"));
  result = compare({"--compare", "labels"});
  EXPECT_EQ(result.exit_code, 1) << result.out << result.err;
  EXPECT_NE(result.out.find("    FAIL    circle_000.ppm: 1 of 2 elements differ; worst at [0]: |gt - pred| = "
                            "|0.0 - 2.0| = 2.0 > 0.0;"),
            std::string::npos)
      << result.out;

  dir_.write(kFp32Log, replace_once(demo_log(truth_), "[0, 0.913780]", "[0, NaN]"));
  result = compare({"--compare", "labels"});
  EXPECT_EQ(result.exit_code, 1) << result.out << result.err;
  EXPECT_NE(
      result.out.find("    FAIL    circle_000.ppm: 1 of 2 elements differ; worst at [1]: pred nan is not finite;"),
      std::string::npos)
      << result.out;
}

TEST_F(CompareResultsCommand, ToleranceWithLabelsOrAnUnknownComparisonIsAUsageError) {
  dir_.write(kFp32Log, demo_log(truth_));
  auto result = compare({"--compare", "labels", "--atol", "0.1"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("--atol and --rtol apply to --compare allclose, not labels"), std::string::npos)
      << result.err;
  result = compare({"--compare", "scores"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("--compare"), std::string::npos) << result.err;
  EXPECT_EQ(compare({"--compare", "allclose", "--atol", "0.1"}).exit_code, 0);
}

TEST_F(CompareResultsCommand, OnlySkippedLogsFail) {
  dir_.write("output/python_infer_cpu_batchsize_1.log", demo_log(truth_));
  const auto result = compare();
  EXPECT_EQ(result.exit_code, 1) << result.out << result.err;
  EXPECT_NE(result.out.find("0 passed, 0 failed, 1 skipped (atol 0.001, rtol 0.001): no log could be checked\n"),
            std::string::npos)
      << result.out;
}

TEST_F(CompareResultsCommand, JsonHoldsEveryLogAndKey) {
  dir_.write(kFp32Log, replace_once(demo_log(truth_), "[0, 0.913780]", "[0, 0.953780]"));
  dir_.write("output/python_infer_cpu_batchsize_1.log", "");
  const auto result = compare({"--json", "report/compare.json"});
  ASSERT_EQ(result.exit_code, 1) << result.out << result.err;
  const auto json = nlohmann::json::parse(slurp((dir_.path() / "report/compare.json").string()));
  EXPECT_EQ(json["format"], "tipc");
  EXPECT_EQ(json["compare"], "allclose");
  EXPECT_EQ(json["atol"], 1e-3);
  EXPECT_EQ(json["ground_truth"]["fp32"], "results/python_alexnet_results_fp32.txt");
  EXPECT_EQ(json["failed"], 1);
  EXPECT_EQ(json["skipped"], 1);
  EXPECT_EQ(json["exit_code"], 1);
  ASSERT_EQ(json["logs"].size(), 2u);  // in glob order
  const auto& failed = json["logs"][1];
  EXPECT_EQ(failed["log"], kFp32Log);
  EXPECT_EQ(failed["status"], "FAIL");
  EXPECT_EQ(failed["precision"], "fp32");
  EXPECT_NEAR(failed["max_abs_diff"].get<double>(), 0.04, 1e-12);
  ASSERT_EQ(failed["keys"].size(), 24u);
  const auto& key = failed["keys"][0];
  EXPECT_EQ(key["key"], "circle_000.ppm");
  EXPECT_EQ(key["status"], "FAIL");
  EXPECT_EQ(key["gt_line"], 1);
  EXPECT_EQ(key["log_line"], 2);
  EXPECT_EQ(key["pred"], "[0, 0.953780]");
  EXPECT_EQ(key["mismatched"], 1);
  EXPECT_EQ(key["worst"]["index"], nlohmann::json::array({1}));
  EXPECT_NEAR(key["worst"]["tolerance"].get<double>(), 0.00195378, 1e-12);
  EXPECT_EQ(failed["keys"][1]["status"], "PASS");
  const auto& skipped = json["logs"][0];
  EXPECT_EQ(skipped["status"], "SKIPPED");
  EXPECT_EQ(skipped["precision"], nullptr);
  EXPECT_EQ(skipped["ground_truth"], nullptr);
  EXPECT_EQ(skipped["keys"].size(), 0u);
}

TEST_F(CompareResultsCommand, BadInputIsExitTwoAndSaysWhere) {
  dir_.write(kFp32Log, demo_log(truth_));
  auto result = run_tipc(dir_.path().string(), {"compare-results", "--gt", "nothing/*.txt", "--log", "output/*.log"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("no file matches the ground-truth glob 'nothing/*.txt'"), std::string::npos) << result.err;

  result = run_tipc(dir_.path().string(), {"compare-results", "--gt", "results/*.txt", "--log", "output/*.txt"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("no file matches the log glob 'output/*.txt'"), std::string::npos) << result.err;

  dir_.write("fp16_only/python_alexnet_results_fp16.txt", truth_);
  dir_.write("fp16_only/notes.txt", "");
  result = run_tipc(dir_.path().string(), {"compare-results", "--gt", "fp16_only/*", "--log", "output/*.log"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("no fp32 ground truth (a file with fp32 in its name) among the files the ground-truth "
                            "glob matched: fp16_only/notes.txt, fp16_only/python_alexnet_results_fp16.txt"),
            std::string::npos)
      << result.err;

  dir_.write("results/python_alexnet_results_fp32.txt", truth_ + "./lite_data/extra.ppm [0, 1]\n");
  result = compare();
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("results/python_alexnet_results_fp32.txt:25: expected `<image path>\\t<result>` with "
                            "exactly one TAB, found 0"),
            std::string::npos)
      << result.err;

  dir_.write("results/python_alexnet_results_fp32.txt", truth_);
  dir_.write(kFp32Log, replace_once(demo_log(truth_), "[0, 0.913780]", "[0, 0.91 oops"));
  result = compare();
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find(kFp32Log + ":2: the result of 'circle_000.ppm' is neither a JSON list of numbers"),
            std::string::npos)
      << result.err;
}

TEST(CompareResultsFormats, PaddleVideoTopOneLines) {
  TempDir dir;
  dir.write("results/PP-TSM/python_ppvideo_PP-TSM_results_fp32.txt",
            "Current video file: ./data/example.avi\n"
            "        top-1 class: 5\n"
            "        top-1 score: 0.9907386302947998\n");
  dir.write("output/python_infer_gpu_precision_fp32_batchsize_1.log",
            "Current video file: ./data/example.avi\n\ttop-1 class: 5\n\ttop-1 score: 0.99074\n");
  dir.write("output/python_infer_cpu_precision_fp32_batchsize_1.log",
            "Current video file: ./data/example.avi\n\ttop-1 class: 7\n\ttop-1 score: 0.99074\n");
  const auto result = run_tipc(dir.path().string(), {"compare-results", "--format", "video", "--gt",
                                                     "results/PP-TSM/*.txt", "--log", "output/*.log"});
  EXPECT_EQ(result.exit_code, 1) << result.out << result.err;
  EXPECT_NE(result.out.find("FAIL    output/python_infer_cpu_precision_fp32_batchsize_1.log"), std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("    FAIL    top-1 class: 1 of 1 elements differ; worst: |gt - pred| = |5.0 - 7.0| = 2.0"),
            std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("PASS    output/python_infer_gpu_precision_fp32_batchsize_1.log"), std::string::npos)
      << result.out;
}

TEST(CompareResultsFormats, MetricNameValueLines) {
  TempDir dir;
  dir.write("results/python_msvsr_results_fp32.txt", "Metric psnr: 27.3670\nMetric ssim: 0.8021\n");
  dir.write("output/msvsr/metric_fp32.txt", "Metric psnr: 27.3675\nMetric ssim: 0.8021\n");
  auto result = run_tipc(dir.path().string(),
                         {"compare-results", "--format", "metric", "--gt", "results/*.txt", "--log", "output/*/*.txt"});
  EXPECT_EQ(result.exit_code, 0) << result.out << result.err;
  EXPECT_NE(result.out.find("PASS    output/msvsr/metric_fp32.txt"), std::string::npos) << result.out;
  dir.write("output/msvsr/metric_fp32.txt", "Metric psnr: 26.1\n");
  result = run_tipc(dir.path().string(),
                    {"compare-results", "--format", "metric", "--gt", "results/*.txt", "--log", "output/*/*.txt"});
  EXPECT_EQ(result.exit_code, 1) << result.out << result.err;
  EXPECT_NE(result.out.find("    MISSING Metric ssim: not in the log"), std::string::npos) << result.out;
}

TEST(CompareResultsUsage, AnUnknownFormatIsAUsageError) {
  TempDir dir;
  const auto result = run_tipc(dir.path().string(), {"compare-results", "--gt", "a", "--log", "b", "--format", "seg"});
  EXPECT_EQ(result.exit_code, 2);
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::test
