#pragma once
// Reads a gzipped tar (the --bundle file) back with libarchive, for assertions.
#include <archive.h>
#include <archive_entry.h>
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "core/utf8_names.h"

namespace tipc::test {

// Member name -> contents; an unreadable file fails the test and has no members.
inline std::map<std::string, std::string> read_tar_gz(const std::string& path) {
  std::map<std::string, std::string> members;
  const Utf8Names utf8_names;  // non-ASCII member names, as the bundle writes them
  archive* reader = archive_read_new();
  archive_read_support_filter_gzip(reader);
  archive_read_support_format_tar(reader);
  if (archive_read_open_filename(reader, path.c_str(), 1 << 16) != ARCHIVE_OK) {
    ADD_FAILURE() << path << ": " << archive_error_string(reader);
  } else {
    archive_entry* entry = nullptr;
    while (archive_read_next_header(reader, &entry) == ARCHIVE_OK) {
      std::string data(static_cast<std::size_t>(archive_entry_size(entry)), '\0');
      archive_read_data(reader, data.data(), data.size());
      members[archive_entry_pathname(entry)] = data;
    }
  }
  archive_read_free(reader);
  return members;
}

inline std::set<std::string> tar_member_names(const std::string& path) {
  std::set<std::string> names;
  for (const auto& [name, data] : read_tar_gz(path)) names.insert(name);
  return names;
}

}  // namespace tipc::test
