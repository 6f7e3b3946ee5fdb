#pragma once
// The TIPC chains (configs/chains.yaml): which runner of a repository's test_tipc/ runs a
// config, chosen by the config's header line, its file name and the MODE, as data. A chain
// that cannot run on this machine carries the reason, and its configs are refused with it.
#include <string>
#include <vector>

#include "config/config_text.h"
#include "core/error.h"
#include "core/stage_kind.h"

namespace tipc::dialect {

// What a chain's runner reads and reports, to recognise it under another file name
// (dialect/runner_signature.h): words of its text, comment lines left out. A runner fits
// when every `all` word appears, one of `any` (when given), none of `none`, and it names
// one of the chain's status logs.
struct RunnerSignature {
  std::vector<std::string> all;
  std::vector<std::string> any;
  std::vector<std::string> none;
  bool empty() const { return all.empty() && any.empty(); }  // no signature: recognised by name only
};

// A config key that holds a script of the chain, and the kind of stage that script starts
// (chains.yaml's script_keys).
struct ScriptKey {
  StageKind kind = StageKind::kOther;
  // A key, a glob on keys ("*_export"), or "@KEY": each name the config's KEY line lists
  // (`trainer:norm_train|pact_train` makes norm_train and pact_train train keys).
  std::string pattern;
};

// Who plans a config of the chain when its runner is not beside it.
enum class ChainPlanner {
  kRunner,   // nobody: the chain's runner is traced, and a config without it is refused
  kDialect,  // the native dialects (dialect/dialect.h), which describe its positional lines
  kNative,   // the chain's own planner (plan/chain_planner.h)
};

struct Chain {
  std::string name;
  // The match: each list left empty holds for every config, else one value must match.
  std::vector<std::string> headers;      // config_header() of the config
  std::vector<std::string> file_names;   // globs on the config's file name
  std::vector<std::string> when_modes;   // the MODE given
  std::vector<std::string> runners;      // file names in test_tipc/, the first that exists is traced
  std::vector<std::string> modes;        // the runner's modes, its usual one first
  std::vector<std::string> status_logs;  // the file names its status lines go to
  RunnerSignature signature;             // how its runner is recognised under another name
  std::vector<ScriptKey> script_keys;    // its scripts' keys, in the order they are tried
  ChainPlanner planner = ChainPlanner::kRunner;
  std::string unsupported;  // why it cannot run here; "" = it can
  std::string file;         // where it was read (chains.yaml and its line)
  int line = 0;
};

struct Chains {
  std::vector<Chain> chains;  // in the file's order: the first that matches is chosen
};

// chains.yaml beside the dialect directory (configs/dialects -> configs/chains.yaml), as
// launchers.yaml is found.
std::string chains_file(const std::string& dialect_directory);

// Every problem of the file at once, each with its line and key.
Result<Chains> load_chains(const std::string& file);

// The header of a config whose first line with text is `first_line`
// (config::ConfigText::header_line, decoded by the one config reader): the text between its
// `===` rules, else the text before its first ':', trimmed ("" for an empty file).
std::string config_header(const std::string& first_line);

// Whether a chain lists `mode` among its modes: then the runners decide whether a config
// takes it (each traced config is checked against its runner's modes, plan/runner_lookup.h's
// find_runner), and the dialect only for the configs it plans (plan::plan_config).
bool chain_knows_mode(const Chains& chains, const std::string& mode);

// The first chain whose match holds; nullptr when none does.
const Chain* choose_chain(const Chains& chains, const std::string& header, const std::string& file_name,
                          const std::string& mode);

// The modes of the chains a config with this header and file name is run by: those of the
// chain chosen whatever the MODE, then those of chains chosen for a MODE of their own
// (benchmark_train), each mode once and only where choose_chain picks the chain that
// lists it. Empty when no chain matches the config.
std::vector<std::string> chain_modes(const Chains& chains, const std::string& header, const std::string& file_name);

// The chain of a config (its decoded header line and its file name) in `mode` ("": any).
const Chain* chain_of_config(const Chains& chains, const config::ConfigText& config, const std::string& mode);

// The chain the native dialects plan (planner: dialect), whose runner is the one traced for
// a config without a header; nullptr when no chain has that planner.
const Chain* dialect_chain(const Chains& chains);

// Whether the dialects describe a config with this header: the chain they plan matches it.
bool dialect_describes(const Chains& chains, const std::string& header);

// The keys and globs of the chain's scripts of one kind ("@KEY" entries left out).
std::vector<std::string> script_keys_of(const Chain& chain, StageKind kind);

}  // namespace tipc::dialect
