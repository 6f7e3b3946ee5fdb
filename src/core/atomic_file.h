#pragma once
// Writing a whole file so that a reader never sees half of it: a temp file in the same
// directory, then a rename.
#include <functional>
#include <ostream>
#include <string>

#include "core/error.h"

namespace tipc {

// Creates missing parent directories. A failure says "cannot write PATH: REASON".
Result<void> write_file_atomically(const std::string& path, const std::string& text);

// The same, the text written by `write` piece by piece: a large file is never whole in memory.
Result<void> write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& write);

}  // namespace tipc
