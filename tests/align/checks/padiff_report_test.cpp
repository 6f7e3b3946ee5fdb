// The padiff text, from results built here (tests/cli/padiff_command_test.cpp runs the
// command on dumps written to disk).
#include "align/checks/padiff_report.h"

#include <gtest/gtest.h>

namespace tipc::align {
namespace {
namespace TIPC_TEST_FILE {

LayerComparison failing_linear() {
  LayerComparison layer;
  layer.check = Check::kForward;
  layer.a_route = layer.b_route = "Model.fc";
  layer.a_class = "Linear";
  layer.b_class = "Dense";
  TensorComparison tensor;
  tensor.passed = false;
  tensor.detail = "means 0.5 and 0.25 differ";
  tensor.elements = ElementDiff{0.75, {1, 2}, 1.0, 0.25, 3, 6};
  layer.tensors = {tensor};
  return layer;
}

TEST(PadiffReport, AFailureShowsTheFirstDivergenceAndTheLargestDifferences) {
  PadiffResult result;
  result.layers = {failing_linear()};
  result.divergences = {{Check::kForward, "", 0, "output 0 differs"}};
  result.ranks = 1;
  const std::string text = render_padiff_text(result, {"a", "b", {CompareMode::kStrict, 0, 1e-7}, 10});
  EXPECT_TRUE(
      text.starts_with("tipc-run padiff: A a, B b: 1 layer pair compared in 1 rank directory pair (mode strict, "
                       "atol 0, rtol 1e-07)\n"))
      << text;
  EXPECT_NE(text.find("first divergence: forward\n  layer:  Linear vs Dense\n  route:  Model.fc\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("    max |diff| 0.75 at [1, 2] (A 1, B 0.25), 3 of 6 elements outside the tolerance\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("largest differences (1 of 1 layers):\n  FAIL 0.75"), std::string::npos) << text;
  EXPECT_TRUE(text.ends_with("FAIL: 1 divergence\n")) << text;
}

TEST(PadiffReport, APassListsNoDivergence) {
  PadiffResult result;
  result.ranks = 1;
  const std::string text = render_padiff_text(result, {"a", "b", {}, 10});
  EXPECT_EQ(text.find("divergence:"), std::string::npos) << text;
  EXPECT_TRUE(text.ends_with("PASS: no divergence\n")) << text;
}

TEST(PadiffReport, MissingDumpsAreAnError) {
  const auto result = compare_dump_directories("/nonexistent/a", "/nonexistent/b", {});
  ASSERT_FALSE(result);
  EXPECT_NE(result.error().str().find("/nonexistent/a"), std::string::npos) << result.error().str();
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::align
