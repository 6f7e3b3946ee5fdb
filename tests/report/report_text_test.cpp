#include "report/report_text.h"

#include <gtest/gtest.h>

namespace tipc::report {
namespace {
namespace TIPC_TEST_FILE {

TEST(CheckFailuresText, ListsTheFailingValuesAndNotesAndIsEmptyWhenNoneFails) {
  CheckDetails check;
  check.values = {{"a", 1e-7, 1e-6, true}, {"b", 2e-5, 1e-6, false}};
  check.notes = {"only in B: bias"};
  EXPECT_EQ(check_failures_text(check), "b = 2e-05 > limit 1e-06: FAIL\nnote: only in B: bias\n");
  check.values[1].value = 3e-5;  // another value: another text
  EXPECT_EQ(check_failures_text(check), "b = 3e-05 > limit 1e-06: FAIL\nnote: only in B: bias\n");
  check.values.pop_back();
  EXPECT_EQ(check_failures_text(check), "");
}

TEST(GpusText, NoneIsSaidOnceAndASourceOnlyWhenItTellsSomething) {
  EXPECT_EQ(gpus_text({}, "none"), "none");
  EXPECT_EQ(gpus_text({}, ""), "none");
  EXPECT_EQ(gpus_text({}, "--gpus"), "none (--gpus)");
  EXPECT_EQ(gpus_text({"0", "1"}, "nvidia-smi -L"), "0, 1 (nvidia-smi -L)");
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::report
