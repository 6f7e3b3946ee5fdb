// The plan file's record: every field reads back as written; a file of an older tipc-run
// (no schema, fewer fields) still reads; a newer, damaged or unknown-kind file is an error
// naming the file (and the stage).
#include "plan/plan_file_record.h"

#include <gtest/gtest.h>

#include "plan/plan_json.h"
#include "support/temp_dir.h"

namespace tipc::plan {
namespace {
namespace TIPC_TEST_FILE {

PlanFileRecord full_record() {
  Stage train;
  train.id = "gpu/train";
  train.argv = {"python3", "train.py"};
  train.env = {{"A", "1"}, {"CUDA_VISIBLE_DEVICES", std::nullopt}};
  train.log = "/repo/test_tipc/output/m/lite_train_lite_infer/train.log";
  train.needs.gpus = 1;
  Stage check = train;
  check.id = "gpu/check";
  check.kind = StageKind::kCheck;
  check.deps = {"gpu/train"};
  check.check = CheckSpec{CheckKind::kDiff, "/repo/out/check.json"};
  return {.tool_version = "1.2.3",
          .run_id = "1714564800000-4242-2",
          .started = 1714564800.25,
          .config = "test_tipc/configs/m.txt",
          .config_file = "/repo/test_tipc/configs/m.txt",
          .settings_file = "/repo/test_tipc/tipc-run.yaml",
          .mode = "lite_train_lite_infer",
          .model = "m",
          .dialect = "paddleocr",
          .dialect_source = "given by --dialect",
          .invalid_configs = {{"test_tipc/configs/bad.txt", 3, "gpu_list", "not a GPU list"}},
          .excluded_configs = {"placeholder.txt"},
          .configs_in_other_modes = {{"test_tipc/configs/m_cpp.txt", "inference_cpp", {"cpp_infer"}}},
          .compat = true,
          .repo_root = "/repo",
          .output_dir = "/repo/test_tipc/output/m/lite_train_lite_infer",
          .selected = std::vector<std::string>{"gpu/train"},
          .stages = {{train, "306775b30ca569f5"}, {check, "0123456789abcdef"}}};
}

std::vector<std::string> texts(const std::vector<Diagnostic>& problems) {
  std::vector<std::string> lines;
  for (const Diagnostic& problem : problems) lines.push_back(problem.str());
  return lines;
}

void expect_same(const PlanFileRecord& read, const PlanFileRecord& written) {
  EXPECT_EQ(read.version, written.version);
  EXPECT_EQ(read.tool_version, written.tool_version);
  EXPECT_EQ(read.run_id, written.run_id);
  EXPECT_EQ(read.started, written.started);
  EXPECT_EQ(read.config, written.config);
  EXPECT_EQ(read.config_file, written.config_file);
  EXPECT_EQ(read.settings_file, written.settings_file);
  EXPECT_EQ(read.mode, written.mode);
  EXPECT_EQ(read.model, written.model);
  EXPECT_EQ(read.dialect, written.dialect);
  EXPECT_EQ(read.dialect_source, written.dialect_source);
  EXPECT_EQ(texts(read.invalid_configs), texts(written.invalid_configs));
  EXPECT_EQ(read.excluded_configs, written.excluded_configs);
  ASSERT_EQ(read.configs_in_other_modes.size(), 1u);
  EXPECT_EQ(read.configs_in_other_modes[0].file, "test_tipc/configs/m_cpp.txt");
  EXPECT_EQ(read.configs_in_other_modes[0].chain, "inference_cpp");
  EXPECT_EQ(read.configs_in_other_modes[0].modes, std::vector<std::string>{"cpp_infer"});
  EXPECT_EQ(read.compat, written.compat);
  EXPECT_EQ(read.repo_root, written.repo_root);
  EXPECT_EQ(read.output_dir, written.output_dir);
  EXPECT_EQ(read.selected, written.selected);
  ASSERT_EQ(read.stages.size(), written.stages.size());
  for (std::size_t i = 0; i < read.stages.size(); ++i) {
    EXPECT_EQ(stage_json(read.stages[i].stage), stage_json(written.stages[i].stage)) << "every field stage_json writes";
    EXPECT_EQ(read.stages[i].fingerprint, written.stages[i].fingerprint);
  }
}

TEST(PlanFileRecord, EveryFieldReadsBackAsWritten) {
  test::TempDir dir;
  PlanFileRecord written = full_record();
  const std::string path = dir.write(kPlanFileName, plan_file_text(written));
  auto read = read_plan_file(path);
  ASSERT_TRUE(read) << read.error().str();
  expect_same(*read, written);
  EXPECT_EQ(plan_file_text(*read), plan_file_text(written));

  written.settings_file = "";  // none: null
  written.selected.reset();    // every stage
  written.started.reset();
  read = read_plan_file(dir.write(kPlanFileName, plan_file_text(written)));
  ASSERT_TRUE(read) << read.error().str();
  expect_same(*read, written);
}

TEST(PlanFileRecord, OnlyTheSelectedStagesAreSelected) {
  PlanFileRecord record = full_record();
  EXPECT_TRUE(record.selects("gpu/train"));
  EXPECT_FALSE(record.selects("gpu/check"));
  record.selected.reset();
  EXPECT_TRUE(record.selects("gpu/check"));
}

TEST(PlanFileRecord, AFileOfAnOlderTipcRunWithoutSchemaStillReads) {
  test::TempDir dir;
  const std::string path = dir.write(kPlanFileName, R"({"config": "c.txt", "mode": "lite", "stages": [
      {"id": "train", "kind": "train", "argv": ["python3"], "cwd": "/r", "env": {}, "log": "/r/t.log",
       "deps": [], "needs": {"gpus": 0}}]})");
  const auto read = read_plan_file(path);
  ASSERT_TRUE(read) << read.error().str();
  EXPECT_EQ(read->version, 0);
  EXPECT_EQ(read->config, "c.txt");
  EXPECT_EQ(read->run_id, "");
  EXPECT_FALSE(read->selected);
  ASSERT_EQ(read->stages.size(), 1u);
  EXPECT_EQ(read->stages[0].stage.needs.nodes, 1);
  EXPECT_EQ(read->stages[0].fingerprint, "");
}

TEST(PlanFileRecord, ANewerDamagedOrUnknownKindFileIsAnErrorNamingTheFile) {
  test::TempDir dir;
  struct Case {
    const char* text;
    const char* says;
  };
  for (const Case& bad : {Case{R"({"schema": 99, "stages": []})", "newer tipc-run (schema 99)"},
                          Case{R"({"stages": 3})", "not a tipc-run plan file"},
                          Case{R"({"stages": [], "mode": 3})", "field 'mode' has the wrong type"},
                          Case{R"({"stages": [{"id": "t", "kind": "distill", "argv": [], "cwd": "", "env": {},
                                  "log": "", "deps": [], "needs": {"gpus": 0}}]})",
                               "stage t: field 'kind': unknown stage kind 'distill'"},
                          Case{"{\"stages\": [", "not a tipc-run plan file"}}) {
    const std::string path = dir.write(kPlanFileName, bad.text);
    const auto read = read_plan_file(path);
    ASSERT_FALSE(read) << bad.text;
    EXPECT_NE(read.error().str().find(path), std::string::npos) << read.error().str();
    EXPECT_NE(read.error().str().find(bad.says), std::string::npos) << read.error().str();
  }
  EXPECT_NE(read_plan_file(dir.path() / "none.json").error().str().find("cannot read the plan file"),
            std::string::npos);
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::plan
