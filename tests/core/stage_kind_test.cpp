#include "core/stage_kind.h"

#include <set>
#include <string>

#include <gtest/gtest.h>

#include "core/vocabulary.h"

namespace tipc {
namespace {
namespace TIPC_TEST_FILE {

TEST(StageKind, EveryKindReadsBackFromItsWord) {
  std::set<std::string> words;
  for (const StageKind kind : kAllStageKinds) {
    EXPECT_EQ(stage_kind_from_string(to_string(kind)), kind) << to_string(kind);
    words.insert(to_string(kind));
  }
  EXPECT_EQ(words.size(), std::size(kAllStageKinds));  // no two kinds share a word
  EXPECT_EQ(words.count("?"), 0u);                     // every kind has a word of its own
}

TEST(StageKind, AnUnknownWordIsNoKind) {
  EXPECT_EQ(stage_kind_from_string("training"), std::nullopt);
  EXPECT_EQ(stage_kind_from_string("Train"), std::nullopt);
  EXPECT_EQ(stage_kind_from_string(""), std::nullopt);
}

TEST(StageKind, KnownWordsListsEveryKindInOrder) {
  EXPECT_EQ(known_words(kAllStageKinds), "train, eval, export, infer, check, convert, service, other, setup");
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc
