// tipc-fake-python: the corpus recorder's stand-in for python (tipc-corpus README §4).
// It succeeds, and for every KEY=VALUE argument whose VALUE lies under
// test_tipc/output/ and whose last component has no '.', it creates that directory
// and an empty train.log in it (and in <VALUE>/$TIPC_FAKE_MODEL/ when that is set),
// so the reference's train.log checks succeed.
#include <filesystem>
#include <fstream>
#include <string>

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  const char* model = std::getenv("TIPC_FAKE_MODEL");
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const std::size_t eq = arg.find('=');
    if (eq == std::string::npos) continue;
    const std::string value = arg.substr(eq + 1);
    if (value.find("test_tipc/output/") == std::string::npos) continue;
    const std::string last = value.substr(value.find_last_of('/') + 1);
    if (last.find('.') != std::string::npos) continue;
    std::error_code ec;
    fs::create_directories(value, ec);
    std::ofstream(fs::path(value) / "train.log");
    if (model) {
      fs::create_directories(fs::path(value) / model, ec);
      std::ofstream(fs::path(value) / model / "train.log");
    }
  }
  return 0;
}
