#include "report/bundle_reader.h"

#include <archive.h>
#include <archive_entry.h>

#include <memory>
#include <optional>

#include <fmt/format.h>

#include "report/report_json_reader.h"

namespace tipc::report {
namespace {
using BundleReader = std::unique_ptr<archive, int (*)(archive*)>;

// A report.json far beyond any real one (a 1000-stage run's is 1.5 MB) is a damaged bundle.
constexpr std::size_t kMaxReportBytes = std::size_t{1} << 30;
constexpr std::size_t kReadBlockBytes = 64 * 1024;

Error unreadable(archive* reader, const std::string& bundle_path) {
  const char* reason = archive_error_string(reader);
  return Error::at(bundle_path, 0, "",
                   fmt::format("not a readable bundle (a gzipped tar): {}", reason ? reason : "unknown error"));
}

Result<std::string> member_text(archive* reader, const std::string& bundle_path) {
  std::string text;
  char block[kReadBlockBytes];
  for (la_ssize_t n; (n = archive_read_data(reader, block, sizeof block)) != 0;) {
    if (n < 0) return fail(unreadable(reader, bundle_path));
    text.append(block, static_cast<std::size_t>(n));
    if (text.size() > kMaxReportBytes) {
      return fail(
          Error::at(bundle_path, 0, "", fmt::format("{} is larger than 1 GiB: a damaged bundle", kBundleReportMember)));
    }
  }
  return text;
}

// The member's text; nullopt when the bundle has none of that name.
Result<std::optional<std::string>> read_member(const std::string& bundle_path, const std::string& name) {
  BundleReader reader(archive_read_new(), archive_read_free);
  archive_read_support_filter_gzip(reader.get());
  archive_read_support_format_tar(reader.get());
  if (archive_read_open_filename(reader.get(), bundle_path.c_str(), kReadBlockBytes) != ARCHIVE_OK) {
    return fail(unreadable(reader.get(), bundle_path));
  }
  archive_entry* entry = nullptr;
  for (int status; (status = archive_read_next_header(reader.get(), &entry)) != ARCHIVE_EOF;) {
    if (status < ARCHIVE_WARN) return fail(unreadable(reader.get(), bundle_path));
    const char* pathname = archive_entry_pathname(entry);
    if (pathname && pathname == name) return std::optional(TRY(member_text(reader.get(), bundle_path)));
  }
  return std::nullopt;
}

}  // namespace

Result<RunReport> load_bundle_report(const std::string& bundle_path) {
  const auto text = TRY(read_member(bundle_path, kBundleReportMember));
  if (!text) {
    return fail(Error::at(bundle_path, 0, "",
                          fmt::format("no {} in this bundle: not the bundle of a run (--bundle on a run or on "
                                      "`tipc-run report`)",
                                      kBundleReportMember)));
  }
  return read_report_json(*text, fmt::format("{}: {}", bundle_path, kBundleReportMember));
}

}  // namespace tipc::report
