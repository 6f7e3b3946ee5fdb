#include "config/train_infer_config.h"

#include <gtest/gtest.h>

namespace tipc::config {
namespace {
namespace TIPC_TEST_FILE {

TEST(TrainInferConfig, PositionsPastTheEndReadAsEmpty) {
  ConfigText text{"c.txt", {{"model_name:m", "", 1}, {"python:py", "", 3}}, 3, {}};
  const auto config = split_config(text, {});
  EXPECT_EQ(config.value(2), "py");
  EXPECT_EQ(config.at(2).physical_line, 3);
  EXPECT_EQ(config.key(40), "");
  EXPECT_EQ(config.at(40).physical_line, 0);
  EXPECT_EQ(config.physical[1], "");
  EXPECT_EQ(config.physical[2], "python:py");
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::config
