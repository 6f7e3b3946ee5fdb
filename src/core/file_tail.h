#pragma once
// The last bytes of a file, read with one seek: a stage log can be gigabytes, and its end
// is what says how the stage ended (an error line, srun's own message, the last lines).
#include <cstddef>
#include <string>

namespace tipc {

// At most the last `bytes` bytes of the file at `path`; "" when it cannot be read. The
// first byte may be in the middle of a line.
std::string file_tail(const std::string& path, std::size_t bytes);

// The same, less a first line the window cut into (one that does not start the file).
std::string file_tail_lines(const std::string& path, std::size_t bytes);

}  // namespace tipc
