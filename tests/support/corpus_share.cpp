#include "support/corpus_share.h"

#include <fcntl.h>
#include <sys/file.h>

#include <cstdlib>
#include <fstream>
#include <memory>

#include <nlohmann/json.hpp>

#include "core/sha256.h"
#include "core/unique_fd.h"
#include "support/copy_tree.h"
#include "support/temp_dir.h"
#include "trace/trace_json.h"
#include "trace/trace_log.h"

namespace tipc::test {
namespace {
namespace fs = std::filesystem;

fs::path share_dir() {
  if (const char* named = std::getenv("TIPC_TEST_CORPUS_SHARE"); named && *named) {
    fs::create_directories(named);
    return named;
  }
  static const auto own = std::make_unique<TempDir>();
  return own->path();
}

// The corpus holds only runners and configs; a checkout also has the directories the chains'
// runners cd into or build in (C++ demos, serving directories).
void lay_out_checkout(const fs::path& corpus, const std::string& repo, const fs::path& root) {
  static const char* const kCheckoutDirectories[] = {"deploy/cpp_infer",      "deploy/cpp",
                                                     "deploy/cpp_shitu",      "deploy/paddleserving",
                                                     "deploy/pdserving",      "deploy/python_serving",
                                                     "deploy/cpp_serving",    "deploy/serving",
                                                     "deploy/models",         "test_tipc/serving_python",
                                                     "test_tipc/serving_cpp", "paddleserving/recognition"};
  fs::create_directories(root);
  for (const char* part : {"runners", "configs"}) copy_tree(corpus / part / repo, root);
  for (const char* dir : kCheckoutDirectories) fs::create_directories(root / dir);
}

// An exclusive lock on `path` for the life of the object (released by close, also when a
// test process dies).
class FileLock {
 public:
  explicit FileLock(const fs::path& path) : fd_(open(path.c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0644)) {
    if (fd_.get() >= 0) flock(fd_.get(), LOCK_EX);
  }

 private:
  UniqueFd fd_;
};

// Every string of the JSON value, mapped.
void map_strings(nlohmann::ordered_json& value, const trace::PathMap& map) {
  if (value.is_string()) {
    value = map.text(value.get<std::string>());
  } else if (value.is_structured()) {
    for (auto& item : value) map_strings(item, map);
  }
}

}  // namespace

fs::path shared_checkout(const fs::path& corpus, const std::string& repo) {
  const fs::path share = share_dir();
  const std::string name = corpus.filename().string() + "-" + repo;
  const fs::path checkout = share / "checkouts" / name, done = share / (name + ".done");
  const FileLock lock(share / (name + ".lock"));
  if (!fs::exists(done)) {
    fs::remove_all(checkout);  // what a test process killed while laying it out left
    lay_out_checkout(corpus, repo, checkout);
    std::ofstream{done};
  }
  return checkout;
}

std::string shared_trace_cache() {
  const fs::path cache = share_dir() / "traces";
  fs::create_directories(cache);
  return cache.string();
}

bool in_shared_sample(const std::string& repo, const std::string& config, const std::string& mode) {
  Sha256 digest;
  for (const std::string* part : {&repo, &config, &mode}) digest.update(part->c_str(), part->size() + 1);
  return std::stoul(digest.hex_digest().substr(0, 8), nullptr, 16) % 3 == 0;
}

trace::Trace with_root_spelled(const trace::Trace& trace, const std::string& root, const std::string& spelling) {
  auto json = trace::trace_to_json(trace);
  map_strings(json, trace::PathMap(root, spelling));
  return trace::trace_from_json(nlohmann::json::parse(json.dump())).value();
}

}  // namespace tipc::test
