// Reading PaDiff dumps: both report.json generations, moved dumps, parameter order and
// null grads, step/rank discovery, and errors that name the file and the key path.
#include "align/io/padiff_dump.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "support/padiff_dumps.h"
#include "support/temp_dir.h"

namespace tipc::align {
namespace {
namespace TIPC_TEST_FILE {

namespace fs = std::filesystem;
using test::DumpWriter;
using test::OrderedJson;

TEST(PadiffDump, ReadsTheCurrentReportForm) {
  test::TempDir temp;
  DumpWriter dump(temp, "a");
  const std::string fc_output = dump.tensor<float>({1, 2});
  const std::string fc_grad = dump.tensor<float>({3});
  auto fc = DumpWriter::layer("Linear", "Model.fc", {fc_output}, {fc_grad});
  fc["metas"] = {{"fwd_step", 0}, {"bwd_step", 1}, {"net_id", 7}};
  auto call = DumpWriter::layer("matmul", "Model.fc.matmul", {dump.tensor<float>({4})});
  call["type"] = "api";
  fc["children"].push_back(call);
  dump.write_report({DumpWriter::layer("Model", "Model", {dump.tensor<float>({5})}, {}, {fc})}, "torch");

  const auto report = read_report((dump.dir() / "report.json").string());
  ASSERT_TRUE(report) << report.error().str();
  EXPECT_EQ(report->framework, "torch");
  ASSERT_EQ(report->roots.size(), 1u);
  const ReportNode& read_fc = report->roots[0].children.at(0);
  EXPECT_EQ(read_fc.route, "Model.fc");
  EXPECT_EQ(read_fc.net_id, 7);
  EXPECT_EQ(read_fc.fwd_outputs, std::vector<std::string>{fc_output});
  EXPECT_EQ(read_fc.bwd_grads, std::vector<std::string>{fc_grad});
  EXPECT_EQ(read_fc.children.at(0).kind, NodeKind::kApi);
}

TEST(PadiffDump, Reads2023ReportsWithBarePathsAndASingleRoot) {
  test::TempDir temp;
  DumpWriter dump(temp, "a");
  const std::string output = dump.tensor<float>({1});
  const OrderedJson report = {{"model_name", "Old"},
                              {"tree",
                               {{"name", "Model"},
                                {"route", "Model"},
                                {"fwd_outputs", OrderedJson::array({output})},
                                {"bwd_grads", OrderedJson::array({output})}}}};
  temp.write("a/report.json", report.dump());

  const auto read = read_report((dump.dir() / "report.json").string());
  ASSERT_TRUE(read) << read.error().str();
  ASSERT_EQ(read->roots.size(), 1u);
  EXPECT_EQ(read->roots[0].kind, NodeKind::kNet);
  EXPECT_EQ(read->roots[0].fwd_outputs, std::vector<std::string>{output});
  EXPECT_TRUE(read->roots[0].children.empty());
}

TEST(PadiffDump, ReadsTheReportLayerMap) {
  test::TempDir temp;
  DumpWriter dump(temp, "a");
  const OrderedJson report = {
      {"layer_map", {{"route", OrderedJson::array({"Model.lstm"})}, {"fullname", OrderedJson::array({"LSTM"})}}},
      {"tree", OrderedJson::array()}};
  temp.write("a/report.json", report.dump());
  const auto read = read_report((dump.dir() / "report.json").string());
  ASSERT_TRUE(read) << read.error().str();
  EXPECT_EQ(read->map_routes, std::vector<std::string>{"Model.lstm"});
}

TEST(PadiffDump, PathsOfAMovedDumpResolveUnderTheJsonDirectory) {
  test::TempDir temp;
  DumpWriter dump(temp, "moved");
  dump.tensor<float>({1});
  // As the writer saw it: absolute, and relative to its own working directory.
  const OrderedJson node = {{"name", "Model"},
                            {"route", "Model"},
                            {"fwd_outputs", OrderedJson::array({"/gone/padiff_dump/Model/tensors/tensor_0.npy"})},
                            {"bwd_grads", OrderedJson::array({"padiff_dump/Model/tensors/tensor_0.npy"})}};
  temp.write("moved/report.json", OrderedJson{{"tree", OrderedJson::array({node})}}.dump());

  const auto read = read_report((dump.dir() / "report.json").string());
  ASSERT_TRUE(read) << read.error().str();
  const std::string expected = (dump.dir() / "tensors/tensor_0.npy").string();
  EXPECT_EQ(read->roots[0].fwd_outputs, std::vector<std::string>{expected});
  EXPECT_EQ(read->roots[0].bwd_grads, std::vector<std::string>{expected});
}

TEST(PadiffDump, MissingTensorFileNamesTheJsonFileTheKeyAndThePath) {
  test::TempDir temp;
  DumpWriter dump(temp, "a");
  auto child = DumpWriter::layer("Linear", "Model.fc", {"/nowhere/tensors/tensor_9.npy"});
  dump.write_report({DumpWriter::layer("Model", "Model", {dump.tensor<float>({1})}, {}, {child})});

  const auto read = read_report((dump.dir() / "report.json").string());
  ASSERT_FALSE(read);
  EXPECT_EQ(read.error().exit_code, kExitUsage);
  const std::string message = read.error().str();
  EXPECT_NE(message.find((dump.dir() / "report.json").string()), std::string::npos) << message;
  EXPECT_NE(message.find("tree[0].children[0].fwd_outputs[0].path"), std::string::npos) << message;
  EXPECT_NE(message.find("/nowhere/tensors/tensor_9.npy"), std::string::npos) << message;
}

TEST(PadiffDump, MalformedJsonNamesTheFileAndTheLine) {
  test::TempDir temp;
  const std::string path = temp.write("a/report.json", "{\n  \"tree\": [\n    {\"name\": }\n  ]\n}\n");
  const auto read = read_report(path);
  ASSERT_FALSE(read);
  ASSERT_EQ(read.error().diagnostics.size(), 1u);
  EXPECT_EQ(read.error().diagnostics[0].file, path);
  EXPECT_EQ(read.error().diagnostics[0].line, 3);
  EXPECT_NE(read.error().str().find("invalid JSON"), std::string::npos);
}

TEST(PadiffDump, WrongTypesAndUnknownLayerTypesNameTheKeyPath) {
  test::TempDir temp;
  DumpWriter dump(temp, "a");
  auto bad_route = DumpWriter::layer("Linear", "Model.fc", {});
  bad_route["route"] = 3;
  dump.write_report(
      {DumpWriter::layer("Model", "Model", {}, {}, {DumpWriter::layer("ReLU", "Model.act", {}), bad_route})});
  auto read = read_report((dump.dir() / "report.json").string());
  ASSERT_FALSE(read);
  EXPECT_EQ(read.error().diagnostics[0].key, "tree[0].children[1].route");
  EXPECT_NE(read.error().str().find("tree[0].children[1].route: expected a string, found number"), std::string::npos)
      << read.error().str();

  auto odd_type = DumpWriter::layer("Model", "Model", {});
  odd_type["type"] = "lambda";
  dump.write_report({odd_type});
  read = read_report((dump.dir() / "report.json").string());
  ASSERT_FALSE(read);
  EXPECT_NE(read.error().str().find("tree[0].type: unknown layer type 'lambda'"), std::string::npos)
      << read.error().str();
}

TEST(PadiffDump, ParametersKeepTheirJsonOrderAndNullGrads) {
  test::TempDir temp;
  DumpWriter dump(temp, "a");
  const OrderedJson weights = {{"weight", dump.tensor<float>({1})}, {"bias", dump.tensor<float>({2})}};
  const OrderedJson grads = {{"weight", dump.tensor<float>({3})}, {"bias", nullptr}};
  auto hidden = DumpWriter::param_node("Dropout", "Model.drop", OrderedJson::object());
  hidden["available"] = false;
  dump.write_params(DumpWriter::param_node("Linear", "Model.fc", weights, grads, {hidden}));

  const auto tree = read_param_tree((dump.dir() / "params.json").string());
  ASSERT_TRUE(tree) << tree.error().str();
  ASSERT_EQ(tree->root.weights.size(), 2u);
  EXPECT_EQ(tree->root.weights[0].name, "weight");  // not sorted: pairing is by position
  EXPECT_EQ(tree->root.weights[1].name, "bias");
  EXPECT_TRUE(tree->root.grads[0].path);
  EXPECT_FALSE(tree->root.grads[1].path);
  EXPECT_FALSE(tree->root.children.at(0).available);
}

TEST(PadiffDump, StepsAndRanksAreFoundInNumericOrder) {
  test::TempDir temp;
  for (const std::string step : {"step_10", "step_2", "step_0"}) {
    for (const std::string rank : {"rank_1", "rank_0"}) {
      DumpWriter dump(temp, "dump/" + step + "/" + rank);
      dump.write_report({DumpWriter::layer("Model", "Model", {dump.tensor<float>({1})})});
    }
  }
  const auto dump = read_dump((temp.path() / "dump").string());
  ASSERT_TRUE(dump) << dump.error().str();
  std::vector<std::string> labels;
  for (const StepDump& step : dump->steps)
    for (const RankDump& rank : step.ranks) labels.push_back(rank.label);
  EXPECT_EQ(labels, (std::vector<std::string>{"step_0/rank_0", "step_0/rank_1", "step_2/rank_0", "step_2/rank_1",
                                              "step_10/rank_0", "step_10/rank_1"}));
}

TEST(PadiffDump, APlainDirectoryIsTheOnlyRankAndSeparateFilesAreRead) {
  test::TempDir temp;
  DumpWriter dump(temp, "a");
  dump.write_params(DumpWriter::param_node("Linear", "Model.fc", {{"weight", dump.tensor<float>({1})}}), "paddle",
                    "weights.json");
  dump.write_params(DumpWriter::param_node("Linear", "Model.fc", {}, {{"weight", dump.tensor<float>({2})}}), "paddle",
                    "grads.json");
  const auto read = read_dump(dump.dir().string());
  ASSERT_TRUE(read) << read.error().str();
  ASSERT_EQ(read->steps.size(), 1u);
  ASSERT_EQ(read->steps[0].ranks.size(), 1u);
  const RankDump& rank = read->steps[0].ranks[0];
  EXPECT_EQ(rank.label, "");
  EXPECT_FALSE(rank.report);
  EXPECT_EQ(rank.weights->file, (dump.dir() / "weights.json").string());
  EXPECT_EQ(rank.grads->file, (dump.dir() / "grads.json").string());
}

TEST(PadiffDump, ParamsJsonServesBothWeightsAndGrads) {
  test::TempDir temp;
  DumpWriter dump(temp, "a");
  dump.write_params(DumpWriter::param_node("Linear", "Model.fc", {{"weight", dump.tensor<float>({1})}}));
  const auto read = read_dump(dump.dir().string());
  ASSERT_TRUE(read) << read.error().str();
  EXPECT_EQ(read->steps[0].ranks[0].weights->file, (dump.dir() / "params.json").string());
  EXPECT_EQ(read->steps[0].ranks[0].grads->file, (dump.dir() / "params.json").string());
}

TEST(PadiffDump, ADirectoryWithoutDumpFilesIsAnError) {
  test::TempDir temp;
  temp.write("empty/notes.txt", "hello");
  const auto read = read_dump((temp.path() / "empty").string());
  ASSERT_FALSE(read);
  EXPECT_NE(read.error().str().find("no report.json, params.json, weights.json or grads.json"), std::string::npos);
  EXPECT_FALSE(read_dump((temp.path() / "absent").string()));
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::align
