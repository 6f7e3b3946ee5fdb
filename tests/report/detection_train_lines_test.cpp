// PaddleDetection's train lines (issue 38, item 9): `Epoch: [0] [  3/9]`, the step a
// bracketed fraction with no key of its own. Each step is a point of the curve, and the
// final values are the last step's; before, every line of an epoch had the epoch for its x,
// so the curve was one point and the final loss the first step's.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "report/log_fields.h"
#include "report/log_metrics.h"
#include "support/log_samples.h"

namespace tipc::report {
namespace {
namespace TIPC_TEST_FILE {

using test::find_curve;
using test::values_of;
using test::xs_of;

std::string detection_line(int epoch, int step, double loss) {
  return fmt::format(
      "[06/05 10:00:00] ppdet.engine INFO: Epoch: [{}] [{:>3}/9] learning_rate: 0.000100 loss: {:.6f} "
      "loss_cls: 0.500000 eta: 0:10:00 batch_cost: 0.5000 data_cost: 0.0100 ips: 16.0000 images/s\n",
      epoch, step, loss);
}

TEST(DetectionTrainLines, EachStepIsAPointAndTheLastStepsValuesAreTheFinalOnes) {
  std::string log;
  double loss = 3.0;
  for (int epoch = 0; epoch < 2; ++epoch) {
    for (const int step : {0, 3, 6, 8}) log += detection_line(epoch, step, loss -= 0.25);
  }
  const StageMetrics metrics = parse_stage_metrics(StageKind::kTrain, log);

  const Curve* losses = find_curve(metrics, "loss");
  ASSERT_TRUE(losses);
  EXPECT_EQ(xs_of(*losses), (std::vector<double>{0, 3, 6, 8, 9, 12, 15, 17}));
  EXPECT_EQ(values_of(*losses), (std::vector<double>{2.75, 2.5, 2.25, 2.0, 1.75, 1.5, 1.25, 1.0}));
  EXPECT_DOUBLE_EQ(metrics.final_values.at("loss"), 1.0);
  ASSERT_TRUE(find_curve(metrics, "learning_rate"));
  EXPECT_EQ(find_curve(metrics, "learning_rate")->points.size(), 8u);
  ASSERT_TRUE(metrics.benchmark);
  EXPECT_EQ(metrics.benchmark->ips->steps, 6u);  // eight steps, the first two warm-up
}

TEST(DetectionTrainLines, TheStepIsReadOnlyRightAfterTheEpochsOwnValue) {
  const auto keys = [](std::string_view line) {
    std::vector<std::string> found;
    for (const auto& field : log_fields::scan_fields(line))
      found.push_back(fmt::format("{}={}", field.key, field.value));
    return found;
  };
  EXPECT_EQ(keys("Epoch: [2] [ 14/120] loss: 1.5"), (std::vector<std::string>{"Epoch=[2]", "iter=14/120", "loss=1.5"}));
  EXPECT_EQ(keys("Epoch: [2] [14/120]"), (std::vector<std::string>{"Epoch=[2]", "iter=14/120"}));
  EXPECT_EQ(keys("Epoch: [2] loss: 1.5 [14/120]"), (std::vector<std::string>{"Epoch=[2]", "loss=1.5"}));
  EXPECT_EQ(keys("epoch: [1/10] [3/9]"), (std::vector<std::string>{"epoch=[1/10]"}));  // PaddleOCR's own total
  EXPECT_EQ(keys("Epoch: [2] [ab/9]"), (std::vector<std::string>{"Epoch=[2]"}));
  EXPECT_EQ(keys("Epoch: [2] [14/120"), (std::vector<std::string>{"Epoch=[2]"}));
  EXPECT_EQ(keys("Epoch: [2"), (std::vector<std::string>{"Epoch="}));
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::report
