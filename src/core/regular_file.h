#pragma once
// Opening an input file without ever blocking on it. open() of a FIFO waits for a writer,
// and a device or a directory is no input either, so every file tipc-run reads as input (a
// config, the settings and other YAML files, the alignment files) is opened with O_NONBLOCK,
// checked with fstat, and refused unless it is a regular file; only then is O_NONBLOCK
// cleared for the reads.
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include "core/error.h"
#include "core/unique_fd.h"

namespace tipc {

// How messages name a file: "PATH: cannot <open_verb> <what>: REASON" when open() fails,
// "PATH: cannot read <what>: it is a FIFO (named pipe), not a regular file" when it is no file.
struct FileRole {
  std::string_view what;                // "the config file", "the settings file"
  std::string_view open_verb = "read";  // the configs' documented message says "cannot open"
  // false for files a hostile program may have put there (a traced runner's leftovers): a
  // symbolic link is refused, never followed.
  bool follow_links = true;
};

struct RegularFile {
  UniqueFd fd;
  std::uint64_t size = 0;  // as fstat saw it
};

Result<RegularFile> open_regular_file(const std::string& path, const FileRole& role);

// The file's first `limit` bytes (all of it when shorter): pass one byte more than a size
// limit to tell a file at the limit from a longer one.
Result<std::string> read_regular_file(const std::string& path, const FileRole& role,
                                      std::size_t limit = std::numeric_limits<std::size_t>::max());

}  // namespace tipc
