#include "dialect/runner_signature.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <set>

namespace tipc::dialect {
namespace {
namespace fs = std::filesystem;

bool word_character(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Whether `text` names the file `name` (results.log in "${LOG_PATH}/results.log", not in
// bench_results.log or results.log.bak).
bool names_file(const std::string& text, const std::string& name) {
  for (auto at = text.find(name); at != std::string::npos; at = text.find(name, at + 1)) {
    const std::size_t end = at + name.size();
    const bool starts = at == 0 || !word_character(text[at - 1]);
    const bool ends = end == text.size() || (!word_character(text[end]) && text[end] != '.');
    if (starts && ends) return true;
  }
  return false;
}

bool contains(const std::string& text, const std::string& word) { return text.find(word) != std::string::npos; }

RunnerScript read_script(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::string text(kRunnerScriptBytes, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  return {file.filename().string(), without_comment_lines(text)};
}

}  // namespace

std::string without_comment_lines(const std::string& text) {
  std::string kept;
  for (std::size_t begin = 0; begin < text.size();) {
    const std::size_t newline = text.find('\n', begin);
    const std::size_t end = newline == std::string::npos ? text.size() : newline + 1;
    const std::size_t first = text.find_first_not_of(" \t", begin);
    if (first >= end || text[first] != '#') kept.append(text, begin, end - begin);
    begin = end;
  }
  return kept;
}

bool fits(const Chain& chain, const std::string& text) {
  const RunnerSignature& signature = chain.signature;
  if (signature.empty()) return false;
  const auto has = [&](const std::string& word) { return contains(text, word); };
  return std::all_of(signature.all.begin(), signature.all.end(), has) &&
         (signature.any.empty() || std::any_of(signature.any.begin(), signature.any.end(), has)) &&
         std::none_of(signature.none.begin(), signature.none.end(), has) &&
         std::any_of(chain.status_logs.begin(), chain.status_logs.end(),
                     [&](const std::string& log) { return names_file(text, log); });
}

const std::vector<RunnerScript>& RunnerScripts::in(const std::string& directory) {
  const auto known = by_directory_.find(directory);
  if (known != by_directory_.end()) return known->second;
  std::vector<fs::path> files;
  std::error_code ec;
  for (fs::directory_iterator it(directory, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->path().extension() == ".sh" && it->is_regular_file(ec)) files.push_back(it->path());
  }
  std::sort(files.begin(), files.end());
  std::vector<RunnerScript> scripts;
  for (const auto& file : files) scripts.push_back(read_script(file));
  return by_directory_.emplace(directory, std::move(scripts)).first->second;
}

std::vector<std::string> fitting_runners(const Chains& chains, const Chain& chain,
                                         const std::vector<RunnerScript>& scripts) {
  std::set<std::string> others_runners;
  for (const auto& other : chains.chains) others_runners.insert(other.runners.begin(), other.runners.end());
  for (const auto& own : chain.runners) others_runners.erase(own);
  std::vector<std::string> fitting;
  for (const auto& script : scripts) {
    if (!others_runners.count(script.name) && fits(chain, script.text)) fitting.push_back(script.name);
  }
  return fitting;
}

}  // namespace tipc::dialect
