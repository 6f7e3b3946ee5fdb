#include "core/own_command_line.h"

#include <fstream>

namespace tipc {

std::vector<std::string> own_command_line() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::vector<std::string> argv;
  for (std::string word; std::getline(in, word, '\0');) argv.push_back(word);
  return argv;
}

std::string own_command_line_text() {
  std::string text;
  for (const auto& word : own_command_line()) text += (text.empty() ? "" : " ") + word;
  return text;
}

}  // namespace tipc
