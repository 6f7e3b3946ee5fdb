#include "run/log_scanner.h"

#include <gtest/gtest.h>

namespace tipc::run {
namespace {
namespace TIPC_TEST_FILE {

std::vector<std::string> scan(const std::vector<std::string>& chunks, bool train = true) {
  LogScanner scanner(default_log_patterns(train));
  for (const auto& c : chunks) scanner.feed(c);
  scanner.finish();
  return scanner.findings();
}

TEST(LogScanner, FindsATracebackAcrossChunkBoundaries) {
  const auto f = scan({"epoch 1 ok\nTrace", "back (most recent call last):\n  File \"x.py\"\n"});
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0], "python traceback at line 2: Traceback (most recent call last):");
}

TEST(LogScanner, FindsNanAndInfLossesInTrainsOnly) {
  EXPECT_EQ(scan({"[epoch 1, iter 3] loss: nan, lr: 0.1\n"}).size(), 1u);
  EXPECT_EQ(scan({"epoch=1 loss=INF acc=0.1"}).size(), 1u);
  EXPECT_EQ(scan({"train_loss: -inf\n"}).size(), 1u);
  EXPECT_TRUE(scan({"loss: 0.25 (min loss: 0.1)\n", "infer nan count: 0\n"}).empty());
  EXPECT_TRUE(scan({"loss: nan\n"}, false).empty());
}

TEST(LogScanner, ReportsEachPatternOnce) { EXPECT_EQ(scan({"loss: nan\nloss: nan\nloss: nan\n"}).size(), 1u); }

TEST(LogScanner, MemoryIsBoundedOnHugeLines) {
  LogScanner scanner(default_log_patterns(true));
  const std::string block(1 << 20, 'x');
  for (int i = 0; i < 64; ++i) scanner.feed(block);  // a 64 MiB line
  scanner.feed("\nTraceback (most recent call last):\n");
  scanner.finish();
  ASSERT_EQ(scanner.findings().size(), 1u);
  EXPECT_NE(scanner.findings()[0].find("line 2"), std::string::npos);
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::run
