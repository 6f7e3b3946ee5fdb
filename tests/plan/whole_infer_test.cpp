// The whole-inference branch on its own: which exports and inference matrices each dialect
// style asks of the planner, recorded by a stand-in StageEmitter (the planner's stages
// themselves are tests/plan/planner_test.cpp's).
#include "plan/whole_infer.h"

#include <gtest/gtest.h>

#include <deque>
#include <map>
#include <vector>

#include "compat/reference_planning_rules.h"
#include "config/positions.h"
#include "support/paths.h"

namespace tipc::plan::detail {
namespace {
namespace TIPC_TEST_FILE {

namespace pos = config::pos;

// One inference matrix the branch asked for.
struct Matrix {
  std::string prefix, dep, quant;
  std::optional<std::string> device;
  std::string cwd;
  Vars vars;
};

// Records the stages and matrices instead of planning them; the runner's devices are "runner".
class RecordingEmitter final : public StageEmitter {
 public:
  Result<Stage*> add_stage(StageKind kind, const std::string& id, const dialect::StageTemplate&, Vars& vars,
                           const std::string& cwd) override {
    Stage& stage = stages.emplace_back();
    stage.kind = kind;
    stage.id = id;
    stage.cwd = cwd;
    stage_vars.push_back(vars);
    return &stage;
  }
  Result<void> inference_matrix(Vars vars, const std::string& prefix, const std::string& dep, const std::string& quant,
                                const std::optional<std::string>& device, const std::string& cwd) override {
    matrices.push_back({prefix, dep, quant, device, cwd, std::move(vars)});
    return {};
  }
  std::optional<std::string> devices(const std::optional<std::string>& own) const override {
    return own ? own : std::optional<std::string>("runner");
  }

  std::deque<Stage> stages;  // a deque: the branch holds on to the stage it was given
  std::vector<Vars> stage_vars;
  std::vector<Matrix> matrices;
};

// The demo config as a dialect reads it, some of its values replaced, planned by the branch alone.
class WholeInfer : public ::testing::Test {
 protected:
  void load(const std::string& dialect_name, const std::map<int, std::string>& values, bool compat = false) {
    dialect_ = dialect::load_dialect(test::dialect_dir(), dialect_name).value();
    options_.rules = &tipc::compat::planning_rules(compat);
    const std::string path = test::source_dir() + "/test_tipc/configs/alexnet.txt";
    config_ = options_.rules->read_config(config::read_config_text(path).value(), dialect_);
    for (const auto& [line, value] : values) config_.fields.at(static_cast<std::size_t>(line) - 1).value = value;
  }

  Result<void> run() {
    emitter_.stages.clear();
    emitter_.stage_vars.clear();
    emitter_.matrices.clear();
    return plan_whole_infer({config_, dialect_, options_, base_}, emitter_);
  }

  Result<void> plan(const std::string& dialect_name, const std::map<int, std::string>& values, bool compat = false) {
    load(dialect_name, values, compat);
    return run();
  }

  std::vector<std::string> stage_ids() const {
    std::vector<std::string> ids;
    for (const Stage& stage : emitter_.stages) ids.push_back(stage.id);
    return ids;
  }

  dialect::Dialect dialect_;
  PlanOptions options_;
  config::TrainInferConfig config_;
  Vars base_{{"python", "python"}, {"model_name", "alexnet"}, {"log_dir", "out"}};
  RecordingEmitter emitter_;
};

TEST_F(WholeInfer, ExportListExportsEachModelWithAScriptAndInfersEveryModelAfterIt) {
  options_.mode = "whole_infer";
  options_.gpu_id = "3";
  ASSERT_TRUE(plan("paddleocr", {{pos::kInferModel, "./m1|./m2"},
                                 {pos::kInferExport, "null|tools/export_model.py"},
                                 {pos::kInferQuant, "False|True"}}));
  EXPECT_EQ(stage_ids(), std::vector<std::string>{"whole_infer/model_1/export"});
  const Stage& exported = emitter_.stages.front();
  EXPECT_EQ(exported.kind, StageKind::kExport);
  EXPECT_EQ(exported.model_dir, "./m2") << "its checks read what it wrote";
  EXPECT_EQ(exported.env.at("CUDA_VISIBLE_DEVICES"), "runner");
  EXPECT_EQ(emitter_.stage_vars.front().at("export_script"), "tools/export_model.py");
  ASSERT_EQ(emitter_.matrices.size(), 2u);
  EXPECT_EQ(emitter_.matrices[0].prefix, "whole_infer/model_0/infer");
  EXPECT_EQ(emitter_.matrices[0].dep, "") << "model 0 has no export to wait for";
  EXPECT_EQ(emitter_.matrices[0].quant, "False");
  EXPECT_EQ(emitter_.matrices[0].vars.at("infer_model_dir"), "./m1");
  EXPECT_EQ(emitter_.matrices[1].dep, "whole_infer/model_1/export");
  EXPECT_EQ(emitter_.matrices[1].quant, "True");
  EXPECT_EQ(emitter_.matrices[1].device, "3") << "the gpu_id argument";
}

TEST_F(WholeInfer, ExportListLengthsMustAgreeInDefaultAndShiftTheGpuArgumentInCompat) {
  options_.mode = "whole_infer";
  const std::map<int, std::string> values{{pos::kInferModel, "./m1|./m2"}, {pos::kInferExport, "null|null"}};
  const auto strict = plan("paddleocr", values);
  ASSERT_FALSE(strict);
  EXPECT_NE(strict.error().str().find("2 infer models, 2 export scripts and 1 quant flags"), std::string::npos)
      << strict.error().str();
  ASSERT_TRUE(plan("paddleocr", values, true));
  ASSERT_EQ(emitter_.matrices.size(), 2u);
  EXPECT_EQ(emitter_.matrices[1].quant, "0") << "the gpu argument slid into the missing quant flag's place (D15)";
  EXPECT_EQ(emitter_.matrices[1].vars.at("infer_gpu"), "");
  EXPECT_EQ(emitter_.matrices[1].device, "0") << "no gpu_id argument";
}

TEST_F(WholeInfer, KlQuantExportsOnlyWhenTheConfigNamesAQuantScript) {
  options_.mode = "whole_infer";
  ASSERT_TRUE(plan("paddleclas", {{pos::kKlQuant, "False"}}));
  EXPECT_TRUE(emitter_.stages.empty());
  EXPECT_TRUE(emitter_.matrices.empty());
  ASSERT_TRUE(plan("paddleclas", {{pos::kKlQuant, "deploy/slim/quant_post_static.py"}}));
  EXPECT_EQ(stage_ids(), std::vector<std::string>{"whole_infer/kl_quant/export"});
  EXPECT_EQ(emitter_.stage_vars.front().at("kl_quant_script"), "deploy/slim/quant_post_static.py");
  ASSERT_EQ(emitter_.matrices.size(), 1u);
  EXPECT_EQ(emitter_.matrices[0].dep, "whole_infer/kl_quant/export");
  EXPECT_EQ(emitter_.matrices[0].quant, "True");
  EXPECT_EQ(emitter_.matrices[0].cwd, "deploy");
}

TEST_F(WholeInfer, ModeListPicksExportScriptsByNameAndTheKlQuantModeOnlyKlQuant) {
  const std::map<int, std::string> values{{pos::kInferExport, "norm|null|kl_quant"},
                                          {pos::kInferQuant, "False|True|True"},
                                          {30, "tools/export_model.py"},
                                          {36, "deploy/slim/post_quant.py"}};
  options_.mode = "whole_infer";
  ASSERT_TRUE(plan("paddledetection", values));
  EXPECT_EQ(stage_ids(), std::vector<std::string>{"whole_infer/norm/export"});
  EXPECT_EQ(emitter_.stage_vars.front().at("export_script"), "tools/export_model.py");
  EXPECT_EQ(emitter_.stage_vars.front().at("filename_arg"), "filename=alexnet");
  ASSERT_EQ(emitter_.matrices.size(), 1u);
  EXPECT_EQ(emitter_.matrices[0].quant, "False");
  options_.mode = "klquant_whole_infer";
  ASSERT_TRUE(plan("paddledetection", values));
  EXPECT_EQ(stage_ids(), std::vector<std::string>{"whole_infer/kl_quant/export"});
  EXPECT_EQ(emitter_.stage_vars.front().at("export_script"), "deploy/slim/post_quant.py");
  ASSERT_EQ(emitter_.matrices.size(), 1u);
  EXPECT_EQ(emitter_.matrices[0].quant, "True") << "the quant flag at the mode's own position";
}

TEST_F(WholeInfer, AnUnknownInferModeIsAnErrorAtItsLine) {
  options_.mode = "whole_infer";
  const auto result = plan("paddledetection", {{pos::kInferExport, "norm|prune"}});
  ASSERT_FALSE(result);
  EXPECT_NE(result.error().str().find("undefined infer_mode 'prune' (norm, pact, fpgm, distill or kl_quant)"),
            std::string::npos)
      << result.error().str();
}

TEST_F(WholeInfer, ADialectWithoutAStylePlansNothing) {
  options_.mode = "whole_infer";
  load("paddleocr", {});
  dialect_.whole_infer.style = dialect::WholeInferStyle::kNone;
  ASSERT_TRUE(run());
  EXPECT_TRUE(emitter_.stages.empty());
  EXPECT_TRUE(emitter_.matrices.empty());
}

TEST(WholeInferRules, EmitDropsNullKeysAndNullOrEmptyValues) {
  EXPECT_EQ(emit("--epochs", "3"), "--epochs=3");
  const std::vector<std::pair<std::string, std::string>> dropped{
      {"null", "3"}, {"--epochs", "null"}, {"--epochs", ""}, {"--epochs", " "}};
  for (const auto& [key, value] : dropped) EXPECT_EQ(emit(key, value), " ") << key << ":" << value;
}

TEST(WholeInferRules, AnEmptyValueNeverDiffersInTheReferencesTest) {
  EXPECT_TRUE(test_differs("tools/export.py", "null"));
  EXPECT_FALSE(test_differs("null", "null"));
  EXPECT_FALSE(test_differs("", "null"));
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::plan::detail
