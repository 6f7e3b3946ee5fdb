#include "run/service_probe.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdint>
#include <fstream>
#include <regex>

#include "core/unique_fd.h"

namespace tipc::run {

bool port_accepts(int port) {
  const UniqueFd fd(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (!fd.valid()) return false;
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  // On the loopback interface a connect is answered at once: accepted, or refused.
  return ::connect(fd.get(), reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0;
}

bool log_has_line_matching(const std::string& log_path, const std::string& pattern) {
  std::regex expression;
  try {
    expression = std::regex(pattern);
  } catch (const std::regex_error&) {
    return false;  // the plan's checks refuse such a pattern; a plan file edited by hand never becomes ready
  }
  std::ifstream in(log_path, std::ios::binary);
  for (std::string line; std::getline(in, line);) {
    if (std::regex_search(line, expression)) return true;
  }
  return false;
}

bool service_ready(const plan::Service& service, const std::string& log_path) {
  if (service.port) return port_accepts(*service.port);
  // Nothing to wait for: ready once started, as the runners that start a server and go on assume.
  return service.ready_pattern.empty() || log_has_line_matching(log_path, service.ready_pattern);
}

}  // namespace tipc::run
