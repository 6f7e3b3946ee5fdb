// The last bytes of a file: the whole of a short file, the window of a long one, a cut
// first line dropped on request, and nothing for a file that cannot be read.
#include "core/file_tail.h"

#include <gtest/gtest.h>

#include "support/temp_dir.h"

namespace tipc {
namespace {
namespace TIPC_TEST_FILE {

TEST(FileTail, AShortFileIsReadWholeAndALongOneFromItsWindow) {
  test::TempDir dir;
  const std::string path = dir.write("log", "first line\nsecond line\nlast\n");
  EXPECT_EQ(file_tail(path, 4096), "first line\nsecond line\nlast\n");
  EXPECT_EQ(file_tail(path, 11), " line\nlast\n");
}

TEST(FileTail, TheLinesFormDropsOnlyALineTheWindowCutInto) {
  test::TempDir dir;
  const std::string path = dir.write("log", "first line\nsecond line\nlast\n");
  EXPECT_EQ(file_tail_lines(path, 10), "last\n");
  EXPECT_EQ(file_tail_lines(path, 15), "last\n") << "the window starts inside 'second line'";
  EXPECT_EQ(file_tail_lines(path, 4096), "first line\nsecond line\nlast\n") << "the file's own first line is whole";
}

TEST(FileTail, AMissingFileIsEmpty) {
  EXPECT_EQ(file_tail("/nonexistent/tipc-run/log", 10), "");
  EXPECT_EQ(file_tail_lines("/nonexistent/tipc-run/log", 10), "");
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc
