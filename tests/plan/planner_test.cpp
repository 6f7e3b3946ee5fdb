// Planner behaviour in default mode, and each place where default mode differs from
// the reference on purpose (docs/reference-runner.md#defects, D-numbers), against compat mode.
#include "plan/planner.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "compat/reference_planning_rules.h"
#include "plan/plan_file.h"
#include "support/paths.h"
#include "support/run_binary.h"
#include "support/temp_dir.h"

namespace tipc::plan {
namespace {
namespace TIPC_TEST_FILE {

std::string demo() { return test::slurp(test::source_dir() + "/test_tipc/configs/alexnet.txt"); }

std::string replace_line(std::string text, const std::string& prefix, const std::string& line) {
  const std::size_t at = text.find("\n" + prefix) + 1;
  const std::size_t end = text.find('\n', at);
  return text.replace(at, end - at, line);
}

const dialect::Dialect& dialect_named(const std::string& name) {
  static std::map<std::string, dialect::Dialect> cache;
  if (!cache.count(name)) cache[name] = dialect::load_dialect(test::dialect_dir(), name).value();
  return cache[name];
}

class PlannerTest : public ::testing::Test {
 protected:
  Result<Plan> plan(const std::string& text, bool compat, const std::string& mode = "lite_train_lite_infer",
                    const std::string& dialect = "paddleocr") {
    PlanOptions options;
    options.mode = mode;
    options.rules = &tipc::compat::planning_rules(compat);
    const auto decoded = config::read_config_text(dir_.write("alexnet.txt", text)).value();
    return plan_config(decoded, dialect_named(dialect), options);
  }
  Plan ok(const std::string& text, bool compat, const std::string& mode = "lite_train_lite_infer") {
    auto p = plan(text, compat, mode);
    EXPECT_TRUE(p) << p.error().str();
    return p.value_or(Plan{});
  }
  std::string config_path() const { return (dir_.path() / "alexnet.txt").string(); }

  test::TempDir dir_;
};

const Stage& stage(const Plan& plan, const std::string& id) {
  for (const auto& s : plan.stages) {
    if (s.id == id) return s;
  }
  throw std::runtime_error("no stage " + id);
}

bool has_word(const Stage& s, const std::string& word) {
  return std::find(s.argv.begin(), s.argv.end(), word) != s.argv.end();
}

TEST_F(PlannerTest, TrainEvalExportThenTheInferenceMatrixPerGpuElement) {
  const Plan p = ok(demo(), false);
  // 3 gpu elements x (train, eval, export + 2 gpu + 4 cpu inferences; fp16 needs TRT or MKLDNN)
  ASSERT_EQ(p.stages.size(), 3u * (3 + 2 + 4));
  EXPECT_EQ(p.model_name, "alexnet");
  EXPECT_EQ(p.output_dir, "./test_tipc/output/alexnet/lite_train_lite_infer");
  const Stage& train = p.stages[0];
  EXPECT_EQ(train.kind, StageKind::kTrain);
  EXPECT_EQ(train.id, "norm_train/gpus_-1/autocast_null/train");
  EXPECT_EQ(train.argv, (std::vector<std::string>{"/usr/bin/python3", "models/alexnet/train.py", "--data-dir",
                                                  "./lite_data/alexnet/train", "--use-gpu=False",
                                                  "--save-dir=./test_tipc/output/alexnet/lite_train_lite_infer/"
                                                  "norm_train_gpus_-1_autocast_null",
                                                  "--epochs=12", "--batch-size=8", "--seed=42"}));
  EXPECT_EQ(train.needs.gpus, 0);
  EXPECT_EQ(train.env.at("CUDA_VISIBLE_DEVICES"), std::nullopt);
  EXPECT_EQ(p.stages[1].kind, StageKind::kEval);
  EXPECT_EQ(p.stages[1].deps, std::vector<std::string>{train.id});
  EXPECT_EQ(p.stages[2].kind, StageKind::kExport);
  EXPECT_EQ(p.stages[2].deps, std::vector<std::string>{train.id});
  for (std::size_t i = 3; i < 9; ++i) {
    EXPECT_EQ(p.stages[i].kind, StageKind::kInfer);
    EXPECT_EQ(p.stages[i].deps, std::vector<std::string>{p.stages[2].id});
  }
}

TEST_F(PlannerTest, NeedsAndDevicesFollowTheGpuElement) {
  const Plan p = ok(demo(), false);
  const Stage& multi = stage(p, "norm_train/gpus_0,1/autocast_null/train");
  EXPECT_EQ(multi.needs.gpus, 2);
  EXPECT_EQ(multi.env.at("CUDA_VISIBLE_DEVICES"), "0,1");
  EXPECT_EQ(multi.argv[1], "-m");
  EXPECT_EQ(multi.argv[3], "--gpus=0,1");
  const Stage& eval = stage(p, "norm_train/gpus_0,1/autocast_null/eval");
  EXPECT_EQ(eval.needs.gpus, 1);
  EXPECT_EQ(eval.env.at("CUDA_VISIBLE_DEVICES"), "0");
  const Stage& cpu_infer = stage(p, "norm_train/gpus_0/autocast_null/infer/cpu_mkldnn_False_threads_2_fp32_bs4");
  EXPECT_EQ(cpu_infer.needs.gpus, 0);
  const Stage& gpu_infer = stage(p, "norm_train/gpus_-1/autocast_null/infer/gpu_trt_False_fp32_bs1");
  EXPECT_EQ(gpu_infer.needs.gpus, 1);
  EXPECT_EQ(gpu_infer.env.at("CUDA_VISIBLE_DEVICES"), "0");
}

// The benchmark record names a benchmark train by these (report/benchmark_record.h).
TEST_F(PlannerTest, ATrainStageCarriesTheModesBatchSizeAndItsAutoCastElement) {
  const std::string config = replace_line(demo(), "--amp:", "--amp:null|amp");
  const Plan p = ok(config, false, "benchmark_train");
  EXPECT_EQ(stage(p, "norm_train/gpus_0/autocast_null/train").train_setting, (TrainSetting{"8", "null"}));
  EXPECT_EQ(stage(p, "norm_train/gpus_0,1/autocast_amp/train").train_setting, (TrainSetting{"8", "amp"}));
  const Plan lite = ok(replace_line(config, "--batch-size:", "--batch-size:lite_train_lite_infer=4"), false);
  EXPECT_EQ(stage(lite, "norm_train/gpus_0/autocast_amp/train").train_setting, (TrainSetting{"4", "amp"}));
  EXPECT_FALSE(stage(lite, "norm_train/gpus_0/autocast_amp/eval").train_setting);
}

TEST_F(PlannerTest, D9CompatReproducesTheReferenceDeviceStateMachine) {
  const Plan p = ok(demo(), true);
  // OCR never sets the variable for training; eval applies the element's first id.
  EXPECT_EQ(stage(p, "norm_train/gpus_0/autocast_null/train").env.at("CUDA_VISIBLE_DEVICES"), std::nullopt);
  EXPECT_EQ(stage(p, "norm_train/gpus_0,1/autocast_null/train").env.at("CUDA_VISIBLE_DEVICES"), std::nullopt);
  EXPECT_EQ(stage(p, "norm_train/gpus_0,1/autocast_null/eval").env.at("CUDA_VISIBLE_DEVICES"), "0");
  EXPECT_EQ(stage(p, "norm_train/gpus_0/autocast_null/train").needs.gpus, 1);
}

TEST_F(PlannerTest, D3DefaultKeepsUrlValuesCompatTruncatesThem) {
  const std::string text = replace_line(demo(), "--pretrained:", "--pretrained:https://host:8080/w.pt");
  EXPECT_TRUE(has_word(ok(text, false).stages[0], "--pretrained=https://host:8080/w.pt"));
  EXPECT_TRUE(has_word(ok(text, true).stages[0], "--pretrained=https"));
}

TEST_F(PlannerTest, D4ShiftedLayoutIsRejectedInDefaultAndPlannedInCompat) {
  const std::string text = replace_line(demo(), "pact_train:", "");  // leaves a blank line 17
  const auto strict = plan(text, false);
  ASSERT_FALSE(strict);
  ASSERT_EQ(strict.error().diagnostics.size(), 1u) << "one finding at the gap: " << strict.error().str();
  EXPECT_EQ(strict.error().diagnostics[0].line, 18);  // physical line of fpgm_train, now where pact_train belongs
  EXPECT_EQ(strict.error().diagnostics[0].key, "pact_train");
  EXPECT_TRUE(plan(text, true));
}

std::string with_crlf(const std::string& text) {
  std::string out;
  for (const char c : text) out += c == '\n' ? std::string("\r\n") : std::string(1, c);
  return out;
}

std::vector<std::vector<std::string>> argvs(const Plan& plan) {
  std::vector<std::vector<std::string>> out;
  for (const auto& stage : plan.stages) out.push_back(stage.argv);
  return out;
}

// One reader decodes the bytes: a byte-order mark, CRLF line ends and trailing blanks
// (a Windows editor's copy) plan exactly as the plain file. Compat keeps the CRs and
// blanks the reference would read (D16 in docs/reference-runner.md).
TEST_F(PlannerTest, ABomCrlfConfigWithTrailingBlanksPlansAsItsPlainTwin) {
  const std::string windows = "\xEF\xBB\xBF" + with_crlf(replace_line(demo(), "--seed:", "--seed:42 \t"));
  const Plan plain = ok(demo(), false);
  const Plan decoded = ok(windows, false);
  EXPECT_EQ(argvs(decoded), argvs(plain));
  EXPECT_EQ(decoded.warnings.size(), plain.warnings.size());
  const Plan compat = ok(windows, true);
  EXPECT_NE(compat.stages.at(0).results_log.shell_text.find("--seed=42 \t\r"), std::string::npos)
      << compat.stages.at(0).results_log.shell_text;
}

TEST_F(PlannerTest, D5UnknownModeIsAnErrorInDefaultAndTheTrainBranchInCompat) {
  const auto strict = plan(demo(), false, "lite_train_infer");
  ASSERT_FALSE(strict);
  EXPECT_NE(strict.error().str().find("unknown mode 'lite_train_infer'"), std::string::npos);
  const Plan compat = ok(demo(), true, "lite_train_infer");
  EXPECT_FALSE(compat.stages.empty());
  for (const auto& word : compat.stages[0].argv) EXPECT_FALSE(word.starts_with("--epochs=")) << word;
}

TEST_F(PlannerTest, D5AModeMissingFromTheListIsAWarning) {
  const std::string text = replace_line(demo(), "--epochs:", "--epochs:lite_train_lite_infer=2");
  const Plan p = ok(text, false, "whole_train_whole_infer");
  ASSERT_EQ(p.warnings.size(), 1u);
  EXPECT_EQ(p.warnings[0].line, 7);
  EXPECT_NE(p.warnings[0].message.find("mode 'whole_train_whole_infer' is not listed"), std::string::npos);
  for (const auto& word : p.stages[0].argv) EXPECT_FALSE(word.starts_with("--epochs=")) << word;
}

TEST_F(PlannerTest, D6ShellSyntaxInValuesIsPassedLiterallyAndReported) {
  const std::string text =
      replace_line(demo(), "norm_train:", "norm_train:models/alexnet/train.py --x=$(touch pwned);ls `id`");
  const Plan p = ok(text, false);
  const Stage& train = p.stages[0];
  EXPECT_TRUE(has_word(train, "--x=$(touch"));
  EXPECT_TRUE(has_word(train, "pwned);ls"));
  EXPECT_TRUE(has_word(train, "`id`"));
  ASSERT_FALSE(p.warnings.empty());
  EXPECT_NE(p.warnings[0].message.find("$ expansion"), std::string::npos);
}

TEST_F(PlannerTest, D7DefaultNormalisesTheInferenceModelDir) {
  const std::string text = replace_line(demo(), "inference_dir:", "##");
  const auto model_dir = [](const Plan& p) {
    for (const auto& w : p.stages[3].argv) {
      if (w.starts_with("--model-dir=")) return w;
    }
    return std::string();
  };
  EXPECT_TRUE(model_dir(ok(text, true)).ends_with("autocast_null/"));
  EXPECT_TRUE(model_dir(ok(text, false)).ends_with("autocast_null"));
}

TEST_F(PlannerTest, D8DefaultInferenceLogsNameTrainerAndAutocast) {
  EXPECT_NE(ok(demo(), false).stages[3].log.find("/python_infer_norm_train_null_gpu_gpus_-1_"), std::string::npos);
  EXPECT_NE(ok(demo(), true).stages[3].log.find("/python_infer_gpu_gpus_-1_"), std::string::npos);
}

TEST_F(PlannerTest, D10MalformedGpuElementIsAnErrorInDefault) {
  const std::string text = replace_line(demo(), "gpu_list:", "gpu_list:0|gpu0");
  const auto strict = plan(text, false);
  ASSERT_FALSE(strict);
  EXPECT_EQ(strict.error().str(), config_path() +
                                      ":4: gpu_list element 'gpu0': expected -1, a GPU id list such as "
                                      "0,1, or ips;gpus");
  EXPECT_TRUE(plan(text, true));
}

TEST_F(PlannerTest, D13EmptyTrainerScriptIsAnErrorInDefault) {
  const std::string text = replace_line(demo(), "norm_train:", "norm_train:");
  const auto strict = plan(text, false);
  ASSERT_FALSE(strict);
  EXPECT_NE(strict.error().str().find(":15: trainer 'norm_train' has an empty script"), std::string::npos);
  const Plan compat = ok(text, true);  // the reference launches the bare interpreter
  EXPECT_EQ(compat.stages[0].argv[1], "--use-gpu=False");
}

TEST_F(PlannerTest, D15WholeInferListLengthsMustAgreeInDefault) {
  std::string text = replace_line(demo(), "infer_model:", "infer_model:./m1|./m2");
  const auto strict = plan(text, false, "whole_infer");
  ASSERT_FALSE(strict);
  EXPECT_NE(strict.error().str().find("2 infer models, 1 export scripts and 1 quant flags"), std::string::npos);
  const Plan compat = ok(text, true, "whole_infer");
  // the second model lost its quant flag: the gpu argument slid into its place
  EXPECT_NE(compat.stages.back().log.find("python_infer_cpu_gpus__usemkldnn"), std::string::npos);
}

TEST_F(PlannerTest, D16CarriageReturnsAndEchoWords) {
  std::string crlf;
  for (char c : demo()) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  EXPECT_EQ(ok(crlf, false).stages[0].argv, ok(demo(), false).stages[0].argv);
  EXPECT_EQ(ok(crlf, true).model_name, "alexnet\r");

  const std::string echo = replace_line(demo(), "--pretrained:", "--pretrained:-n");
  EXPECT_TRUE(has_word(ok(echo, false).stages[0], "--pretrained=-n"));
  EXPECT_FALSE(has_word(ok(echo, true).stages[0], "--pretrained=-n"));
}

TEST_F(PlannerTest, WholeInferExportsAndInfersEachModel) {
  std::string text = replace_line(demo(), "infer_model:", "infer_model:./m1|./m2");
  text = replace_line(text, "infer_export:", "infer_export:null|models/alexnet/export_model.py");
  text = replace_line(text, "infer_quant:", "infer_quant:False|False");
  const Plan p = ok(text, false, "whole_infer");
  ASSERT_EQ(p.stages.size(), 6u + 1u + 6u);
  EXPECT_EQ(p.stages[0].kind, StageKind::kInfer);
  EXPECT_TRUE(p.stages[0].deps.empty());
  EXPECT_EQ(p.stages[6].id, "whole_infer/model_1/export");
  EXPECT_EQ(p.stages[7].deps, std::vector<std::string>{"whole_infer/model_1/export"});
  EXPECT_EQ(p.stages[6].log, "./test_tipc/output/alexnet/whole_infer_export_1.log");
  EXPECT_EQ(p.stages[6].model_dir, "./m2") << "the export writes there: its alignment checks read from there";
}

TEST_F(PlannerTest, PythonOverrideReplacesTheInterpreter) {
  PlanOptions options;
  options.mode = "lite_train_lite_infer";
  options.python = "/opt/py/bin/python3.11";
  const auto text = config::read_config_text(dir_.write("a.txt", demo())).value();
  const auto p = plan_config(text, dialect_named("paddleocr"), options);
  ASSERT_TRUE(p);
  for (const auto& s : p->stages) EXPECT_EQ(s.argv[0], "/opt/py/bin/python3.11");
}

TEST_F(PlannerTest, StageIdsAreUniqueEvenForRepeatedGpuElements) {
  const Plan p = ok(replace_line(demo(), "gpu_list:", "gpu_list:-1|-1"), false);
  std::set<std::string> ids;
  for (const auto& s : p.stages) EXPECT_TRUE(ids.insert(s.id).second) << s.id;
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::plan

namespace tipc::plan {
namespace {
namespace TIPC_TEST_FILE {

TEST_F(PlannerTest, LaunchersAreDataAndRankEnvSpawnsOneProcessPerGpu) {
  const std::string launchers = dialect::launchers_file(test::dialect_dir());
  PlanOptions options;
  options.mode = "lite_train_lite_infer";
  const auto text = config::read_config_text(dir_.write("a.txt", demo())).value();
  const auto paddle = plan_config(text, dialect_named("paddleocr"), options);
  const Stage& paddle_train = stage(*paddle, "norm_train/gpus_0,1/autocast_null/train");
  EXPECT_EQ(paddle_train.launcher, "paddle-gpus");
  EXPECT_EQ(paddle_train.processes, 1);

  options.launcher = dialect::load_launcher(launchers, "rank-env").value();
  const auto ranks = plan_config(text, dialect_named("paddleocr"), options);
  const Stage& rank_train = stage(*ranks, "norm_train/gpus_0,1/autocast_null/train");
  EXPECT_EQ(rank_train.launcher, "rank-env");
  EXPECT_EQ(rank_train.processes, 2);
  EXPECT_EQ(rank_train.argv[1], "models/alexnet/train.py");

  options.launcher = dialect::load_launcher(launchers, "torch-run").value();
  const auto torch = plan_config(text, dialect_named("paddleocr"), options);
  const Stage& torch_train = stage(*torch, "norm_train/gpus_0,1/autocast_null/train");
  EXPECT_EQ(std::vector<std::string>(torch_train.argv.begin() + 1, torch_train.argv.begin() + 4),
            (std::vector<std::string>{"-m", "torch.distributed.run", "--nproc_per_node=2"}));
  EXPECT_FALSE(dialect::load_launcher(launchers, "mpirun"));
}

// No silent empty plans: a named trainer whose script is null plans nothing, which default
// mode reports with the file, line and key; compat reproduces the reference's empty plan.
TEST_F(PlannerTest, ANamedTrainerThatPlansNothingIsAnErrorInDefaultAndAWarningInCompat) {
  const std::string text = replace_line(demo(), "norm_train:", "norm_train:null");
  const auto rejected = plan(text, false);
  ASSERT_FALSE(rejected);
  EXPECT_EQ(rejected.error().str(),
            config_path() +
                ":15: the config names trainer 'norm_train' but plans no stage: "
                "every trainer of 'norm_train' has the script null (or no trainer line matches it)");
  const Plan compat = ok(text, true);
  EXPECT_TRUE(compat.stages.empty());
  ASSERT_EQ(compat.warnings.size(), 1u);
  EXPECT_EQ(compat.warnings[0].line, 15);
}

TEST_F(PlannerTest, AnEmptyAutocastListIsNamedAsTheReasonForAnEmptyPlan) {
  const auto rejected = plan(replace_line(demo(), "--amp:", "--amp:"), false);
  ASSERT_FALSE(rejected);
  EXPECT_NE(rejected.error().str().find(":6: the config names trainer 'norm_train' but plans no stage: the autocast "
                                        "list is empty"),
            std::string::npos)
      << rejected.error().str();
}

// trainer:null is the reference's deliberate "train nothing" (PaddleDetection's KL configs).
TEST_F(PlannerTest, TrainsOfBenchmarkTrainRunAloneAndOthersDoNot) {
  for (const bool benchmark_mode : {true, false}) {
    const Plan p = ok(demo(), false, benchmark_mode ? "benchmark_train" : "lite_train_lite_infer");
    int trains = 0;
    for (const auto& s : p.stages) {
      if (s.kind != StageKind::kTrain) continue;
      ++trains;
      EXPECT_EQ(s.benchmark, benchmark_mode) << s.id;
    }
    EXPECT_GT(trains, 0);
  }
}

TEST_F(PlannerTest, TrainerNullPlansNothingWithoutAnError) {
  const Plan plan_null = ok(replace_line(demo(), "trainer:", "trainer:null"), false);
  EXPECT_TRUE(plan_null.stages.empty());
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::plan
