#pragma once
// The programs a traced runner must not really start, in one place: those recorded by the
// stand-in (stand_in/main.cpp), those it serves without a record, and the
// housekeeping it records and then carries out.
#include <string>
#include <vector>

namespace tipc::trace {

// The interpreter word, python, python3, python3.5 ... python3.13, and the tools other
// chains start (paddle2onnx, build tools, device tools). Without duplicates.
std::vector<std::string> recorded_programs(const std::string& interpreter);

// Programs that do nothing and succeed: sleeping, installing, device queries, and `ps` and
// `kill` (a runner's `ps | grep | xargs kill` of its server: nothing to stop).
const std::vector<std::string>& no_op_programs();

// What the stand-in serves without a record: the no-ops, and `cat`, which it does itself
// (stand_in/programs.h) because a runner reads its config and every log through it.
std::vector<std::string> unrecorded_programs();

// The runner's housekeeping: what it prepares before a stage (directories, copies, links,
// downloads, unpacked archives, clones). The stand-in records each such call (a record of
// its own, replayed at run time as a setup step: plan/setup_stages.h) and then acts as the
// trace needs: `real` runs the system's program inside the scratch tree, `none` does
// nothing (a download: nothing arrives), `unpack` runs unpacking_stand_in_script. `log`
// (tee) copies as tee does, but is no setup step: its record says which file the pipe into
// it went to, the log of the program that wrote into that pipe (`python x.py 2>&1 | tee -a
// LOG`), and the tracer keeps nothing else of it.
struct Housekeeping {
  std::string program;
  std::string action;  // "real", "none", "unpack" or "log"
};
const std::vector<Housekeeping>& housekeeping_programs();
// Whether `program` (a name or a path) is one whose action is `log`.
bool writes_a_log(const std::string& program);
// What the stand-in does under each name but the recorded programs' (its TIPC_TRACE_ACTIONS):
// the housekeeping programs' actions, `quiet` for the no-ops and `cat` for cat:
// "mkdir=real:...:wget=none:tar=unpack:tee=log:sleep=quiet:...:cat=cat".
std::string stand_in_actions();

// The script that stands in for unpacking (tar, unzip) and cloning (git), started as
// `sh SCRIPT PROGRAM ARGS...`: nothing was downloaded, so it makes the directory the archive
// is named after (`tar -xf opencv-3.4.7.tar.gz` -> opencv-3.4.7/) or the clone's (`git clone
// https://github.com/facebookresearch/faiss.git` -> faiss/), which the runner enters.
std::string unpacking_stand_in_script();

// The stand-in binary: $TIPC_STAND_IN, else installed for this binary (core/locations.h:
// <prefix>/libexec/tipc-run/ by default), else
// (a binary run from its build directory) the same directory.
std::string stand_in_binary();

}  // namespace tipc::trace
