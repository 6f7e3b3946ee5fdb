#pragma once
// Reading a PaDiff dump (docs/log-formats.md#padiff-dumps) into plain structs.
//
// A dump directory holds step_<k>/rank_<r> sub-directories (either level may be absent),
// and each rank directory holds report.json (the layer tree with the paths of every
// layer's forward outputs and backward grads) and params.json or weights.json / grads.json
// (the parameter tree). Both generations of report.json are accepted: tensor entries as
// objects {"path", "shape", "dtype", ...} or as bare path strings, and `tree` as a list of
// roots or a single node. JSON object order is kept, because parameters pair by position.
//
// Tensor paths are resolved while reading, so a dump that names a missing file is an
// error before anything is compared. Every error names the JSON file and the key path.
// The tensors themselves are read later, one pair at a time, by the comparison.
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/error.h"

namespace tipc::align {

// `type` in report.json: a layer, a functional call inside a layer, or a layer of the
// layer map (compared only at its outputs).
enum class NodeKind { kNet, kApi, kInMap };

struct ReportNode {
  std::string name;  // the class, e.g. "Linear"
  std::string route;
  NodeKind kind = NodeKind::kNet;
  std::vector<std::string> fwd_outputs;  // resolved .npy paths
  std::vector<std::string> bwd_grads;
  std::optional<std::int64_t> net_id;  // metas.net_id: pairs repeated layers across models
  std::vector<ReportNode> children;
};

struct Report {
  std::string file;
  std::string framework;  // "paddle" or "torch"
  // report.json's layer_map.route: the i-th routes of two dumps' maps pair up.
  std::vector<std::string> map_routes;
  std::vector<ReportNode> roots;
};

// One parameter (or its grad) and its resolved .npy path; none when the JSON says null.
struct NamedTensor {
  std::string name;
  std::optional<std::string> path;
};

struct ParamNode {
  std::string name;  // the class
  std::string route;
  bool available = true;             // false: filtered out by the black/white lists; children still count
  std::vector<NamedTensor> weights;  // in the JSON's order
  std::vector<NamedTensor> grads;
  std::vector<ParamNode> children;
};

struct ParamTree {
  std::string file;
  std::string framework;
  ParamNode root;
};

// One rank directory and the JSON files it holds.
struct RankDump {
  std::string dir;
  std::string label;  // "step_0/rank_1", "rank_0", "step_2", or "" for a plain directory
  std::optional<Report> report;
  std::optional<ParamTree> weights;  // weights.json, else params.json
  std::optional<ParamTree> grads;    // grads.json, else params.json
};

struct StepDump {
  std::string label;  // "step_<k>", or "" when the dump has no step level
  std::vector<RankDump> ranks;
};

struct Dump {
  std::string dir;
  std::vector<StepDump> steps;
};

Result<Report> read_report(const std::string& path);
// params.json, weights.json or grads.json (one schema).
Result<ParamTree> read_param_tree(const std::string& path);

// Reads every step and rank of the dump at `dir`: its step_* sub-directories when every
// entry is one (in numeric order), else `dir` as the only step, and within a step likewise
// its rank_* sub-directories. A rank directory without any of report.json, params.json,
// weights.json and grads.json is an error.
Result<Dump> read_dump(const std::string& dir);

// Every route named in the dump's trees (layers and parameter nodes).
std::set<std::string> dump_routes(const Dump& dump);

}  // namespace tipc::align
