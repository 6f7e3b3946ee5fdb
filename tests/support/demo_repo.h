#pragma once
// A scratch copy of the parts of the repository the demo chains need, so a test writes nothing
// into the source tree; and whether /usr/bin/python3 can run them at all.
#include <cstdlib>
#include <filesystem>
#include <initializer_list>
#include <string>

#include <gtest/gtest.h>

#include "support/paths.h"
#include "support/temp_dir.h"

namespace tipc::test {

inline bool demo_python_available() {
  return std::system("/usr/bin/python3 -c 'import torch, cv2' >/dev/null 2>&1") == 0;
}

// For a fixture's SetUp(): skips the test where /usr/bin/python3 cannot run the demo, and
// fails it in CI, which must run `what` ("the demo chain"). gtest runs no test body after
// either; the caller returns when `IsSkipped() || HasFatalFailure()`.
inline void require_demo_python(const std::string& what) {
  if (demo_python_available()) return;
  if (std::getenv("CI")) FAIL() << "CI must run " << what << ": /usr/bin/python3 lacks torch or cv2";
  GTEST_SKIP() << what << " NOT RUN: /usr/bin/python3 lacks torch or cv2 (scripts/install-deps.sh installs them)";
}

// Copies `parts` (paths relative to the source tree) and the demo's common parts into `repo`.
inline void copy_demo_parts(const TempDir& repo, std::initializer_list<const char*> parts) {
  namespace fs = std::filesystem;
  const fs::path src = source_dir();
  auto copy = [&](const char* part) {
    fs::create_directories((repo.path() / part).parent_path());
    fs::copy(src / part, repo.path() / part, fs::copy_options::recursive);
  };
  for (const char* part : {"models/alexnet", "lite_data/lite_data.tar", "lite_data/alexnet_pretrained.tar",
                           "test_tipc/tipc-run.yaml", "test_tipc/results"}) {
    copy(part);
  }
  for (const char* part : parts) copy(part);
  fs::remove_all(repo.path() / "models/alexnet/__pycache__");
  fs::remove_all(repo.path() / "models/alexnet/cpp/build");  // the C++ chain's, when run by hand in the source tree
}

}  // namespace tipc::test
