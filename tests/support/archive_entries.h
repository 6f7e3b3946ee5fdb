#pragma once
// Archives a test builds from a list of entries (tar, tar.gz or zip; files, directories,
// symlinks, hardlinks, special and sparse files), for the extraction tests: both the data
// step's (extract.h) and its engine's (safe_extraction.h) write theirs this one way.
#include <archive.h>
#include <archive_entry.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/utf8_names.h"

namespace tipc::test {

enum class ArchiveFormat { kTar, kTarGz, kZip };

// One entry of an archive a test builds.
struct ArchiveEntry {
  std::string path;
  unsigned type = AE_IFREG;
  std::string data{};  // contents of a regular file
  std::string link{};  // target of a symlink or a hardlink
  bool hardlink = false;
  int mode = 0644;
  std::int64_t sparse_size = 0;  // > 0: a sparse file of this size whose data is `data`, at its end
};

inline ArchiveEntry file(std::string path, std::string data, int mode = 0644) {
  return {.path = std::move(path), .data = std::move(data), .mode = mode};
}
inline ArchiveEntry directory(std::string path, int mode = 0755) {
  return {.path = std::move(path), .type = AE_IFDIR, .mode = mode};
}
inline ArchiveEntry symlink(std::string path, std::string target) {
  return {.path = std::move(path), .type = AE_IFLNK, .link = std::move(target), .mode = 0777};
}
inline ArchiveEntry hardlink(std::string path, std::string target) {
  return {.path = std::move(path), .link = std::move(target), .hardlink = true};
}
inline ArchiveEntry special(std::string path, unsigned type) { return {.path = std::move(path), .type = type}; }

inline void add_entry(archive* writer, const ArchiveEntry& spec) {
  const std::unique_ptr<archive_entry, void (*)(archive_entry*)> entry(archive_entry_new(), &archive_entry_free);
  archive_entry_set_pathname(entry.get(), spec.path.c_str());
  archive_entry_set_filetype(entry.get(), spec.type);
  archive_entry_set_perm(entry.get(), spec.mode);
  if (spec.type == AE_IFLNK) archive_entry_set_symlink(entry.get(), spec.link.c_str());
  if (spec.hardlink) archive_entry_set_hardlink(entry.get(), spec.link.c_str());
  if (spec.type == AE_IFCHR) {
    archive_entry_set_rdevmajor(entry.get(), 1);
    archive_entry_set_rdevminor(entry.get(), 3);
  }
  const auto stored = static_cast<std::int64_t>(spec.data.size());
  archive_entry_set_size(entry.get(), std::max(stored, spec.sparse_size));
  if (spec.sparse_size > 0) archive_entry_sparse_add_entry(entry.get(), spec.sparse_size - stored, stored);
  ASSERT_EQ(archive_write_header(writer, entry.get()), ARCHIVE_OK) << spec.path << ": " << archive_error_string(writer);
  if (!spec.data.empty()) {  // for a sparse file, the writer takes only the data, not the holes
    ASSERT_EQ(archive_write_data(writer, spec.data.data(), spec.data.size()), stored);
  }
}

inline void write_archive(const std::filesystem::path& out, ArchiveFormat format,
                          const std::vector<ArchiveEntry>& entries) {
  const Utf8Names utf8_names;  // non-ASCII names are written as UTF-8 (zip: with its UTF-8 flag)
  const std::unique_ptr<archive, int (*)(archive*)> writer(archive_write_new(), &archive_write_free);
  if (format == ArchiveFormat::kZip) {
    archive_write_set_format_zip(writer.get());
  } else {
    archive_write_set_format_pax_restricted(writer.get());
  }
  if (format == ArchiveFormat::kTarGz) archive_write_add_filter_gzip(writer.get());
  ASSERT_EQ(archive_write_open_filename(writer.get(), out.c_str()), ARCHIVE_OK) << archive_error_string(writer.get());
  for (const auto& entry : entries) add_entry(writer.get(), entry);
  ASSERT_EQ(archive_write_close(writer.get()), ARCHIVE_OK) << archive_error_string(writer.get());
}

}  // namespace tipc::test
