#pragma once
// The offline form of PaDiff's LayerMap (docs/cli.md#tipc-run-padiff), read from YAML, and
// what its rules do to a dump's trees. Layers are named by their route in the dump:
//
//   base:                                 # rules for DUMP_A, the base model
//     ignore: [Model.act]                 # not a comparison point; its sublayers still are
//     ignore_recursively: [Model.aux]     # the layer and everything under it
//     ignore_class:                       # layers below `under` whose class is `class`
//       - {under: Model.encoder, class: Dropout}   # class defaults to Sequential
//   raw:                                  # the same rules for DUMP_B, the raw model
//     ignore: Module.act                  # a single route is a list of one
//   map:                                  # DUMP_A route: DUMP_B route
//     Model.lstm1: Module.rnn             # paired, compared only at their outputs
//
// An ignored report layer is spliced out of its tree (its sublayers take its place); an
// ignored parameter node becomes unavailable, as PaDiff's black list would have made it.
#include <set>
#include <string>
#include <vector>

#include "align/io/padiff_dump.h"
#include "core/error.h"

namespace tipc::align {

struct RouteRule {
  std::string route;
  int line = 0;  // in the YAML file, for messages
};

struct ClassRule {
  std::string under;  // route of the layer whose sublayers are searched (not the layer itself)
  std::string class_name = "Sequential";
  int line = 0;
};

struct IgnoreRules {
  std::vector<RouteRule> ignore;
  std::vector<RouteRule> ignore_recursively;
  std::vector<ClassRule> ignore_class;
};

// A base layer and the raw layer it corresponds to.
struct MappedPair {
  std::string base_route;
  std::string raw_route;
  int line = 0;
};

struct LayerMap {
  std::string file;
  IgnoreRules base;
  IgnoreRules raw;
  std::vector<MappedPair> pairs;
};

// Unknown keys, wrong types and empty routes are errors naming the file, line and key.
Result<LayerMap> read_layer_map(const std::string& path);

std::vector<ReportNode> apply_ignore_rules(const IgnoreRules& rules, std::vector<ReportNode> roots);
ParamNode apply_ignore_rules(const IgnoreRules& rules, ParamNode root);

// One warning for every route in the map that names no layer of the dump it is meant for
// (a typo would otherwise silently change nothing).
std::vector<std::string> unmatched_rule_warnings(const LayerMap& map, const std::set<std::string>& base_routes,
                                                 const std::set<std::string>& raw_routes);

}  // namespace tipc::align
