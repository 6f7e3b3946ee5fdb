// Input files are opened without blocking and refused unless regular (issue 37, defect 8):
// open() of a FIFO waited for a writer forever before the regular-file check could run.
#include "core/regular_file.h"

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <future>
#include <string>

#include "support/temp_dir.h"

namespace tipc {
namespace {
namespace TIPC_TEST_FILE {

TEST(RegularFile, ReadsTheWholeFileOrItsFirstBytesUpToTheLimit) {
  test::TempDir dir;
  const std::string path = dir.write("a.txt", "0123456789");
  EXPECT_EQ(read_regular_file(path, {"the input"}).value(), "0123456789");
  EXPECT_EQ(read_regular_file(path, {"the input"}, 4).value(), "0123");
  const auto opened = open_regular_file(path, {"the input"});
  ASSERT_TRUE(opened) << opened.error().str();
  EXPECT_EQ(opened->size, 10u);
  EXPECT_EQ(::fcntl(opened->fd.get(), F_GETFL) & O_NONBLOCK, 0) << "reads after the check must block as usual";
}

TEST(RegularFile, AFifoIsRefusedAtOnceNamingIt) {
  test::TempDir dir;
  const std::string fifo = (dir.path() / "pipe").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0) << std::strerror(errno);
  auto read = std::async(std::launch::async, [&] { return read_regular_file(fifo, {"the config file", "open"}); });
  if (read.wait_for(std::chrono::seconds(20)) == std::future_status::timeout) {
    ADD_FAILURE() << "blocked on the FIFO";
    ::close(::open(fifo.c_str(), O_WRONLY));  // a writer that comes and goes releases the blocked open
  }
  const auto result = read.get();
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().str(),
            fifo + ": cannot read the config file: it is a FIFO (named pipe), not a regular file");
}

TEST(RegularFile, ADirectoryADeviceAndASocketAreRefusedNamingWhatTheyAre) {
  test::TempDir dir;
  const std::string socket_path = (dir.path() / "sock").string();
  const int sock = ::socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::strncpy(address.sun_path, socket_path.c_str(), sizeof address.sun_path - 1);
  ASSERT_EQ(::bind(sock, reinterpret_cast<const sockaddr*>(&address), sizeof address), 0) << std::strerror(errno);
  const std::pair<std::string, std::string> cases[] = {
      {dir.path().string(), "a directory"}, {"/dev/null", "a character device"}, {socket_path, "a socket"}};
  for (const auto& [path, kind] : cases) {
    const auto result = open_regular_file(path, {"the settings file"});
    ASSERT_FALSE(result) << path;
    EXPECT_EQ(result.error().str(), path + ": cannot read the settings file: it is " + kind + ", not a regular file");
  }
  ::close(sock);
}

TEST(RegularFile, AMissingFileSaysWhyWithTheVerbOfItsRole) {
  EXPECT_EQ(read_regular_file("/nonexistent/x.txt", {"the config file", "open"}).error().str(),
            "/nonexistent/x.txt: cannot open the config file: No such file or directory");
  EXPECT_EQ(read_regular_file("/nonexistent/x.yaml", {"the settings file"}).error().str(),
            "/nonexistent/x.yaml: cannot read the settings file: No such file or directory");
}

TEST(RegularFile, ARoleThatFollowsNoLinksRefusesALinkToARegularFile) {
  test::TempDir dir;
  const auto target = dir.write("secret.txt", "root only\n");
  const auto link = (dir.path() / "log").string();
  std::filesystem::create_symlink(target, link);
  EXPECT_EQ(read_regular_file(link, {"the config file"}).value(), "root only\n");
  const auto refused = read_regular_file(link, {"a file the traced runner left", "read", false});
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().str(),
            link + ": cannot read a file the traced runner left: Too many levels of symbolic links");
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc
