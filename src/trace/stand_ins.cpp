#include "trace/stand_ins.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "core/locations.h"

namespace tipc::trace {
namespace fs = std::filesystem;

std::vector<std::string> recorded_programs(const std::string& interpreter) {
  std::vector<std::string> names = {"python", "python3"};
  for (int minor = 5; minor <= 13; ++minor) names.push_back("python3." + std::to_string(minor));
  // Found in the runners of the other chains (test_paddle2onnx.sh, test_inference_cpp.sh,
  // test_lite_*.sh, prepare.sh): conversions, C++ builds, on-device runs, model downloads.
  for (const char* tool : {"paddle2onnx", "cmake", "make", "adb", "hub", "trtexec"}) names.push_back(tool);
  if (!interpreter.empty() && interpreter.find('/') == std::string::npos &&
      std::find(names.begin(), names.end(), interpreter) == names.end()) {
    names.insert(names.begin(), interpreter);
  }
  return names;
}

const std::vector<std::string>& no_op_programs() {
  static const std::vector<std::string> names = {"sleep",   "pip",     "pip3",    "nvidia-smi", "apt", "apt-get",
                                                 "npu-smi", "xpu-smi", "xpu_smi", "ps",         "kill"};
  return names;
}

std::vector<std::string> unrecorded_programs() {
  std::vector<std::string> names = no_op_programs();
  names.emplace_back("cat");
  return names;
}

const std::vector<Housekeeping>& housekeeping_programs() {
  static const std::vector<Housekeeping> programs = {
      {"mkdir", "real"}, {"rm", "real"},    {"cp", "real"},      {"mv", "real"},    {"ln", "real"}, {"wget", "none"},
      {"curl", "none"},  {"tar", "unpack"}, {"unzip", "unpack"}, {"git", "unpack"}, {"tee", "log"}};
  return programs;
}

bool writes_a_log(const std::string& program) {
  const std::string name = fs::path(program).filename().string();
  const auto& programs = housekeeping_programs();
  return std::any_of(programs.begin(), programs.end(),
                     [&](const Housekeeping& h) { return h.action == "log" && h.program == name; });
}

std::string stand_in_actions() {
  std::string table;
  const auto add = [&](const std::string& program, const std::string& action) {
    table += (table.empty() ? "" : ":") + program + "=" + action;
  };
  for (const auto& [program, action] : housekeeping_programs()) add(program, action);
  for (const auto& program : no_op_programs()) add(program, "quiet");
  add("cat", "cat");
  return table;
}

std::string unpacking_stand_in_script() {
  return R"(#!/bin/sh
# tipc-run trace: nothing was downloaded; make the directory the runner cds into next.
# Started as `sh THIS PROGRAM ARGS...`; /bin/mkdir, because mkdir on PATH is recorded.
program=$1
shift
if [ "$program" = git ]; then  # `git clone [options] URL [DIR]`: DIR, else the URL's last part
  [ "$1" = clone ] || exit 0
  shift
  url= dir=
  while [ $# -gt 0 ]; do
    case $1 in
      -b|--branch|--depth|-o|--origin|-c|--config|--reference|-j|--jobs|--filter|--template) shift ;;
      -*) ;;
      *) if [ -z "$url" ]; then url=$1; elif [ -z "$dir" ]; then dir=$1; fi ;;
    esac
    [ $# -gt 0 ] && shift
  done
  [ -n "$url" ] || exit 0
  [ -n "$dir" ] || { dir=${url%/}; dir=${dir##*/}; dir=${dir%.git}; }
  /bin/mkdir -p -- "$dir"
  exit 0
fi
# tar and unzip: the archive's name without its suffix.
for word in "$@"; do
  case $word in
    *.tar|*.tar.gz|*.tgz|*.tar.xz|*.tar.bz2|*.zip)
      name=${word##*/}
      for suffix in .tgz .tar.gz .tar.xz .tar.bz2 .tar .zip; do name=${name%"$suffix"}; done
      /bin/mkdir -p -- "$name" ;;
  esac
done
exit 0
)";
}

std::string stand_in_binary() {
  if (const char* env = std::getenv("TIPC_STAND_IN")) return env;
  std::error_code ec;
  const std::string installed = installed_helper("tipc-trace-stand-in");
  if (fs::is_regular_file(installed, ec)) return installed;
  return (fs::path(binary_directory()) / "tipc-trace-stand-in").string();
}

}  // namespace tipc::trace
