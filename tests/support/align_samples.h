#pragma once
// Where the numpy-written alignment samples live (../shared/align-samples); tests that
// need them skip loudly when the folder is absent.
#include <filesystem>
#include <string>

#include "support/paths.h"

namespace tipc::test {

inline std::string align_samples_dir() { return shared_dir() + "/align-samples"; }

}  // namespace tipc::test

#define SKIP_WITHOUT_ALIGN_SAMPLES()                                               \
  if (!std::filesystem::is_directory(tipc::test::align_samples_dir()))             \
  GTEST_SKIP() << "ALIGN SAMPLES NOT CHECKED: " << tipc::test::align_samples_dir() \
               << " is missing (the "                                              \
                  "shared reference folder sits next to the checkout)"
