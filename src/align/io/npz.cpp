#include "align/io/npz.h"

#include <archive.h>
#include <archive_entry.h>
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <vector>

#include "align/io/load.h"
#include "align/io/npy.h"

namespace tipc::align {
namespace {

using Reader = std::unique_ptr<archive, int (*)(archive*)>;
constexpr std::size_t kReadBlockBytes = 64 * 1024;
constexpr std::size_t kFillStepBytes = 1 << 20;  // a declared size is taken up as the bytes arrive

tl::unexpected<Error> reject_archive(const std::string& path, const std::string& message) {
  return fail(Error::at(path, 0, "", message));
}

std::string archive_text(archive* a) {
  const char* text = archive_error_string(a);
  return text != nullptr ? text : "unknown libarchive error";
}

Result<Reader> open_zip(const SharedBytes& bytes, const std::string& path) {
  Reader reader(archive_read_new(), archive_read_free);
  if (!reader) return reject_archive(path, "cannot allocate an archive reader");
  // Only ZIP: an .npz is never a tarball, and naming the format gives a clear error otherwise.
  archive_read_support_format_zip(reader.get());
  if (archive_read_open_memory(reader.get(), bytes.data(), bytes.size()) != ARCHIVE_OK) {
    return reject_archive(path, "cannot open as a ZIP (.npz) archive: " + archive_text(reader.get()));
  }
  return reader;
}

// Where a size the budget checks comes from, for the message.
enum class SizeClaim { kHeader, kDeclared, kPickleSoFar };

std::string claim_text(SizeClaim claim, std::uint64_t bytes) {
  switch (claim) {
    case SizeClaim::kHeader: return fmt::format("its .npy header takes {} bytes", bytes);
    case SizeClaim::kDeclared: return fmt::format("its .npy header declares {} bytes", bytes);
    case SizeClaim::kPickleSoFar: return fmt::format("its pickle runs past {} bytes", bytes);
  }
  return "";
}

// What the members may still hold, decompressed: the limits, and what the archive's bytes
// can expand to at all, so that a small file cannot claim gigabytes.
class SizeBudget {
 public:
  SizeBudget(const NpzLimits& limits, std::uint64_t archive_bytes)
      : limits_(limits),
        archive_bytes_(archive_bytes),
        total_left_(limits.max_total_bytes),
        expansion_left_(archive_bytes > UINT64_MAX / limits.max_expansion ? UINT64_MAX
                                                                          : archive_bytes * limits.max_expansion) {}

  Result<void> check(std::uint64_t member_bytes, const std::string& where, SizeClaim claim) const {
    if (member_bytes > limits_.max_member_bytes) {
      return reject_archive(where, fmt::format("member larger than the size limit: {}, the limit is {}",
                                               claim_text(claim, member_bytes), limits_.max_member_bytes));
    }
    if (member_bytes > total_left_) {
      return reject_archive(where, fmt::format("archive larger than the total size limit of {} bytes: {}",
                                               limits_.max_total_bytes, claim_text(claim, member_bytes)));
    }
    if (member_bytes > expansion_left_) {
      return reject_archive(
          where, fmt::format("member larger than its archive can hold: {}, but deflate expands the "
                             "archive's {} bytes {} times at most ({} bytes left for this member)",
                             claim_text(claim, member_bytes), archive_bytes_, limits_.max_expansion, expansion_left_));
    }
    return {};
  }

  Result<void> take(std::uint64_t member_bytes, const std::string& where, SizeClaim claim) {
    TRY(check(member_bytes, where, claim));
    total_left_ -= member_bytes;
    expansion_left_ -= member_bytes;
    return {};
  }

 private:
  const NpzLimits& limits_;
  std::uint64_t archive_bytes_;
  std::uint64_t total_left_;
  std::uint64_t expansion_left_;
};

// The current member's bytes, inflated only as far as they are asked for.
class MemberStream {
 public:
  MemberStream(archive* a, const std::string& where) : archive_(a), where_(where) {}

  // Reads until the member holds `size` bytes or has ended.
  Result<void> fill(std::size_t size) {
    while (bytes_.size() < size && !ended_) {
      const std::size_t before = bytes_.size();
      bytes_.resize(before + std::min(size - before, kFillStepBytes));
      const la_ssize_t got = archive_read_data(archive_, bytes_.data() + before, bytes_.size() - before);
      bytes_.resize(before + static_cast<std::size_t>(std::max<la_ssize_t>(got, 0)));
      if (got < 0) return reject_archive(where_, "cannot read the member: " + archive_text(archive_));
      ended_ = got == 0;
    }
    return {};
  }

  // Reads exactly `size` bytes; a member shorter or longer is an error.
  Result<void> read_exactly(std::size_t size) {
    bytes_.reserve(size);
    TRY(fill(size));
    if (bytes_.size() < size) {
      return reject_archive(
          where_, fmt::format("member shorter than its .npy header declares: {} of {} bytes", bytes_.size(), size));
    }
    std::byte probe[1];
    const la_ssize_t more = bytes_.size() > size ? 1 : ended_ ? 0 : archive_read_data(archive_, probe, sizeof probe);
    if (more < 0) return reject_archive(where_, "cannot read the member: " + archive_text(archive_));
    if (more > 0) {
      return reject_archive(where_, fmt::format("member longer than its .npy header declares ({} bytes)", size));
    }
    return {};
  }

  std::string_view view() const { return {reinterpret_cast<const char*>(bytes_.data()), bytes_.size()}; }
  std::size_t size() const { return bytes_.size(); }
  bool ended() const { return ended_; }
  SharedBytes take() { return SharedBytes::own(std::move(bytes_)); }

 private:
  archive* archive_;
  const std::string& where_;
  std::vector<std::byte> bytes_;
  bool ended_ = false;
};

// An object member's length: its header and its pickle up to STOP, read block by block.
// nullopt where the pickle cannot be followed (a refused opcode, the member's end): the
// unpickler then names what is wrong with the bytes read so far.
Result<std::optional<std::size_t>> pickled_member_size(MemberStream& member, std::size_t header_size,
                                                       const SizeBudget& budget, const std::string& where) {
  PickleEndFinder finder;
  while (true) {
    const PickleEndFinder::State state = finder.scan(member.view().substr(header_size));
    if (state == PickleEndFinder::State::kEnd) return header_size + finder.length();
    if (state == PickleEndFinder::State::kRefused || member.ended()) return std::nullopt;
    TRY(budget.check(member.size(), where, SizeClaim::kPickleSoFar));
    TRY(member.fill(member.size() + kReadBlockBytes));
  }
}

// The member's length as its .npy header declares it; nullopt for a dtype or shape that
// load_npy_value refuses (it names the reason from the header alone).
Result<std::optional<std::size_t>> declared_member_size(MemberStream& member, const NpyHeader& header,
                                                        const SizeBudget& budget, const std::string& where) {
  if (header.is_object()) return pickled_member_size(member, header.payload_offset, budget, where);
  const std::optional<Dtype> dtype = header.structured ? std::nullopt : dtype_from_descr(header.descr);
  if (!dtype) return std::nullopt;
  const std::optional<std::size_t> payload = byte_count(header.shape, dtype->item_size);
  if (!payload || *payload > SIZE_MAX - header.payload_offset) return std::nullopt;
  return header.payload_offset + *payload;
}

// The ZIP directory's size of the member, where it gives one, must be the header's.
Result<void> check_directory_size(archive_entry* entry, std::size_t declared, const std::string& where) {
  if (!archive_entry_size_is_set(entry)) return {};
  const auto listed = static_cast<std::uint64_t>(archive_entry_size(entry));
  if (listed == declared) return {};
  return reject_archive(where, fmt::format("member {} than its .npy header declares: the ZIP directory gives {} bytes, "
                                           "the header {}",
                                           listed > declared ? "longer" : "shorter", listed, declared));
}

// The first read: a small member whole (one call into libarchive, as before the header
// decided the size), else the .npy preamble.
std::size_t first_read_bytes(archive_entry* entry) {
  if (!archive_entry_size_is_set(entry)) return kNpyPreambleBytes;
  return std::clamp<std::size_t>(static_cast<std::size_t>(std::max<la_int64_t>(archive_entry_size(entry), 0)),
                                 kNpyPreambleBytes, kReadBlockBytes);
}

// Reads the current member only as far as its .npy header declares it: the header from
// the first bytes, then exactly the payload (a deflated member can expand enormously, and
// numpy reads no further either). The value is made from the header parsed here.
Result<Value> read_member(archive* a, archive_entry* entry, const std::string& where, SizeBudget& budget) {
  MemberStream member(a, where);
  TRY(member.fill(first_read_bytes(entry)));
  const std::size_t header_size = TRY(npy_header_size(member.view(), where));
  TRY(budget.check(header_size, where, SizeClaim::kHeader));
  TRY(member.fill(header_size));
  NpyHeader header = TRY(parse_npy_header(member.view(), where));
  const std::optional<std::size_t> declared = TRY(declared_member_size(member, header, budget, where));
  if (declared) {
    TRY(budget.take(*declared, where, SizeClaim::kDeclared));
    TRY(check_directory_size(entry, *declared, where));
    TRY(member.read_exactly(*declared));
  }
  const SharedBytes bytes = member.take();
  return load_npy_value(NpyFile{std::move(header), bytes.slice(header_size, bytes.size() - header_size)}, where);
}

std::string member_key(std::string name) {
  constexpr std::string_view kSuffix = ".npy";
  if (name.ends_with(kSuffix)) name.resize(name.size() - kSuffix.size());
  return name;
}

Result<Value::Dict> read_zip(const SharedBytes& bytes, const std::string& path, const NpzLimits& limits) {
  const Reader reader = TRY(open_zip(bytes, path));
  SizeBudget budget(limits, bytes.size());
  Value::Dict members;
  std::set<std::string> seen;
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
    members.items.emplace_back(key,
                               std::make_shared<const Value>(TRY(read_member(reader.get(), entry, where, budget))));
  }
  return members;
}

}  // namespace

Result<Value::Dict> read_npz(const std::string& path, const NpzLimits& limits) {
  const SharedBytes bytes = TRY(SharedBytes::map_file(path));
  return read_zip(bytes, path, limits);
}

Result<Value::Dict> read_npz(const SharedBytes& bytes, const std::string& name, const NpzLimits& limits) {
  return read_zip(bytes, name, limits);
}

}  // namespace tipc::align
