#pragma once
// Golden (approval) files under tests/report/golden/: the test's output must equal the
// file byte for byte. TIPC_UPDATE_GOLDEN=1 rewrites the files instead (review the diff).
#include <cstdlib>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "support/env_flag.h"
#include "support/paths.h"
#include "support/run_binary.h"

namespace tipc::test {

inline void expect_golden(const std::string& name, const std::string& actual) {
  const std::string path = source_dir() + "/tests/report/golden/" + name;
  if (env_flag("TIPC_UPDATE_GOLDEN")) {
    std::ofstream(path, std::ios::binary) << actual;
    return;
  }
  EXPECT_EQ(actual, slurp(path)) << "golden file " << path << " differs (TIPC_UPDATE_GOLDEN=1 rewrites it)";
}

}  // namespace tipc::test
