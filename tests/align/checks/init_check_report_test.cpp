#include "align/checks/init_check_report.h"

#include <gtest/gtest.h>

namespace tipc::align {
namespace {
namespace TIPC_TEST_FILE {

InitCheckReport sample_report() {
  InitComparison passed;
  passed.first = {4, 0.5, 0.25, 0, 1};
  passed.second = {4, 0.25, 0.5, -1, 1};
  passed.ks_statistic = 0.25;
  passed.ks_limit = 1.15;
  passed.histogram_overlap = 0.75;
  passed.bin_edges = {-1, 0, 1};
  passed.first_counts = {1, 3};
  passed.second_counts = {2, 2};
  passed.first_hist = {0.25, 0.75};
  passed.second_hist = {0.5, 0.5};
  passed.passed = true;
  InitComparison failed = passed;
  failed.passed = false;
  failed.reason = "KS 0.25 > 0.1";
  return {"a.npz", "b.npz", {8, 0.1}, {{"conv.weight", passed}, {"fc.bias", failed}}, {"only_a"}, {}, {"epoch"}};
}

TEST(InitCheckReport, JsonReadsBackAsWritten) {
  const InitCheckReport report = sample_report();
  const auto json = to_json(report);
  const auto read = init_check_report_from_json(json, "check.json");
  ASSERT_TRUE(read) << read.error().str();
  EXPECT_EQ(to_json(*read).dump(), json.dump());  // text: NaN, written as null, is not equal to itself
  EXPECT_EQ(read->keys[1].comparison.reason, "KS 0.25 > 0.1");
  EXPECT_EQ(read->keys[0].comparison.first_hist, report.keys[0].comparison.first_hist);
  EXPECT_EQ(read->options.max_ks, 0.1);
  EXPECT_EQ(read->passed(), 1u);
}

TEST(InitCheckReport, AWrongFieldIsNamedWithItsPath) {
  auto json = to_json(sample_report());
  json["keys"][1]["a"]["count"] = "four";
  const auto read = init_check_report_from_json(json, "check.json");
  ASSERT_FALSE(read);
  EXPECT_NE(read.error().str().find("check.json"), std::string::npos) << read.error().str();
  EXPECT_NE(read.error().str().find("keys[1].a.count"), std::string::npos) << read.error().str();
}

TEST(InitCheckReport, TextHasOneRowPerKeyAndTheCounts) {
  const std::string text = render_init_check_text(sample_report());
  EXPECT_NE(text.find("KS limit: the fixed --threshold 0.1\n"), std::string::npos) << text;
  EXPECT_NE(text.find("conv.weight"), std::string::npos) << text;
  EXPECT_NE(text.find("only in A (a.npz): only_a\n"), std::string::npos) << text;
  EXPECT_NE(text.find("not compared (not arrays): epoch\n"), std::string::npos) << text;
  EXPECT_NE(text.find("tipc-run init-check: 1 passed, 1 failed\n"), std::string::npos) << text;
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::align
