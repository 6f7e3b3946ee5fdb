#pragma once
// Where the tests find the project's files and the shared reference material. The paths are
// compiled into paths.cpp alone, so no other test object depends on where the tree lies.
#include <string>

namespace tipc::test {

std::string source_dir();
std::string shared_dir();
std::string dialect_dir();
std::string tipc_run_binary();
std::string fake_stage_binary();
std::string fake_python_binary();
std::string fake_nvml_library();    // tests/fake_nvml: libnvidia-ml.so.1, in a directory of its own
std::string fake_nvidia_smi_dir();  // the directory of the fake nvidia-smi
std::string build_dir();            // the CMake build directory of these tests
std::string cmake_command();        // the cmake that configured it

}  // namespace tipc::test
