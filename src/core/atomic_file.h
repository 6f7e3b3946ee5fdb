#pragma once
// Writing a whole file so that a reader never sees half of it: a temp file in the same
// directory, then a rename.
#include <optional>
#include <string>

namespace tipc {

// Creates missing parent directories. Returns a message on failure, nullopt on success.
std::optional<std::string> write_file_atomically(const std::string& path, const std::string& text);

}  // namespace tipc
