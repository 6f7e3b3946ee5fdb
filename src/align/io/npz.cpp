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

tl::unexpected<Error> reject_archive(const std::string& path, const std::string& message) {
  return fail(Error::at(path, 0, "", message));
}

std::string archive_text(archive* a) {
  const char* text = archive_error_string(a);
  return text != nullptr ? text : "unknown libarchive error";
}

// Reads the file at `path`, or `bytes` when given (then `path` only names it in errors).
Result<Reader> open_zip(const std::string& path, const SharedBytes* bytes) {
  Reader reader(archive_read_new(), archive_read_free);
  if (!reader) return reject_archive(path, "cannot allocate an archive reader");
  // Only ZIP: an .npz is never a tarball, and naming the format gives a clear error otherwise.
  archive_read_support_format_zip(reader.get());
  const int status = bytes != nullptr ? archive_read_open_memory(reader.get(), bytes->data(), bytes->size())
                                      : archive_read_open_filename(reader.get(), path.c_str(), kReadBlockBytes);
  if (status != ARCHIVE_OK) {
    return reject_archive(path, "cannot open as a ZIP (.npz) archive: " + archive_text(reader.get()));
  }
  return reader;
}

// Reads the current member's data, enforcing the per-member and total size limits
// (a deflated member can expand enormously).
Result<std::vector<std::byte>> read_member(archive* a, const std::string& where, const NpzLimits& limits,
                                   std::uint64_t& total) {
  std::vector<std::byte> data;
  std::byte block[kReadBlockBytes];
  while (true) {
    const la_ssize_t got = archive_read_data(a, block, sizeof block);
    if (got < 0) return reject_archive(where, "cannot read the member: " + archive_text(a));
    if (got == 0) return data;
    const auto n = static_cast<std::uint64_t>(got);
    if (data.size() + n > limits.max_member_bytes) return reject_archive(where, "member larger than the size limit");
    if (total + n > limits.max_total_bytes) return reject_archive(where, "archive larger than the total size limit");
    total += n;
    data.insert(data.end(), block, block + got);
  }
}

std::string member_key(std::string name) {
  constexpr std::string_view kSuffix = ".npy";
  if (name.ends_with(kSuffix)) name.resize(name.size() - kSuffix.size());
  return name;
}

Result<Value::Dict> read_zip(const std::string& path, const NpzLimits& limits, const SharedBytes* bytes) {
  const Reader reader = TRY(open_zip(path, bytes));
  Value::Dict members;
  std::set<std::string> seen;
  std::uint64_t total = 0;
  archive_entry* entry = nullptr;
  while (true) {
    const int status = archive_read_next_header(reader.get(), &entry);
    if (status == ARCHIVE_EOF) break;
    if (status != ARCHIVE_OK) return reject_archive(path, "bad ZIP archive: " + archive_text(reader.get()));
    if (archive_entry_filetype(entry) == AE_IFDIR) continue;
    if (members.items.size() >= limits.max_members) return reject_archive(path, "too many members");
    const std::string name = archive_entry_pathname(entry) != nullptr ? archive_entry_pathname(entry) : "";
    const std::string where = path + ":" + name;  // errors name the member inside the archive
    const std::string key = member_key(name);
    if (!seen.insert(key).second) return reject_archive(where, "member '" + key + "' appears twice");
    const SharedBytes member = SharedBytes::own(TRY(read_member(reader.get(), where, limits, total)));
    members.items.emplace_back(key, std::make_shared<const Value>(TRY(load_npy_value(member, where))));
  }
  return members;
}

}  // namespace

Result<Value::Dict> read_npz(const std::string& path, const NpzLimits& limits) {
  return read_zip(path, limits, nullptr);
}

Result<Value::Dict> read_npz(const SharedBytes& bytes, const std::string& name, const NpzLimits& limits) {
  return read_zip(name, limits, &bytes);
}

}  // namespace tipc::align
