#include "run/service_probe.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <gtest/gtest.h>

#include "core/unique_fd.h"
#include "support/temp_dir.h"

namespace tipc::run {
namespace {
namespace TIPC_TEST_FILE {

// A socket listening on a free port of 127.0.0.1; the port, or 0 when none could be had.
int listen_on_free_port(UniqueFd& fd) {
  fd = UniqueFd(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t size = sizeof address;
  if (::bind(fd.get(), reinterpret_cast<sockaddr*>(&address), size) != 0 || ::listen(fd.get(), 4) != 0) return 0;
  if (::getsockname(fd.get(), reinterpret_cast<sockaddr*>(&address), &size) != 0) return 0;
  return ntohs(address.sin_port);
}

TEST(ServiceProbe, APortIsReadyWhileSomethingListensOnIt) {
  UniqueFd listener(-1);
  const int port = listen_on_free_port(listener);
  ASSERT_GT(port, 0);
  EXPECT_TRUE(port_accepts(port));
  EXPECT_TRUE(service_ready(plan::Service{port, "", 10}, "/nonexistent.log"));
  listener = UniqueFd(-1);
  EXPECT_FALSE(port_accepts(port)) << "nothing listens once it is closed";
}

TEST(ServiceProbe, ALogIsReadyOnceALineMatches) {
  test::TempDir dir;
  const std::string log = dir.write("server.log", "loading model\n");
  const plan::Service service{std::nullopt, R"(Serving on port \d+)", 10};
  EXPECT_FALSE(service_ready(service, log));
  dir.write("server.log", "loading model\nServing on port 9393\n");
  EXPECT_TRUE(service_ready(service, log));
  EXPECT_FALSE(service_ready(service, (dir.path() / "missing.log").string()));
  EXPECT_FALSE(service_ready(plan::Service{std::nullopt, "([", 10}, log)) << "a broken pattern is never ready";
  EXPECT_TRUE(service_ready(plan::Service{std::nullopt, "", 10}, log)) << "nothing to wait for";
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::run
