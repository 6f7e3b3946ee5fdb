#pragma once
// Where the tests find the project's files and the shared reference material.
#include <string>

namespace tipc::test {

inline std::string source_dir() { return TIPC_TEST_SOURCE_DIR; }
inline std::string shared_dir() { return TIPC_TEST_SHARED_DIR; }
inline std::string dialect_dir() { return source_dir() + "/configs/dialects"; }
inline std::string tipc_run_binary() { return TIPC_RUN_BINARY; }
inline std::string fake_stage_binary() { return TIPC_FAKE_STAGE; }
inline std::string fake_python_binary() { return TIPC_FAKE_PYTHON; }

}  // namespace tipc::test
