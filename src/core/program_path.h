#pragma once
// Where a program named without a directory is found, as posix_spawnp and execvp find it.
#include <string>

namespace tipc {

// `name` itself when it holds a slash; else the first executable file of that name in the
// directories of tipc-run's PATH (an empty entry is the working directory; no PATH:
// /usr/bin:/bin); "" when there is none.
std::string program_on_path(const std::string& name);

}  // namespace tipc
