#include "dialect/chains.h"

#include <fnmatch.h>

#include <algorithm>
#include <filesystem>
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "config/yaml_file.h"
#include "config/yaml_reader.h"
#include "core/text.h"

namespace tipc::dialect {
namespace {

using config::YamlReader;
using ScriptKeyTables = std::map<std::string, std::vector<ScriptKey>>;  // script_keys: NAME -> its keys

// A signature needs words to look for, and status logs for the runner to name.
RunnerSignature read_signature(YamlReader& r, const YAML::Node& chain_node, const Chain& chain) {
  const YAML::Node node = r.section(chain_node, "signature");
  if (!node) return {};
  if (!node.IsMap()) {
    r.problem(node, "signature", "expected a map of all, any, none");
    return {};
  }
  RunnerSignature signature;
  signature.all = r.strings(node, "all");
  signature.any = r.strings(node, "any");
  signature.none = r.strings(node, "none");
  if (signature.empty()) r.problem(node, "signature", "expected words in all or any: what the runner reads");
  if (chain.status_logs.empty()) r.problem(node, "signature", "the chain has no status_logs for its runner to name");
  return signature;
}

// One table of script_keys: kinds in their order, each a list of keys.
std::vector<ScriptKey> read_script_key_table(YamlReader& r, const YAML::Node& table, const std::string& name) {
  std::vector<ScriptKey> keys;
  if (!table.IsMap()) {
    r.problem(table, name, "expected a map of stage kinds to lists of keys");
    return keys;
  }
  for (const auto& entry : table) {
    const std::string word = r.scalar(entry.first, name);
    const auto kind = stage_kind_from_string(word);
    if (!kind) r.problem(entry.first, word, "not a stage kind (train, eval, export, infer, convert, service, other)");
    for (const std::string& pattern : r.strings(table, word)) {
      if (pattern.empty() || pattern == "@") r.problem(entry.second, word, "an empty key");
      keys.push_back({kind.value_or(StageKind::kOther), pattern});
    }
  }
  if (keys.empty()) r.problem(table, name, "a table without keys");
  return keys;
}

ScriptKeyTables read_script_key_tables(YamlReader& r, const YAML::Node& root) {
  ScriptKeyTables tables;
  const YAML::Node node = r.child(root, "script_keys");
  if (!node) return tables;
  if (!node.IsMap()) {
    r.problem(node, "script_keys", "expected a map of table names to tables");
    return tables;
  }
  for (const auto& entry : node) {
    const std::string name = r.scalar(entry.first, "script_keys");
    tables[name] = read_script_key_table(r, entry.second, name);
  }
  return tables;
}

ChainPlanner read_planner(YamlReader& r, const YAML::Node& node) {
  const std::string word = r.one_of(node, "planner", {"runner", "dialect", "native"}, "runner");
  if (word == "dialect") return ChainPlanner::kDialect;
  return word == "native" ? ChainPlanner::kNative : ChainPlanner::kRunner;
}

std::vector<ScriptKey> chain_script_keys(YamlReader& r, const YAML::Node& node, const ScriptKeyTables& tables) {
  const std::string name = r.str(node, "script_keys", std::string());
  if (name.empty()) return {};
  const auto table = tables.find(name);
  if (table != tables.end()) return table->second;
  std::vector<std::string> known;
  for (const auto& [known_name, keys] : tables) known.push_back(known_name);
  r.problem(r.child(node, "script_keys"), "script_keys",
            fmt::format("no table '{}' in the file's script_keys (it has: {})", name, fmt::join(known, ", ")));
  return {};
}

Chain read_chain(YamlReader& r, const YAML::Node& node, const std::string& file, const ScriptKeyTables& tables) {
  Chain chain;
  chain.file = file;
  chain.line = config::yaml_line(node);
  r.check_keys(node, "chain");
  chain.name = r.str(node, "name");
  const YAML::Node match = r.section(node, "match");
  if (!match || !match.IsMap()) r.problem(match ? match : node, "match", "expected a map of header, file_name, mode");
  chain.headers = r.strings(match, "header");
  chain.file_names = r.strings(match, "file_name");
  chain.when_modes = r.strings(match, "mode");
  chain.runners = r.strings(node, "runners");
  if (chain.runners.empty()) r.problem(node, "runners", "missing: the runner file names of the chain");
  chain.modes = r.strings(node, "modes");
  chain.status_logs = r.strings(node, "status_logs");
  chain.unsupported = r.str(node, "unsupported", std::string());
  chain.signature = read_signature(r, node, chain);
  chain.script_keys = chain_script_keys(r, node, tables);
  chain.planner = read_planner(r, node);
  return chain;
}

// A list left empty holds for anything.
bool holds(const std::vector<std::string>& values, const std::string& value) {
  return values.empty() || std::find(values.begin(), values.end(), value) != values.end();
}

bool name_matches(const std::vector<std::string>& globs, const std::string& name) {
  return globs.empty() || std::any_of(globs.begin(), globs.end(), [&](const std::string& glob) {
           return fnmatch(glob.c_str(), name.c_str(), 0) == 0;
         });
}

}  // namespace

std::string chains_file(const std::string& dialect_directory) {
  return (std::filesystem::path(dialect_directory).parent_path() / "chains.yaml").string();
}

Result<Chains> load_chains(const std::string& file) {
  const YAML::Node root = TRY(config::load_yaml_file(file, "chains file"));
  YamlReader r(file);
  r.check_keys(root, "the chains file");
  const ScriptKeyTables tables = read_script_key_tables(r, root);
  const YAML::Node list = r.child(root, "chains");
  Chains chains;
  if (!list || !list.IsSequence()) r.problem(list ? list : root, "chains", "expected a list of chains");
  for (const auto& node : list.IsSequence() ? list : YAML::Node()) {
    chains.chains.push_back(read_chain(r, node, file, tables));
  }
  if (auto problems = r.finish(); !problems.empty()) return fail(Error{std::move(problems)});
  return chains;
}

std::string config_header(const std::string& first_line) {
  const std::string_view line = trim(first_line, " \t\r");
  if (line.starts_with("===")) return std::string(trim(line, "= \t"));
  return std::string(trim(line.substr(0, line.find(':')), " \t"));
}

bool chain_knows_mode(const Chains& chains, const std::string& mode) {
  return std::any_of(chains.chains.begin(), chains.chains.end(), [&](const Chain& chain) {
    return std::find(chain.modes.begin(), chain.modes.end(), mode) != chain.modes.end();
  });
}

const Chain* choose_chain(const Chains& chains, const std::string& header, const std::string& file_name,
                          const std::string& mode) {
  for (const auto& chain : chains.chains) {
    if (holds(chain.headers, header) && name_matches(chain.file_names, file_name) && holds(chain.when_modes, mode)) {
      return &chain;
    }
  }
  return nullptr;
}

std::vector<std::string> chain_modes(const Chains& chains, const std::string& header, const std::string& file_name) {
  std::vector<std::string> modes;
  for (const bool for_own_modes : {false, true}) {
    for (const Chain& chain : chains.chains) {
      if (chain.when_modes.empty() == for_own_modes) continue;
      for (const auto& mode : chain.modes) {
        const bool listed = std::find(modes.begin(), modes.end(), mode) != modes.end();
        if (!listed && choose_chain(chains, header, file_name, mode) == &chain) modes.push_back(mode);
      }
    }
  }
  return modes;
}

const Chain* chain_of_config(const Chains& chains, const config::ConfigText& config, const std::string& mode) {
  return choose_chain(chains, config_header(config.header_line()),
                      std::filesystem::path(config.path).filename().string(), mode);
}

const Chain* dialect_chain(const Chains& chains) {
  const auto it = std::find_if(chains.chains.begin(), chains.chains.end(),
                               [](const Chain& chain) { return chain.planner == ChainPlanner::kDialect; });
  return it == chains.chains.end() ? nullptr : &*it;
}

bool dialect_describes(const Chains& chains, const std::string& header) {
  const Chain* chain = dialect_chain(chains);
  return chain && !header.empty() && holds(chain->headers, header);
}

std::vector<std::string> script_keys_of(const Chain& chain, StageKind kind) {
  std::vector<std::string> keys;
  for (const auto& key : chain.script_keys) {
    if (key.kind == kind && !key.pattern.starts_with("@")) keys.push_back(key.pattern);
  }
  return keys;
}

}  // namespace tipc::dialect
