#include "config/train_infer_config.h"

#include <gtest/gtest.h>

namespace tipc::config {
namespace {

using List = std::vector<std::string>;

TEST(SplitList, KeepsEmptyInnerAndLeadingElementsLikeIfs) {
  EXPECT_EQ(split_list("a|b"), (List{"a", "b"}));
  EXPECT_EQ(split_list("a||b"), (List{"a", "", "b"}));
  EXPECT_EQ(split_list("|a"), (List{"", "a"}));
  EXPECT_EQ(split_list("a|"), (List{"a"}));
  EXPECT_EQ(split_list("a||"), (List{"a", ""}));
  EXPECT_EQ(split_list(" a | b "), (List{" a ", " b "}));
  EXPECT_EQ(split_list(""), List{});
  EXPECT_EQ(split_list("0,1", ','), (List{"0", "1"}));
}

TEST(TrainInferConfig, PositionsPastTheEndReadAsEmpty) {
  ConfigText text{"c.txt", {{"model_name:m", 1}, {"python:py", 3}}, 3};
  const auto config = split_config(text, {});
  EXPECT_EQ(config.value(2), "py");
  EXPECT_EQ(config.at(2).physical_line, 3);
  EXPECT_EQ(config.key(40), "");
  EXPECT_EQ(config.at(40).physical_line, 0);
  EXPECT_EQ(config.physical[1], "");
  EXPECT_EQ(config.physical[2], "python:py");
}

}  // namespace
}  // namespace tipc::config

namespace tipc::config {
namespace {

TEST(TrainInferConfig, HeadersOpenNamedSections) {
  ConfigText text{"c.txt",
                  {{"=====train_params=====", 1},
                   {"model_name:m", 2},
                   {"===========================train_benchmark_params==========================", 4},
                   {"batch_size:8", 5},
                   {"fp_items:fp32|fp16", 6}},
                  6};
  const auto config = split_config(text, {});
  ASSERT_EQ(config.sections.size(), 2u);
  EXPECT_EQ(config.sections[0].name, "train_params");
  const Section* bench = config.section("train_benchmark_params");
  ASSERT_NE(bench, nullptr);
  EXPECT_EQ(bench->header_line, 4);
  ASSERT_EQ(bench->fields.size(), 2u);
  EXPECT_EQ(bench->fields[1].key, "fp_items");
  EXPECT_EQ(bench->fields[1].value, "fp32|fp16");
  EXPECT_EQ(bench->fields[1].physical_line, 6);
  EXPECT_EQ(config.section("infer_benchmark_params"), nullptr);
}

}  // namespace
}  // namespace tipc::config
