#include "dialect/dialect_detection.h"

#include <algorithm>
#include <filesystem>
#include <vector>

#include <fmt/format.h>

#include "dialect/dialect.h"

namespace tipc::dialect {
namespace fs = std::filesystem;
namespace {

// The first of the dialect's markers that exists under the root, as its message shows it
// (a directory with a trailing /); "" when none does.
std::string found_marker(const Dialect& dialect, const fs::path& root, bool inside_test_tipc) {
  for (const auto& marker : dialect.markers) {
    std::error_code ec;
    if ((marker.rfind("test_tipc/", 0) == 0) != inside_test_tipc || !fs::exists(root / marker, ec)) continue;
    return fs::is_directory(root / marker, ec) ? marker + "/" : marker;
  }
  return "";
}

struct MarkerMatch {
  std::string dialect;
  std::string marker;
};

std::string matches_text(const std::vector<MarkerMatch>& matches) {
  std::vector<std::string> parts;
  for (const auto& m : matches) parts.push_back(fmt::format("{} ({})", m.dialect, m.marker));
  return fmt::format("{}", fmt::join(parts, ", "));
}

// Why detection stopped, with every candidate: a person can then name one.
Error undecided(const std::string& root, const std::string& why, const std::vector<Dialect>& dialects) {
  std::string text = why + "; the dialects and their markers:";
  for (const auto& d : dialects) {
    text += fmt::format("\n  {:<16} {}", d.name,
                        d.markers.empty() ? "(none)" : fmt::format("{}", fmt::join(d.markers, ", ")));
  }
  text += "\nname the dialect with --dialect NAME, or with `dialect: NAME` in test_tipc/tipc-run.yaml";
  return Error::at(root, 0, "", text);
}

Result<std::vector<Dialect>> shipped_dialects(const std::string& directory) {
  std::error_code ec;
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(directory, ec)) {
    if (entry.path().extension() == ".yaml") files.push_back(entry.path());
  }
  if (ec) return fail(Error::plain(fmt::format("cannot list dialect directory {}: {}", directory, ec.message())));
  std::sort(files.begin(), files.end());
  std::vector<Dialect> dialects;
  for (const auto& file : files) {
    auto d = TRY(load_dialect_file(file.string()));
    dialects.push_back(std::move(d));
  }
  return dialects;
}

}  // namespace

Result<DialectChoice> detect_dialect(const std::string& directory, const std::string& repo_root) {
  auto dialects = TRY(shipped_dialects(directory));
  std::vector<MarkerMatch> outside, inside;  // markers outside test_tipc/ and inside it
  for (const auto& d : dialects) {
    if (auto marker = found_marker(d, repo_root, false); !marker.empty())
      outside.push_back({d.name, marker});
    else if (auto weak = found_marker(d, repo_root, true); !weak.empty())
      inside.push_back({d.name, weak});
  }
  const std::vector<MarkerMatch>& deciding = outside.empty() ? inside : outside;
  if (deciding.empty()) {
    return fail(
        undecided(repo_root, "no dialect marker found here (a test_tipc/ copied without the repository?)", dialects));
  }
  if (deciding.size() > 1) {
    return fail(undecided(repo_root, "markers of several dialects found: " + matches_text(deciding), dialects));
  }
  DialectChoice choice{deciding.front().dialect,
                       fmt::format("marker {} found in {}", deciding.front().marker, repo_root), ""};
  if (!outside.empty() && !inside.empty()) {
    choice.source += fmt::format("; {} matched too, by a file inside test_tipc/, which every copied test_tipc/ has",
                                 matches_text(inside));
  }
  if (outside.empty()) {
    choice.doubt = fmt::format(
        "the dialect {} rests on {} alone, a file every copied test_tipc/ has; if this is "
        "not a {} repository, name the dialect with --dialect",
        choice.name, deciding.front().marker, choice.name);
  }
  return choice;
}

}  // namespace tipc::dialect
