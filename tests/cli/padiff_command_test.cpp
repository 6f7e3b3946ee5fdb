// `tipc-run padiff DUMP_A DUMP_B`, run as a user would: the report on stdout, warnings and
// errors on stderr, and the exit code (0 pass, 1 divergence, 2 bad input).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/padiff_dumps.h"
#include "support/run_binary.h"
#include "support/temp_dir.h"

namespace tipc::cli {
namespace {
namespace TIPC_TEST_FILE {

using test::DumpWriter;
using test::OrderedJson;

// M( block(fc1 fc2) fc3 ) in "a" and "b"; B's fc2 and everything after it are `b_value`.
void write_dumps(const test::TempDir& temp, float b_value) {
  for (auto [dir, value] : {std::pair{"a", 1.f}, std::pair{"b", b_value}}) {
    DumpWriter dump(temp, dir);
    const auto layer = [&](const std::string& route, float v, std::vector<OrderedJson> children = {}) {
      return DumpWriter::layer("Linear", route, {dump.tensor<float>({1, v})}, {}, children);
    };
    dump.write_report({layer(
        "M", value,
        {layer("M.block", value, {layer("M.block.fc1", 1), layer("M.block.fc2", value)}), layer("M.fc3", value)})});
  }
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(PadiffCommand, MatchingDumpsPassWithExitZero) {
  test::TempDir temp;
  write_dumps(temp, 1);
  const auto run = test::run_tipc(temp.path(), {"padiff", "a", "b"});
  EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_TRUE(contains(run.out,
                       "tipc-run padiff: A a, B b: 5 layer pairs compared in 1 rank directory pair "
                       "(mode mean, atol 0, rtol 1e-07)\n"))
      << run.out;
  EXPECT_TRUE(contains(run.out, "largest differences (5 of 5 layers):\n")) << run.out;
  EXPECT_TRUE(contains(run.out, "PASS: no divergence\n")) << run.out;
  EXPECT_EQ(run.err, "");
}

TEST(PadiffCommand, ADivergenceExitsOneAndNamesTheFirstDivergingLayer) {
  test::TempDir temp;
  write_dumps(temp, 3);
  const auto run = test::run_tipc(temp.path(), {"padiff", "a", "b", "--top", "2"});
  EXPECT_EQ(run.exit_code, 1) << run.out << run.err;
  EXPECT_TRUE(contains(run.out,
                       "first divergence: forward\n"
                       "  layer:  Linear\n"
                       "  route:  M.block.fc2\n"
                       "  reason: no sublayers\n"
                       "  output 0: mean 1 vs 2 differ by more than atol + rtol * |B| = 2e-07\n"
                       "    max |diff| 2 at [1] (A 1, B 3), 1 of 2 elements outside the tolerance\n"))
      << run.out;
  EXPECT_TRUE(contains(run.out,
                       "divergences (2):\n"
                       "  forward   M.block.fc2: no sublayers; max |diff| 2 at output 0 [1], 1 of 2 elements "
                       "outside the tolerance\n"
                       "  forward   M.fc3: no sublayers; max |diff| 2 at output 0 [1], 1 of 2 elements outside the "
                       "tolerance\n"))
      << run.out;
  EXPECT_TRUE(
      contains(run.out, "largest differences (2 of 5 layers):\n  FAIL 2            forward   M  output 0 [1]\n"))
      << run.out;
  EXPECT_TRUE(contains(run.out, "FAIL: 2 divergences\n")) << run.out;
}

// The largest-differences table names API calls (whose route is empty) by API and call index.
TEST(PadiffCommand, ApiCallsHaveNamesInTheTables) {
  test::TempDir temp;
  for (auto [dir, value] : {std::pair{"a", 1.f}, std::pair{"b", 3.f}}) {
    DumpWriter dump(temp, dir);
    OrderedJson call = DumpWriter::layer("matmul", "", {dump.tensor<float>({1, value})});
    call["type"] = "api";
    dump.write_report({DumpWriter::layer("Linear", "M", {dump.tensor<float>({1, value})}, {}, {call})});
  }
  const auto run = test::run_tipc(temp.path(), {"padiff", "a", "b"});
  EXPECT_EQ(run.exit_code, 1) << run.out << run.err;
  EXPECT_TRUE(contains(run.out, "  forward   M/matmul#0: no sublayers;")) << run.out;
  EXPECT_TRUE(contains(run.out, "  FAIL 2            forward   M/matmul#0  output 0 [1]\n")) << run.out;
}

TEST(PadiffCommand, PadiffCompatChecksOnlyTheFirstStep) {
  test::TempDir temp;
  for (const std::string step : {"step_0", "step_1"}) {
    for (auto [dir, value] : {std::pair{"a", 1.f}, std::pair{"b", step == "step_1" ? 3.f : 1.f}}) {
      DumpWriter dump(temp, std::string(dir) + "/" + step);
      dump.write_report({DumpWriter::layer("Linear", "M", {dump.tensor<float>({1, value})})});
    }
  }
  EXPECT_EQ(test::run_tipc(temp.path(), {"padiff", "a", "b"}).exit_code, 1);
  const auto compat = test::run_tipc(temp.path(), {"padiff", "a", "b", "--padiff-compat"});
  EXPECT_EQ(compat.exit_code, 0) << compat.out << compat.err;
  EXPECT_TRUE(contains(compat.err, "only step_0 of 2 steps checked")) << compat.err;
}

TEST(PadiffCommand, TheModeAndTheTolerancesDecide) {
  test::TempDir temp;
  for (auto [dir, values] : {std::pair{"a", std::vector<float>{1, 2}}, std::pair{"b", std::vector<float>{2, 1}}}) {
    DumpWriter dump(temp, dir);
    dump.write_report({DumpWriter::layer("Linear", "M", {dump.tensor<float>(values)})});
  }
  EXPECT_EQ(test::run_tipc(temp.path(), {"padiff", "a", "b"}).exit_code, 0);  // equal means
  EXPECT_EQ(test::run_tipc(temp.path(), {"padiff", "a", "b", "--mode", "strict"}).exit_code, 1);
  EXPECT_EQ(test::run_tipc(temp.path(), {"padiff", "a", "b", "--mode", "strict", "--atol", "1"}).exit_code, 0);
  EXPECT_EQ(test::run_tipc(temp.path(), {"padiff", "a", "b", "--mode", "strict", "--rtol", "0.5"}).exit_code, 1);
  EXPECT_EQ(test::run_tipc(temp.path(), {"padiff", "a", "b", "--mode", "strict", "--rtol", "1"}).exit_code, 0);
}

TEST(PadiffCommand, BadInputExitsTwoAndSaysWhere) {
  test::TempDir temp;
  write_dumps(temp, 1);
  const auto bad_mode = test::run_tipc(temp.path(), {"padiff", "a", "b", "--mode", "median"});
  EXPECT_EQ(bad_mode.exit_code, 2);

  temp.write("map.yaml", "base:\n  ignore_recursivly: [M.block]\n");
  const auto bad_map = test::run_tipc(temp.path(), {"padiff", "a", "b", "--layer-map", "map.yaml"});
  EXPECT_EQ(bad_map.exit_code, 2);
  EXPECT_TRUE(contains(bad_map.err, "map.yaml:2: base.ignore_recursivly: unknown key")) << bad_map.err;

  std::filesystem::remove(temp.path() / "b/tensors/tensor_3.npy");
  const auto missing = test::run_tipc(temp.path(), {"padiff", "a", "b"});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_TRUE(contains(missing.err,
                       "tipc-run padiff: error: b/report.json: tree[0].children[1].fwd_outputs[0].path: tensor file"))
      << missing.err;
  EXPECT_TRUE(contains(missing.err, "tensor_3.npy")) << missing.err;
}

TEST(PadiffCommand, TheLayerMapIsAppliedAndItsTyposAreWarnedAbout) {
  test::TempDir temp;
  write_dumps(temp, 3);
  temp.write("map.yaml",
             "base:\n  ignore_recursively: [M.block, M.fc3, M.typo]\n"
             "raw:\n  ignore_recursively: [M.block, M.fc3]\n");
  const auto run = test::run_tipc(temp.path(), {"padiff", "a", "b", "--layer-map", "map.yaml"});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_TRUE(contains(run.out, "first divergence: forward\n  layer:  Linear\n  route:  M\n  reason: no sublayers\n"))
      << run.out;
  EXPECT_EQ(run.err, "tipc-run padiff: warning: map.yaml:2: base route 'M.typo' names no layer in the base dump\n");
}

TEST(PadiffCommand, TheLayoutFileIsReadAndItsUnusedRulesAndBadLinesAreReported) {
  test::TempDir temp;
  write_dumps(temp, 1);
  temp.write("layout.yaml", "layout:\n  M.block.fc1: transpose\n  M.typo: transpose\n");
  const auto run = test::run_tipc(temp.path(), {"padiff", "a", "b", "--layout", "layout.yaml"});
  EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_EQ(run.err,
            "tipc-run padiff: warning: layout rule 'M.typo: transpose' (layout.yaml:3) was used for no compared "
            "tensor of B\n");

  temp.write("layout.yaml", "layout:\n  M.block.fc1: nhwc\n");
  const auto bad = test::run_tipc(temp.path(), {"padiff", "a", "b", "--layout", "layout.yaml"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_TRUE(contains(bad.err, "layout.yaml:2")) << bad.err;
  EXPECT_TRUE(contains(bad.err, "unknown transform 'nhwc'")) << bad.err;
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::cli
