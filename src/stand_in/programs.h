#pragma once
// What tipc-trace-stand-in does in place of the system's tee, cat and mkdir, and how it hands
// a call to the system's own program. They are done here for their common forms (tee [-a]
// FILE..., cat [FILE...], mkdir -p DIR...): the runner pipes every logged command into tee,
// reads its config and logs with cat and makes its log directories, and each start of the real program costs the price of the C
// library's start-up (stand_in/system.h). Any other form (an option, `-` for tee, a
// file that cannot be opened, cat's input being its output) is handed to the system's
// program with the same arguments, before anything was written, so that output, messages
// and exit status stay the real program's.

namespace tipc::stand_in {

// Runs /bin/NAME, else /usr/bin/NAME, with argv and envp in place of this process; returns
// 127 after saying why when neither could be started.
int run_system_program(const char* name, char* const* argv, char* const* envp);

// Makes path and its missing parents with `mode` (less the umask); whether it is a
// directory afterwards.
bool make_with_parents(const char* path, int mode);

// mkdir -p DIR...: each directory with its parents (mode 0777 less the umask); any other
// form, or a path that then is no directory, goes to the system's mkdir.
int make_like_mkdir(int argc, char* const* argv, char* const* envp);

// tee: copies standard input to standard output and to each file.
int copy_like_tee(int argc, char* const* argv, char* const* envp);

// cat: copies each file (standard input when there is none, or for `-`) to standard output.
int copy_like_cat(int argc, char* const* argv, char* const* envp);

}  // namespace tipc::stand_in
