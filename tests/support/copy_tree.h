#pragma once
// A tree copied into a test's scratch directory that the test may change, whatever the
// source's modes: ../shared may be read-only, and std::filesystem::copy would make read-only
// directories that only root could then fill (a test run as a user failed with EACCES).
#include <filesystem>

namespace tipc::test {

// Copies the files and directories under `from` into `to` (made if missing), over files
// already there, every copy writable by its owner. Links are copied as links.
inline void copy_tree(const std::filesystem::path& from, const std::filesystem::path& to) {
  namespace fs = std::filesystem;
  fs::create_directories(to);
  for (const auto& entry : fs::recursive_directory_iterator(from)) {
    const fs::path target = to / entry.path().lexically_relative(from);
    if (entry.is_symlink()) {
      fs::remove(target);
      fs::copy_symlink(entry.path(), target);
      continue;
    }
    if (entry.is_directory()) {
      fs::create_directories(target);
    } else {
      fs::copy_file(entry.path(), target, fs::copy_options::overwrite_existing);
    }
    fs::permissions(target, fs::perms::owner_write, fs::perm_options::add);
  }
}

}  // namespace tipc::test
