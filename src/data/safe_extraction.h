#pragma once
// The safe-extraction engine of the data steps (extract.h): one archive unpacked into a new
// directory entry by entry, each entry checked before it touches the disk. Apart from the
// stamps and the unpack-once entry points because this is the part that reads hostile
// bytes: every path, link and size here comes from the archive, so every file-system call
// it makes is one the extraction fuzz harness (tests/fuzz/extract_fuzz.cpp) checks.
#include <filesystem>
#include <string>
#include <vector>

#include "core/error.h"
#include "data/extract.h"
#include "data/hashing_source.h"

namespace tipc::data {

// A slash-separated path as its components.
using PathParts = std::vector<std::string>;

// Unpacks the archive that `source` reads (`archive_path` names it in messages) into
// `root`, which is created (0755) and must not exist yet. Every entry must lie inside
// `creates` (its parent directories are skipped), and the archive must create it; an empty
// `creates` confines the entries to `root`. Refused: absolute paths, '..', device files,
// FIFOs, sockets, symlinks and hardlinks that lead outside, writes through a symlink, and
// anything over `limits`. Files are made with *at() calls relative to directories opened
// with O_NOFOLLOW; a later entry replaces an earlier file or link of its name. The first
// refusal is an error naming the archive and the entry; what was unpacked until then stays
// below `root` for the caller to remove. The report counts entries and bytes only.
Result<ExtractReport> extract_into(HashingSource& source, const std::string& archive_path, const PathParts& creates,
                                   const ExtractLimits& limits, const std::filesystem::path& root);

// What extract.cpp's stamps and entry points use too: one definition each.
namespace detail {

// Components of a slash-separated path, without empty and "." ones; ".." is kept so that
// callers can refuse it.
PathParts split_path(const std::string& path);

// Whether anything is at `path`, a dangling symlink included.
bool present(const std::filesystem::path& path);

}  // namespace detail

}  // namespace tipc::data
