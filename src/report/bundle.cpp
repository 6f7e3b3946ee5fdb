#include "report/bundle.h"

#include <archive.h>
#include <archive_entry.h>
#include <sys/stat.h>
#include <unistd.h>

#include <ctime>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>

#include <fmt/format.h>

#include "core/utf8_names.h"
#include "report/html_report.h"
#include "report/report_writer.h"

namespace tipc::report {
namespace {
namespace fs = std::filesystem;
using Writer = std::unique_ptr<archive, int (*)(archive*)>;
using Entry = std::unique_ptr<archive_entry, void (*)(archive_entry*)>;

constexpr std::size_t kCopyBlockBytes = 64 * 1024;

// Relative to the repository root when the file lies under it.
std::string member_name(const std::string& repo_root, const std::string& path) {
  const fs::path file = fs::path(path).lexically_normal();
  if (!repo_root.empty()) {
    const fs::path relative = file.lexically_relative(repo_root);
    if (!relative.empty() && *relative.begin() != "..") return relative.string();
  }
  return "external" + file.string();
}

class MemberList {
 public:
  explicit MemberList(std::string repo_root) : repo_root_(std::move(repo_root)) {}
  void add(const std::string& path) { add_as(member_name(repo_root_, path), path); }
  void add_as(const std::string& name, const std::string& path) {
    std::error_code ec;
    if (path.empty() || !fs::is_regular_file(path, ec) || !names_.insert(name).second) return;
    members_.push_back({name, path});
  }
  void add_text(const std::string& name, std::string text) {
    if (names_.insert(name).second) members_.push_back({name, "", std::move(text)});
  }
  std::vector<BundleMember> take() { return std::move(members_); }

 private:
  std::string repo_root_;
  std::set<std::string> names_;
  std::vector<BundleMember> members_;
};

// Only stages that ran: a log of one that did not is left over from an earlier run.
void add_stage_files(MemberList& members, const StageReport& stage) {
  if (!stage.started) return;
  members.add(stage.log);
  for (const AttemptReport& attempt : stage.attempts) members.add(attempt.log);
  if (!stage.check) return;
  members.add(stage.check->result_file);
  for (const std::string& file : stage.check->compared_files) members.add(file);
}

Result<void> archive_error(archive* writer, const std::string& path) {
  return fail(Error::at(path, 0, "", fmt::format("cannot write the bundle: {}", archive_error_string(writer))));
}

// A warning is a name that is not UTF-8: the writer then stores its bytes as they are
// (hdrcharset=BINARY, which GNU tar and Python's tarfile read), and the member is written.
bool write_header(archive* writer, archive_entry* entry) {
  const int status = archive_write_header(writer, entry);
  return status == ARCHIVE_OK || status == ARCHIVE_WARN;
}

Result<void> add_text_member(archive* writer, const BundleMember& member, const std::string& bundle_path) {
  Entry entry(archive_entry_new(), archive_entry_free);
  archive_entry_set_pathname(entry.get(), member.name.c_str());
  archive_entry_set_size(entry.get(), static_cast<la_int64_t>(member.text.size()));
  archive_entry_set_filetype(entry.get(), AE_IFREG);
  archive_entry_set_perm(entry.get(), 0644);
  archive_entry_set_mtime(entry.get(), std::time(nullptr), 0);
  if (!write_header(writer, entry.get()) || archive_write_data(writer, member.text.data(), member.text.size()) < 0) {
    return archive_error(writer, bundle_path);
  }
  return {};
}

Result<void> add_member(archive* writer, const BundleMember& member, const std::string& bundle_path) {
  if (member.path.empty()) return add_text_member(writer, member, bundle_path);
  struct stat info {};
  std::ifstream in(member.path, std::ios::binary);
  if (!in || stat(member.path.c_str(), &info) != 0) return {};  // gone since it was listed
  Entry entry(archive_entry_new(), archive_entry_free);
  archive_entry_set_pathname(entry.get(), member.name.c_str());
  archive_entry_set_size(entry.get(), info.st_size);
  archive_entry_set_filetype(entry.get(), AE_IFREG);
  archive_entry_set_perm(entry.get(), 0644);
  archive_entry_set_mtime(entry.get(), info.st_mtime, 0);
  if (!write_header(writer, entry.get())) return archive_error(writer, bundle_path);
  char buffer[kCopyBlockBytes];
  // At most the size in the header: a log still growing is cut there, as tar expects.
  for (la_int64_t left = info.st_size; left > 0 && in;) {
    in.read(buffer, static_cast<std::streamsize>(std::min<la_int64_t>(left, sizeof buffer)));
    const auto n = in.gcount();
    if (n <= 0) break;
    if (archive_write_data(writer, buffer, static_cast<std::size_t>(n)) < 0) return archive_error(writer, bundle_path);
    left -= n;
  }
  return {};
}

Result<void> write_archive(const std::vector<BundleMember>& members, const std::string& temp,
                           const std::string& bundle_path) {
  const Utf8Names utf8_names;  // for as long as the writer lives: non-ASCII paths are written as UTF-8
  Writer writer(archive_write_new(), archive_write_free);
  if (archive_write_add_filter_gzip(writer.get()) != ARCHIVE_OK ||
      archive_write_set_format_pax_restricted(writer.get()) != ARCHIVE_OK ||
      archive_write_open_filename(writer.get(), temp.c_str()) != ARCHIVE_OK) {
    return archive_error(writer.get(), bundle_path);
  }
  for (const BundleMember& member : members) {
    if (auto ok = add_member(writer.get(), member, bundle_path); !ok) return ok;
  }
  if (archive_write_close(writer.get()) != ARCHIVE_OK) return archive_error(writer.get(), bundle_path);
  return {};
}

}  // namespace

std::vector<BundleMember> bundle_members(const RunReport& report, const std::string& report_dir) {
  MemberList members(report.repo_root);
  for (const ReportFile& file : report_files()) {
    const std::string name = fmt::format("reports/{}", file.name);
    if (file.render == render_html_report && !report.repo_root.empty()) {
      // Its links, relative to where it lies: reports/ beside the repository's files.
      RunReport in_bundle = report;
      in_bundle.report_dir = (fs::path(report.repo_root) / "reports").string();
      members.add_text(name, render_html_report(in_bundle));
    } else {
      members.add_as(name, (fs::path(report_dir) / file.name).string());
    }
  }
  for (const PlanReport& plan : report.plans) {
    for (const StageReport& stage : plan.stages) add_stage_files(members, stage);
  }
  for (const PlanReport& plan : report.plans) members.add(plan.config_file);
  members.add(report.settings_file);
  return members.take();
}

Result<void> write_bundle(const RunReport& report, const std::string& report_dir, const std::string& bundle_path) {
  return write_bundle_members(bundle_members(report, report_dir), bundle_path);
}

Result<void> write_bundle_members(const std::vector<BundleMember>& members, const std::string& bundle_path) {
  std::error_code ec;
  const fs::path target = fs::absolute(bundle_path, ec);
  if (ec) return fail(Error::at(bundle_path, 0, "", "cannot write the bundle: " + ec.message()));
  if (target.has_parent_path()) fs::create_directories(target.parent_path(), ec);
  const std::string temp = target.string() + ".tmp." + std::to_string(getpid());
  if (auto ok = write_archive(members, temp, bundle_path); !ok) {
    fs::remove(temp, ec);
    return ok;
  }
  fs::rename(temp, target, ec);
  if (!ec) return {};
  const std::string why = ec.message();  // before remove() sets ec again
  fs::remove(temp, ec);
  return fail(Error::at(bundle_path, 0, "", "cannot write the bundle: " + why));
}

}  // namespace tipc::report
