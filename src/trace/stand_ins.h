#pragma once
// The programs a traced runner must not really start, in one place: those recorded by the
// stand-in (trace/stand_in_main.cpp), and those that become no-ops.
#include <string>
#include <vector>

namespace tipc::trace {

// The interpreter word, python, python3, python3.5 ... python3.13, and the tools other
// chains start (paddle2onnx, build tools, device tools). Without duplicates.
std::vector<std::string> recorded_programs(const std::string& interpreter);

// Programs that do nothing and succeed: sleeping, installing, downloading, device queries,
// and `ps` and `kill` (a runner's `ps | grep | xargs kill` of its server: nothing to stop).
const std::vector<std::string>& no_op_programs();

// Programs that unpack an archive (tar, unzip) or clone a repository (git) and the script
// that stands in for them: nothing arrives (wget is a no-op), so it makes the directory the
// archive is named after (`tar -xf opencv-3.4.7.tar.gz` -> opencv-3.4.7/) or the clone's
// (`git clone https://github.com/facebookresearch/faiss.git` -> faiss/), which the runner enters.
const std::vector<std::string>& unpacking_programs();  // tar, unzip, and git (clone)
std::string unpacking_stand_in_script();

// The stand-in binary: $TIPC_STAND_IN, else <dir of this binary>/../libexec/tipc-run/, else
// (a binary run from its build directory) the same directory.
std::string stand_in_binary();

}  // namespace tipc::trace
