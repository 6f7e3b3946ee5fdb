#include "align/io/npz.h"

#include <archive.h>
#include <archive_entry.h>
#include <fmt/format.h>

#include <memory>
#include <set>
#include <vector>

#include "align/io/load.h"

namespace tipc::align {
namespace {

using Reader = std::unique_ptr<archive, int (*)(archive*)>;
constexpr std::size_t kReadBlockBytes = 64 * 1024;

[[noreturn]] void reject_archive(const std::string& path, const std::string& message) { throw Error::at(path, 0, "", message); }

std::string archive_text(archive* a) {
  const char* text = archive_error_string(a);
  return text != nullptr ? text : "unknown libarchive error";
}

// Reads the file at `path`, or `bytes` when given (then `path` only names it in errors).
Reader open_zip(const std::string& path, const SharedBytes* bytes) {
  Reader reader(archive_read_new(), archive_read_free);
  if (!reader) reject_archive(path, "cannot allocate an archive reader");
  // Only ZIP: an .npz is never a tarball, and naming the format gives a clear error otherwise.
  archive_read_support_format_zip(reader.get());
  const int status = bytes != nullptr ? archive_read_open_memory(reader.get(), bytes->data(), bytes->size())
                                      : archive_read_open_filename(reader.get(), path.c_str(), kReadBlockBytes);
  if (status != ARCHIVE_OK) {
    reject_archive(path, "cannot open as a ZIP (.npz) archive: " + archive_text(reader.get()));
  }
  return reader;
}

// Reads the current member's data, enforcing the per-member and total size limits
// (a deflated member can expand enormously).
std::vector<std::byte> read_member(archive* a, const std::string& where, const NpzLimits& limits,
                                   std::uint64_t& total) {
  std::vector<std::byte> data;
  std::byte block[kReadBlockBytes];
  while (true) {
    const la_ssize_t got = archive_read_data(a, block, sizeof block);
    if (got < 0) reject_archive(where, "cannot read the member: " + archive_text(a));
    if (got == 0) return data;
    const auto n = static_cast<std::uint64_t>(got);
    if (data.size() + n > limits.max_member_bytes) reject_archive(where, "member larger than the size limit");
    if (total + n > limits.max_total_bytes) reject_archive(where, "archive larger than the total size limit");
    total += n;
    data.insert(data.end(), block, block + got);
  }
}

std::string member_key(std::string name) {
  constexpr std::string_view kSuffix = ".npy";
  if (name.ends_with(kSuffix)) name.resize(name.size() - kSuffix.size());
  return name;
}

Value::Dict read_npz_or_throw(const std::string& path, const NpzLimits& limits, const SharedBytes* bytes) {
  Reader reader = open_zip(path, bytes);
  Value::Dict members;
  std::set<std::string> seen;
  std::uint64_t total = 0;
  archive_entry* entry = nullptr;
  while (true) {
    const int status = archive_read_next_header(reader.get(), &entry);
    if (status == ARCHIVE_EOF) break;
    if (status != ARCHIVE_OK) reject_archive(path, "bad ZIP archive: " + archive_text(reader.get()));
    if (archive_entry_filetype(entry) == AE_IFDIR) continue;
    if (members.items.size() >= limits.max_members) reject_archive(path, "too many members");
    const std::string name = archive_entry_pathname(entry) != nullptr ? archive_entry_pathname(entry) : "";
    const std::string where = path + ":" + name;  // errors name the member inside the archive
    const std::string key = member_key(name);
    if (!seen.insert(key).second) reject_archive(where, "member '" + key + "' appears twice");
    const SharedBytes bytes = SharedBytes::own(read_member(reader.get(), where, limits, total));
    auto value = load_npy_value(bytes, where);
    if (!value) throw value.error();
    members.items.emplace_back(key, std::make_shared<const Value>(std::move(*value)));
  }
  return members;
}

}  // namespace

Result<Value::Dict> read_npz(const std::string& path, const NpzLimits& limits) {
  try {
    return read_npz_or_throw(path, limits, nullptr);
  } catch (const Error& e) {
    return fail(e);
  }
}

Result<Value::Dict> read_npz(const SharedBytes& bytes, const std::string& name, const NpzLimits& limits) {
  try {
    return read_npz_or_throw(name, limits, &bytes);
  } catch (const Error& e) {
    return fail(e);
  }
}

}  // namespace tipc::align
