#include "align/checks/verdict.h"

#include <gtest/gtest.h>

namespace tipc::align {
namespace {
namespace TIPC_TEST_FILE {

TEST(AlignVerdict, EveryVerdictReadsBackFromItsWord) {
  for (const Verdict verdict :
       {Verdict::kPass, Verdict::kFail, Verdict::kMissing, Verdict::kSkipped, Verdict::kError}) {
    EXPECT_EQ(verdict_from_string(to_string(verdict)), verdict) << to_string(verdict);
  }
}

TEST(AlignVerdict, WordsAreTheOnesTheReportsPrint) {
  EXPECT_STREQ(to_string(Verdict::kPass), "PASS");
  EXPECT_STREQ(to_string(Verdict::kSkipped), "SKIPPED");
}

TEST(AlignVerdict, UnknownWordIsNoVerdict) {
  EXPECT_EQ(verdict_from_string("pass"), std::nullopt);
  EXPECT_EQ(verdict_from_string(""), std::nullopt);
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::align
