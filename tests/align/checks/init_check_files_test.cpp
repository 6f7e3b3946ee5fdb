// The init check of two files, called directly (tests/cli/init_check_command_test.cpp runs
// the command on dict files numpy writes).
#include "align/checks/init_check_files.h"

#include <gtest/gtest.h>

#include "support/npy_file.h"
#include "support/temp_dir.h"

namespace tipc::align {
namespace {
namespace TIPC_TEST_FILE {

TEST(InitCheckFiles, TwoPlainArraysCompareAsOneKeyWithoutAName) {
  test::TempDir dir;
  const std::string a = dir.write("a.npy", test::npy_float32({0.1f, -0.2f, 0.3f, 0.05f, -0.1f, 0.2f}));
  const std::string b = dir.write("b.npy", test::npy_float32({0.15f, -0.1f, 0.25f, 0.0f, -0.2f, 0.1f}));
  const auto report = check_initialisation_files(a, b, {}, {});
  ASSERT_TRUE(report) << report.error().str();
  ASSERT_EQ(report->keys.size(), 1u);
  EXPECT_EQ(report->keys[0].key, "");
  EXPECT_EQ(report->keys[0].comparison.first.count, 6u);
  EXPECT_EQ(report->passed(), report->keys[0].comparison.passed ? 1u : 0u);
}

TEST(InitCheckFiles, NpzMembersCompareKeyByKeyAndTheRestIsListed) {
  test::TempDir dir;
  const std::string a =
      dir.write("a.npz", test::npz({{"w", test::npy_float32({0.1f, 0.2f, 0.3f})}, {"only_a", test::npy_float32({1})}}));
  const std::string b =
      dir.write("b.npz", test::npz({{"w", test::npy_float32({0.1f, 0.2f, 0.3f})}, {"only_b", test::npy_float32({1})}}));
  const auto report = check_initialisation_files(a, b, {}, {});
  ASSERT_TRUE(report) << report.error().str();
  ASSERT_EQ(report->keys.size(), 1u);
  EXPECT_EQ(report->keys[0].key, "w");
  EXPECT_TRUE(report->all_passed());
  EXPECT_EQ(report->only_in_a, std::vector<std::string>{"only_a"});
  EXPECT_EQ(report->only_in_b, std::vector<std::string>{"only_b"});
}

TEST(InitCheckFiles, AWantedKeyMissingFromAFileNamesTheFileAndKey) {
  test::TempDir dir;
  const std::string a = dir.write("a.npz", test::npz({{"w", test::npy_float32({0.1f, 0.2f})}}));
  const std::string b = dir.write("b.npz", test::npz({{"v", test::npy_float32({0.1f, 0.2f})}}));
  const auto report = check_initialisation_files(a, b, {"w"}, {});
  ASSERT_FALSE(report);
  EXPECT_NE(report.error().str().find("b.npz"), std::string::npos) << report.error().str();
  EXPECT_NE(report.error().str().find("key 'w' is not in the file"), std::string::npos) << report.error().str();
}

TEST(InitCheckFiles, APlainArrayAgainstADictIsAnError) {
  test::TempDir dir;
  const std::string a = dir.write("a.npy", test::npy_float32({0.1f, 0.2f}));
  const std::string b = dir.write("b.npz", test::npz({{"w", test::npy_float32({0.1f, 0.2f})}}));
  const auto report = check_initialisation_files(a, b, {}, {});
  ASSERT_FALSE(report);
  EXPECT_NE(report.error().str().find("compare two of a kind"), std::string::npos) << report.error().str();
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::align
