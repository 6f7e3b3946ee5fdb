#include "trace/bash_env.h"

namespace tipc::trace {

std::string bash_env_script() {
  // The token is "<BASHPID>:<count>": unique also across subshells, which inherit a copy of
  // the count. "$*" joins with the first character of IFS, so IFS is a space while it joins.
  return R"(# tipc-run trace: records every string the runner evaluates (src/trace/bash_env.cpp)
__tipc_trace_status() { return "$1"; }
# A program named by a path inside the repository that does not exist there (the C++ demo
# the runner would have built, ./deploy/cpp_infer/build/ppocr) gets the stand-in put in its
# place, so that its call is recorded like an interpreter's. By their paths: mkdir and ln on
# PATH are the runner's housekeeping, recorded.
__tipc_trace_place() {
  local w=${1#"${1%%[![:space:]]*}"}
  w=${w%%[[:space:]]*}
  [[ $w == */* && ! -e $w ]] || return 0
  [[ $w == /* ]] || w=$PWD/$w
  [[ $w == "$TIPC_TRACE_REPO"/* ]] || return 0
  /bin/mkdir -p -- "${w%/*}" && /bin/ln -s -- "$TIPC_TRACE_STAND_IN" "$w"
} 2>/dev/null
__tipc_trace_count=0
eval() {
  local __tipc_trace_saved=$? __tipc_trace_text __tipc_trace_outer=${TIPC_TRACE_EVAL-}
  if [[ -v IFS ]]; then
    local __tipc_trace_ifs=$IFS
    IFS=' '; __tipc_trace_text="$*"; IFS=$__tipc_trace_ifs
  else
    IFS=' '; __tipc_trace_text="$*"; unset IFS
  fi
  __tipc_trace_count=$((__tipc_trace_count + 1))
  TIPC_TRACE_EVAL="$BASHPID:$__tipc_trace_count"
  printf '%s\0%s\0' "$TIPC_TRACE_EVAL" "$__tipc_trace_text" >> "$TIPC_TRACE_EVALS"
  __tipc_trace_place "$__tipc_trace_text"
  __tipc_trace_status "$__tipc_trace_saved"
  builtin eval "$@"
  set -- "$?"
  TIPC_TRACE_EVAL=$__tipc_trace_outer
  return "$1"
}
# A program the runner started in the background (`nohup server &`) may not have recorded
# itself yet when the runner ends, and the sandbox's end kills it: the runner's exit waits
# for its background jobs, at most 3 s (a real server that never ends costs that much).
# The runner's exit status is kept.
__tipc_trace_running_jobs() {
  local pid
  for pid in $(jobs -pr); do [[ $pid == "$1" ]] || printf '%s ' "$pid"; done
}
__tipc_trace_wait_background() {
  [[ -n $(__tipc_trace_running_jobs) ]] || return 0
  /bin/sleep 3 &
  local timer=$!
  while [[ -n $(__tipc_trace_running_jobs "$timer") ]] && builtin kill -0 "$timer" 2>/dev/null; do
    builtin wait -n 2>/dev/null
  done
  builtin kill "$timer" 2>/dev/null
}
trap __tipc_trace_wait_background EXIT
)";
}

}  // namespace tipc::trace
