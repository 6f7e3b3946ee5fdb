#include "core/check_kind.h"

#include <gtest/gtest.h>

#include "core/vocabulary.h"

namespace tipc {
namespace {
namespace TIPC_TEST_FILE {

TEST(CheckKind, EveryKindReadsBackFromItsSubcommand) {
  for (const CheckKind kind : kAllCheckKinds) EXPECT_EQ(check_kind_from_string(to_string(kind)), kind);
  EXPECT_EQ(known_words(kAllCheckKinds), "diff, compare-results, init-check");
}

TEST(CheckKind, AnUnknownWordIsNoKind) {
  EXPECT_EQ(check_kind_from_string("padiff"), std::nullopt);
  EXPECT_EQ(check_kind_from_string("compare_results"), std::nullopt);
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc
