#include "plan/path_relation.h"

#include <gtest/gtest.h>

namespace tipc::plan {
namespace {
namespace TIPC_TEST_FILE {

TEST(PathRelation, PathsAreNormalisedRelativeToTheDirectoryTheyAreNamedIn) {
  EXPECT_EQ(normalised_path(".", "build"), "build");
  EXPECT_EQ(normalised_path("deploy/cpp", "./build/"), "deploy/cpp/build");
  EXPECT_EQ(normalised_path("deploy/cpp", "../../.."), "..");
  EXPECT_EQ(normalised_path("deploy", "../../x/./y"), "../x/y");
  EXPECT_EQ(normalised_path("deploy", "/usr/local/../lib/"), "/usr/lib");
  EXPECT_EQ(normalised_path("deploy", ".."), ".");
  EXPECT_EQ(normalised_path(".", "/.."), "/");
}

TEST(PathRelation, WithinMeansEqualOrInsideByWholeComponents) {
  EXPECT_TRUE(path_within("deploy/cpp", "deploy/cpp"));
  EXPECT_TRUE(path_within("deploy/cpp/build", "deploy"));
  EXPECT_FALSE(path_within("deploy_old/cpp", "deploy"));
  EXPECT_FALSE(path_within("deploy", "deploy/cpp"));
  EXPECT_TRUE(path_within("/opt/x", "."));
}

TEST(PathRelation, RelatedPathsTouchInEitherDirection) {
  EXPECT_TRUE(paths_related("deploy", "deploy/cpp/build"));
  EXPECT_TRUE(paths_related("deploy/cpp/build", "deploy"));
  EXPECT_FALSE(paths_related("deploy/cpp", "deploy/python"));
}

TEST(PathRelation, AnyPairAppliesTheTestToEveryPairing) {
  EXPECT_TRUE(any_pair({"a", "b/c"}, {"x", "b"}, paths_related));
  EXPECT_FALSE(any_pair({"a", "b/c"}, {"x", "bc"}, paths_related));
  EXPECT_FALSE(any_pair({}, {"x"}, paths_related));
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::plan
