// The demo chain end to end, as README command 1 runs it: real PyTorch training with two
// gloo ranks, eval, export, inference; results checked against the ground truth.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/junit_xml.h"
#include "support/run_binary.h"
#include "support/slurm_cluster.h"
#include "support/tar_file.h"

namespace tipc::demo {
namespace {
namespace fs = std::filesystem;

bool torch_available() { return std::system("/usr/bin/python3 -c 'import torch, cv2' >/dev/null 2>&1") == 0; }

// key (image basename) -> (class id, score), from `infer result` lines or a ground-truth file.
std::map<std::string, std::pair<int, double>> results_in(const std::string& text) {
  static const std::regex kLine(R"((\S+)\t\[(\d+), ([0-9.]+)\])");
  std::map<std::string, std::pair<int, double>> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (!std::regex_search(line, m, kLine)) continue;
    const std::string key = fs::path(m[1].str()).filename();
    if (!out.count(key)) out[key] = {std::stoi(m[2]), std::stod(m[3])};  // the first line with the key counts
  }
  return out;
}

// compare_results semantics: atol = rtol = 1e-3 on the score, the class must be equal.
void expect_matches_ground_truth(const std::string& log, const std::map<std::string, std::pair<int, double>>& truth) {
  const auto got = results_in(test::slurp(log));
  ASSERT_EQ(got.size(), truth.size()) << log;
  for (const auto& [key, want] : truth) {
    ASSERT_TRUE(got.count(key)) << key << " missing in " << log;
    EXPECT_EQ(got.at(key).first, want.first) << key << " in " << log;
    EXPECT_LE(std::abs(got.at(key).second - want.second), 1e-3 + 1e-3 * std::abs(want.second)) << key << " in " << log;
  }
}

// The run's five report files and its bundle (issue 6), built from what the chain logged.
void expect_reports_of_the_cpu_run(const fs::path& out, const fs::path& bundle) {
  const auto report = nlohmann::json::parse(test::slurp(out / "report.json"));
  EXPECT_EQ(report["verdict"], "PARTIAL") << "its GPU stages could not run here";
  EXPECT_EQ(report["counts"]["PASS"], 13);
  EXPECT_EQ(report["counts"]["UNSUPPORTED"], 38);
  std::map<std::string, nlohmann::json> stages;
  for (const auto& stage : report["plans"][0]["stages"]) stages[stage["id"]] = stage;
  const std::string cpu = "norm_train/gpus_-1/autocast_null/";
  const auto& curves = stages[cpu + "train"]["metrics"]["curves"];
  std::map<std::string, std::size_t> points;  // the ranks' lines interleave: their order varies
  for (const auto& curve : curves) points[curve["name"]] = curve["points"].size();
  const std::size_t iterations = 12 * 6;  // 12 epochs of 6 iterations
  EXPECT_EQ(points, (std::map<std::string, std::size_t>{{"acc (rank 0)", iterations}, {"acc (rank 1)", iterations},
                                                        {"loss (rank 0)", iterations}, {"loss (rank 1)", iterations},
                                                        {"lr (rank 0)", iterations}, {"lr (rank 1)", iterations}}));
  EXPECT_GT(stages[cpu + "eval"]["metrics"]["final_values"]["top1"].get<double>(), 0.5);
  const auto& timings = stages[cpu + "infer/cpu_mkldnn_False_threads_2_fp32_bs4"]["metrics"]["timings"];
  EXPECT_EQ(timings["batch_size"], 4);
  EXPECT_EQ(timings["cpu_threads"], 2);
  EXPECT_GT(timings["inference_ms"].get<double>(), 0);
  const auto& onnx = stages[cpu + "export/check/torch_vs_onnx"]["check"];
  EXPECT_EQ(onnx["values"][0]["label"], "logits: max");
  EXPECT_LE(onnx["values"][0]["value"].get<double>(), onnx["values"][0]["limit"].get<double>());

  const auto junit = test::read_junit(test::slurp(out / "junit.xml"));
  EXPECT_EQ(junit.errors, "") << "junit.xml must pass the JUnit schema";
  EXPECT_EQ(junit.cases.size(), 51u);
  EXPECT_EQ(std::count_if(junit.cases.begin(), junit.cases.end(), [](const auto& c) { return c.outcome == "skipped"; }),
            38);
  EXPECT_NE(test::slurp(out / "summary.md").find("| lite_train_lite_infer | 13 | 0 | 0 | 38 | 0 | 0 |"), std::string::npos);
  const std::string html = test::slurp(out / "report.html");
  for (const char* section : {"<h3>Training curves</h3>", "<h3>Evaluation</h3>", "<h3>Inference latency</h3>",
                              "<h3>Alignment checks</h3>", "<svg"}) {
    EXPECT_NE(html.find(section), std::string::npos) << section;
  }
  EXPECT_NE(test::slurp(out / "results_python.log").find("Run successfully"), std::string::npos);

  const auto members = test::read_tar_gz(bundle.string());
  const std::string log_dir = "test_tipc/output/alexnet/lite_train_lite_infer/";
  for (const std::string& name : std::vector<std::string>{
           "reports/report.json", "reports/junit.xml", "reports/summary.md", "reports/report.html",
        "test_tipc/configs/alexnet.txt", "test_tipc/tipc-run.yaml", log_dir + "norm_train_gpus_-1_autocast_null.log",
        log_dir + "norm_train_gpus_-1_autocast_null/forward_onnx.npy",
        log_dir + "norm_train_gpus_-1_autocast_null_nodes_1_export_check_torch_vs_onnx.json"}) {
    EXPECT_EQ(members.count(name), 1u) << name;
  }
  if (members.count("reports/report.html")) {
    EXPECT_EQ(members.at("reports/report.html"), html);
  }
}

class DemoChain : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!torch_available()) {
      if (std::getenv("CI")) FAIL() << "CI must run the demo chain: /usr/bin/python3 lacks torch or cv2";
      GTEST_SKIP() << "DEMO CHAIN NOT RUN: /usr/bin/python3 lacks torch or cv2 (scripts/install-deps.sh installs them)";
    }
    // A copy of the repository parts the chain needs, so the test writes nothing into the source tree.
    const fs::path src = test::source_dir();
    for (const char* part : {"models/alexnet", "lite_data/lite_data.tar", "test_tipc/configs/alexnet.txt",
                             "test_tipc/tipc-run.yaml", "test_tipc/results"}) {
      fs::create_directories((repo_.path() / part).parent_path());
      fs::copy(src / part, repo_.path() / part, fs::copy_options::recursive);
    }
    fs::remove_all(repo_.path() / "models/alexnet/__pycache__");
  }
  fs::path out() const { return repo_.path() / "test_tipc/output/alexnet/lite_train_lite_infer"; }

  test::TempDir repo_;
};

TEST_F(DemoChain, RunsGreenOnCpuWithTwoRanksAndMatchesTheGroundTruth) {
  const fs::path bundle = repo_.path() / "acceptance.tar.gz";
  const auto r = test::run_tipc(repo_.path(), {"test_tipc/configs/alexnet.txt", "lite_train_lite_infer", "--gpus", "none",
                                               "--bundle", bundle.string()});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  std::cout << r.out;
  expect_reports_of_the_cpu_run(out(), bundle);

  // Per-stage results, from the journal.
  std::map<std::string, std::string> results;
  std::ifstream journal(out() / ".tipc-journal.jsonl");
  for (std::string line; std::getline(journal, line);) {
    const auto j = nlohmann::json::parse(line);
    if (!j.contains("stage")) continue;  // the run's start and finish lines
    results[j["stage"]] = j["result"];
  }
  const std::string cpu = "norm_train/gpus_-1/autocast_null/";
  const std::vector<std::string> cpu_inferences{
      "infer/cpu_mkldnn_False_threads_1_fp32_bs1", "infer/cpu_mkldnn_False_threads_1_fp32_bs4",
      "infer/cpu_mkldnn_False_threads_2_fp32_bs1", "infer/cpu_mkldnn_False_threads_2_fp32_bs4"};
  std::vector<std::string> passing{"train", "eval", "export", "export/check/eager_vs_torchscript",
                                   "export/check/torch_vs_onnx"};
  for (const auto& inference : cpu_inferences) {
    passing.push_back(inference);
    passing.push_back(inference + "/check/inference_vs_ground_truth");  // the alignment checks of tipc-run.yaml
  }
  for (const auto& stage : passing) EXPECT_EQ(results[cpu + stage], "PASS") << stage;
  EXPECT_EQ(std::count_if(results.begin(), results.end(), [](const auto& kv) { return kv.second == "PASS"; }), 13);
  EXPECT_EQ(std::count_if(results.begin(), results.end(), [](const auto& kv) { return kv.second == "UNSUPPORTED"; }),
            38);  // the GPU stages, what depends on them, and their checks never ran
  EXPECT_NE(r.out.find("tipc-run: 38 stages could not run here:\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(" (needs 2 GPUs; none available"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("13 passed, 0 failed, 0 timed out, 38 unsupported, 0 skipped, 0 unresolved"), std::string::npos);

  // Two ranks trained; rank 0 saved the model and wrote train.log, which was appended to the stage log.
  const std::string train_log = test::slurp(out() / "norm_train_gpus_-1_autocast_null.log");
  EXPECT_NE(train_log.find("[train] rank 0/2 epoch: 1/12, iter: 1/"), std::string::npos);
  EXPECT_NE(train_log.find("[train] rank 1/2 epoch: 12/12, iter: 6/6"), std::string::npos);
  EXPECT_NE(train_log.find("[train] rank 0 saved"), std::string::npos);
  const fs::path model = out() / "norm_train_gpus_-1_autocast_null";
  for (const char* file : {"latest.pt", "train.log", "model.pt", "model.onnx", "forward_eager.npy",
                           "forward_torchscript.npy", "forward_onnx.npy", "classes.txt"}) {
    EXPECT_TRUE(fs::exists(model / file)) << file;
  }
  // The chain's own checks compared the exports with the eager model on the fixed input.
  const std::string stem = (out() / "norm_train_gpus_-1_autocast_null_nodes_1_export_check_").string();
  EXPECT_NE(test::slurp(stem + "eager_vs_torchscript.log").find("diff check passed"), std::string::npos);
  EXPECT_NE(test::slurp(stem + "torch_vs_onnx.log").find("max diff: check passed: True"), std::string::npos);
  EXPECT_TRUE(nlohmann::json::parse(test::slurp(stem + "torch_vs_onnx.json"))["passed"].get<bool>());
  EXPECT_NE(test::slurp(out() / "norm_train_gpus_-1_autocast_null_nodes_1_eval.log").find("[eval] images: 32, top1:"),
            std::string::npos);

  // Every inference log matches the ground truth and carries AutoLog timings.
  const auto truth = results_in(test::slurp(repo_.path() / "test_tipc/results/python_alexnet_results_fp32.txt"));
  ASSERT_EQ(truth.size(), 24u);
  int logs = 0;
  for (const auto& entry : fs::directory_iterator(out())) {
    const std::string name = entry.path().filename();
    if (!name.starts_with("python_infer_") || name.find("_check_") != std::string::npos) continue;
    ++logs;
    expect_matches_ground_truth(entry.path(), truth);
    EXPECT_NE(test::slurp(entry.path()).find("preprocess_time(ms): "), std::string::npos) << name;
  }
  EXPECT_EQ(logs, 4);

  // The ONNX export, run through OpenCV's DNN module, gives the same answers.
  const std::string onnx_log = (repo_.path() / "onnx.log").string();
  ASSERT_EQ(std::system(("cd " + test::shell_quote(repo_.path()) +
                         " && /usr/bin/python3 models/alexnet/infer.py --backend onnx --model-dir " +
                         test::shell_quote(model.string()) + " --image-dir ./lite_data/alexnet/test > " +
                         test::shell_quote(onnx_log))
                            .c_str()),
            0);
  expect_matches_ground_truth(onnx_log, truth);

  const std::string status = test::slurp(out() / "results_python.log");
  std::size_t lines = 0;
  for (std::size_t at = 0; (at = status.find(" Run successfully with command - alexnet - ", at)) != std::string::npos; ++at) {
    ++lines;
  }
  EXPECT_EQ(lines, 13u);  // the 7 stages and their 6 checks

  // Only the checks, on the files this run left (their producers are not selected): the
  // checks of stages that could not run here are UNSUPPORTED, as in the full run.
  const auto only_checks = test::run_tipc(repo_.path(), {"test_tipc/configs/alexnet.txt", "lite_train_lite_infer",
                                                         "--gpus", "none", "--only", "check"});
  EXPECT_EQ(only_checks.exit_code, 0) << only_checks.out << only_checks.err;
  EXPECT_NE(only_checks.out.find("6 passed, 0 failed, 0 timed out, 18 unsupported"), std::string::npos) << only_checks.out;
  EXPECT_NE(only_checks.out.find("  18 stages (needs 1 GPU; none available"),
            std::string::npos)
      << only_checks.out;

  // A wrong ground truth fails its check and the run. Only the checks run again, on the
  // files this run left (their producers are not selected).
  const fs::path truth_file = repo_.path() / "test_tipc/results/python_alexnet_results_fp32.txt";
  std::string text = test::slurp(truth_file);
  const std::string good = "circle_000.ppm\t[0, 0.913780]";
  ASSERT_NE(text.find(good), std::string::npos);
  text.replace(text.find(good), good.size(), "circle_000.ppm\t[0, 0.513780]");
  std::ofstream(truth_file, std::ios::binary) << text;
  const auto checks = test::run_tipc(repo_.path(), {"test_tipc/configs/alexnet.txt", "lite_train_lite_infer", "--gpus",
                                                    "none", "--only", "check", "-k", "*gpus_-1/*threads_1_fp32_bs1/check/*"});
  EXPECT_EQ(checks.exit_code, 1) << checks.out << checks.err;
  EXPECT_NE(checks.out.find("FAIL        " + cpu + "infer/cpu_mkldnn_False_threads_1_fp32_bs1/check/inference_vs_ground_truth"),
            std::string::npos)
      << checks.out;
  EXPECT_NE(checks.out.find("    check values:\n      python_infer_norm_train_null_cpu_gpus_-1_usemkldnn_False_threads_1_"
                            "precision_fp32_batchsize_1.log: circle_000.ppm = 0.4 > limit "),
            std::string::npos)
      << "the failing key is named with its value and limit: " << checks.out;
}

// The same chain with every stage a Slurm job on a local cluster without GPUs: the GPU
// stages cannot run there, the CPU stages (the two-rank train included) pass as locally.
TEST_F(DemoChain, RunsItsCpuStagesThroughSlurm) {
  test::LocalSlurm cluster;
  if (!test::cluster_is_up(cluster, cluster.start(0))) GTEST_SKIP() << "SLURM TESTS NOT RUN: " << cluster.why();
  const auto r = test::run_tipc(repo_.path(), {"test_tipc/configs/alexnet.txt", "lite_train_lite_infer", "--executor",
                                               "slurm"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("13 passed, 0 failed, 0 timed out, 38 unsupported, 0 skipped, 0 unresolved"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find(" (needs 1 GPU per node; the cluster's nodes have at most 0"),
            std::string::npos)
      << r.out;
  const std::string train_log = test::slurp(out() / "norm_train_gpus_-1_autocast_null.log");
  EXPECT_NE(train_log.find("[train] rank 1/2 epoch: 12/12, iter: 6/6"), std::string::npos) << "both ranks ran as tasks";
  const auto report = nlohmann::json::parse(test::slurp(out() / "report.json"));
  for (const auto& stage : report["plans"][0]["stages"]) {
    if (stage["result"] == "PASS") {
      EXPECT_TRUE(stage["job_id"].is_string()) << stage["id"];
    }
  }
}

TEST_F(DemoChain, UseGpuWithoutCudaIsAnErrorNotAFallback) {
  if (std::system("/usr/bin/python3 -c 'import torch,sys; sys.exit(torch.cuda.is_available())'") != 0) {
    GTEST_SKIP() << "this machine has CUDA";
  }
  const std::string err = (repo_.path() / "err.txt").string();
  const int status = std::system(("cd " + test::shell_quote(repo_.path()) +
                                  " && /usr/bin/python3 models/alexnet/eval.py --data-dir x --pretrained y "
                                  "--use-gpu True >/dev/null 2>" + test::shell_quote(err)).c_str());
  EXPECT_NE(status, 0);
  EXPECT_NE(test::slurp(err).find("--use-gpu True but CUDA is not available"), std::string::npos) << test::slurp(err);
}

}  // namespace
}  // namespace tipc::demo
