#pragma once
// Data preparation: unpack a mode's declared archive into its destination, once.
//
// The archive's SHA-256 is kept in a stamp file next to the tree it creates, so an
// unchanged archive is not unpacked again and a changed one replaces the old tree. The
// stamp also records the archive's size, inode and times: while they are unchanged the
// archive is not even read again (the kernel sets a file's ctime on every change, and
// nothing sets it back), as git trusts its index.
// Archives come from the network, so every entry is checked before it touches the
// disk: nothing may land outside the declared path, and size and count limits stop tar
// bombs. Extraction happens in a scratch directory that is renamed into place only
// when the whole archive has been read, so a failure leaves the previous state as it
// was.
#include <cstdint>
#include <string>

#include "core/error.h"

namespace tipc::data {

struct ExtractLimits {
  // Sizes of regular files in full: a sparse file's holes count, also one at its end.
  std::uint64_t max_total_bytes = 8ull << 30;  // sum of regular-file sizes
  std::uint64_t max_entries = 200000;
  std::uint64_t max_entry_bytes = 4ull << 30;
  // Components of an entry's path. The directories of the path being unpacked are held
  // open, so this bounds the descriptors an extraction needs.
  std::uint64_t max_depth = 256;
};

// One declared data step.
struct DataStep {
  std::string archive;      // tar (plain, gzip, bzip2, xz, zstd) or zip; detected from the bytes
  std::string destination;  // directory the archive is unpacked into; created if missing
  std::string creates;      // relative path inside destination that the archive creates,
                            // e.g. "alexnet"; the archive may create nothing else
};

struct ExtractReport {
  bool skipped = false;  // the stamp matched: nothing was written
  bool hashed = false;   // the archive was read for its SHA-256 (not when the stamp's file state matched)
  std::uint64_t entries = 0;
  std::uint64_t bytes = 0;
  std::string archive_sha256;
  std::string stamp;  // unpack_archive: the stamp file
};

Result<ExtractReport> prepare_data(const DataStep& step, const ExtractLimits& limits = {});

// An archive unpacked into a directory as `tar -C DIR -xf ARCHIVE` or `unzip ARCHIVE -d
// DIR` would (a runner's setup, replayed by `tipc-run setup`), with the checks and limits of
// a data step but no declared path: every entry is confined to DIR. The archive is
// unpacked into a scratch directory in DIR and then merged into it: a directory into the
// directory of its name, files and links in place of what has their name. The stamp
// (unpack_stamp_path) records the archive's digest and its top-level entries; while the
// archive is unchanged and those entries are all there, nothing is unpacked again.
struct UnpackStep {
  std::string archive;
  std::string destination;
};

Result<ExtractReport> unpack_archive(const UnpackStep& step, const ExtractLimits& limits = {});

// DIR/.ARCHIVE-NAME.tipc-stamp.
std::string unpack_stamp_path(const UnpackStep& step);

}  // namespace tipc::data
