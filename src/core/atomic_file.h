#pragma once
// Writing a whole file so that a reader never sees half of it: a temp file in the same
// directory, then a rename.
#include <string>

#include "core/error.h"

namespace tipc {

// Creates missing parent directories. A failure says "cannot write PATH: REASON".
Result<void> write_file_atomically(const std::string& path, const std::string& text);

}  // namespace tipc
