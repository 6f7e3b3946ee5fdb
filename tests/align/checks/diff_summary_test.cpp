#include "align/checks/diff_summary.h"

#include <cmath>
#include <limits>

#include <gtest/gtest.h>

namespace tipc::align {
namespace {
namespace TIPC_TEST_FILE {

DiffSummary sample_summary() {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  return {"a.npy",
          "b.npy",
          "mean,max",
          1e-6,
          false,
          {{"logits", true, "", {2, 3}, {{Statistic::kMean, 0.0}, {Statistic::kMax, 1e-7}}},
           {"head.w", false, "NaN", {4}, {{Statistic::kMean, nan}, {Statistic::kMax, nan}}},
           {"shape", false, "shapes (2,) and (3,) differ", {}, {}}},
          {"broadcast logits"}};
}

TEST(DiffSummary, JsonReadsBackAsWritten) {
  const auto json = to_json(sample_summary());
  const auto read = diff_summary_from_json(json, "check.json");
  ASSERT_TRUE(read) << read.error().str();
  EXPECT_EQ(to_json(*read).dump(), json.dump());  // text: NaN, written as null, is not equal to itself
  ASSERT_EQ(read->keys.size(), 3u);
  EXPECT_EQ(read->keys[0].values[1].first, Statistic::kMax);
  EXPECT_TRUE(std::isnan(read->keys[1].values[0].second));  // written as null
  EXPECT_EQ(read->keys[0].shape, (std::vector<std::size_t>{2, 3}));
  EXPECT_EQ(read->warnings, std::vector<std::string>{"broadcast logits"});
}

TEST(DiffSummary, AnUnknownStatisticIsNamedWithItsPath) {
  auto json = to_json(sample_summary());
  json["keys"][0]["values"]["median"] = 0.5;
  const auto read = diff_summary_from_json(json, "check.json");
  ASSERT_FALSE(read);
  EXPECT_NE(read.error().str().find("keys[0].values.median"), std::string::npos) << read.error().str();
}

TEST(DiffSummary, AnotherChecksFileIsNotADiff) {
  auto json = to_json(sample_summary());
  json["check"] = "init-check";
  const auto read = diff_summary_from_json(json, "check.json");
  ASSERT_FALSE(read);
  EXPECT_NE(read.error().str().find("field 'check'"), std::string::npos) << read.error().str();
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::align
