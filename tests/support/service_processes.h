#pragma once
// What a serving run may leave behind: processes still running in a directory (every stage
// of a scratch repository runs inside it, so its path marks them) and a port still bound.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace tipc::test {

// The pids of live (not zombie) processes whose working directory lies inside `dir`.
inline std::vector<int> processes_inside(const std::filesystem::path& dir) {
  std::vector<int> pids;
  std::error_code ec;
  const std::string prefix = std::filesystem::canonical(dir, ec).string();
  for (const auto& entry : std::filesystem::directory_iterator("/proc", ec)) {
    const std::string name = entry.path().filename();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::error_code gone;
    const std::string cwd = std::filesystem::read_symlink(entry.path() / "cwd", gone).string();
    if (gone || cwd.rfind(prefix, 0) != 0) continue;
    std::ifstream stat(entry.path() / "stat");
    std::string pid, command, state;
    stat >> pid >> command >> state;
    if (state != "Z") pids.push_back(std::stoi(name));
  }
  return pids;
}

// Whether a server could bind 127.0.0.1:port now (SO_REUSEADDR, as Python's HTTPServer: a
// connection in TIME_WAIT does not hold the port).
inline bool port_is_free(int port) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  const int on = 1;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  const bool bound = bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0;
  close(fd);
  return bound;
}

// A port nobody holds now (the kernel's pick), for a test's server.
inline int free_port() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t size = sizeof address;
  bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address);
  getsockname(fd, reinterpret_cast<sockaddr*>(&address), &size);
  close(fd);
  return ntohs(address.sin_port);
}

}  // namespace tipc::test
