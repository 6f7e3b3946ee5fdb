#include "support/paths.h"

namespace tipc::test {

std::string source_dir() { return TIPC_TEST_SOURCE_DIR; }
std::string shared_dir() { return TIPC_TEST_SHARED_DIR; }
std::string dialect_dir() { return source_dir() + "/configs/dialects"; }
std::string tipc_run_binary() { return TIPC_RUN_BINARY; }
std::string fake_stage_binary() { return TIPC_FAKE_STAGE; }
std::string fake_python_binary() { return TIPC_FAKE_PYTHON; }
std::string fake_nvml_library() { return TIPC_FAKE_NVML; }
std::string fake_nvidia_smi_dir() { return source_dir() + "/tests/fake_nvml"; }
std::string build_dir() { return TIPC_TEST_BUILD_DIR; }
std::string cmake_command() { return TIPC_CMAKE_COMMAND; }

}  // namespace tipc::test
