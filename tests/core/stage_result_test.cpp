#include "core/stage_result.h"

#include <set>
#include <string>

#include <gtest/gtest.h>

#include "core/vocabulary.h"

namespace tipc {
namespace {
namespace TIPC_TEST_FILE {

TEST(StageResult, EveryResultReadsBackFromItsWord) {
  std::set<std::string> words;
  for (const StageResult result : kAllStageResults) {
    EXPECT_EQ(stage_result_from_string(to_string(result)), result) << to_string(result);
    words.insert(to_string(result));
  }
  EXPECT_EQ(words.size(), std::size(kAllStageResults));
  EXPECT_EQ(known_words(kAllStageResults), "PASS, FAIL, TIMEOUT, UNSUPPORTED, SKIPPED, UNRESOLVED, FLAKY");
}

TEST(StageResult, AnUnknownWordIsNoResult) {
  EXPECT_EQ(stage_result_from_string("pass"), std::nullopt);     // the words are upper case
  EXPECT_EQ(stage_result_from_string("PARTIAL"), std::nullopt);  // a run's verdict, not a stage's result
  EXPECT_EQ(stage_result_from_string(""), std::nullopt);
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc
