#include "align/io/padiff_dump.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <limits>

#include "core/regular_file.h"

namespace tipc::align {
namespace {

namespace fs = std::filesystem;
// Object order matters: a layer's parameters pair by position across the two models.
using Json = nlohmann::ordered_json;

// Where a JSON value sits: the file and the key path, e.g. "tree[0].children[2].route".
struct Where {
  const std::string& file;
  std::string key;

  Where at(const std::string& member) const { return {file, key.empty() ? member : key + "." + member}; }
  Where at(std::size_t index) const { return {file, key + "[" + std::to_string(index) + "]"}; }
  Error error(const std::string& message) const {
    return Error::at(file, 0, key, key.empty() ? message : key + ": " + message);
  }
};

// The member `key`, or nullptr when it is absent or null (PaDiff writes null for "none").
const Json* member(const Json& object, const char* key) {
  const auto found = object.find(key);
  return found == object.end() || found->is_null() ? nullptr : &*found;
}

const char* expected_text(Json::value_t type) {
  switch (type) {
    case Json::value_t::string: return "a string";
    case Json::value_t::array: return "a list";
    case Json::value_t::object: return "an object";
    case Json::value_t::boolean: return "true or false";
    default: return "an integer";
  }
}

bool has_type(const Json& value, Json::value_t type) {
  return type == Json::value_t::number_integer ? value.is_number_integer() : value.type() == type;
}

// The member `key` checked to be of `type` (number_integer: any integer); nullptr when it
// is optional and absent.
Result<const Json*> typed_member(const Json& object, const Where& where, const char* key, Json::value_t type,
                                 bool required) {
  const Json* value = member(object, key);
  if (!value) {
    if (required) return fail(where.at(key).error("required key is missing"));
    return nullptr;
  }
  if (!has_type(*value, type))
    return fail(where.at(key).error(std::string("expected ") + expected_text(type) + ", found " + value->type_name()));
  return value;
}

Result<std::string> string_member(const Json& object, const Where& where, const char* key, bool required) {
  auto value = TRY(typed_member(object, where, key, Json::value_t::string, required));
  return value ? value->get<std::string>() : std::string();
}

Result<std::vector<std::string>> string_list_member(const Json& object, const Where& where, const char* key) {
  auto list = TRY(typed_member(object, where, key, Json::value_t::array, false));
  std::vector<std::string> out;
  if (!list) return out;
  for (std::size_t i = 0; i < list->size(); ++i) {
    const Json& item = (*list)[i];
    if (!item.is_string())
      return fail(where.at(key).at(i).error(std::string("expected a string, found ") + item.type_name()));
    out.push_back(item.get<std::string>());
  }
  return out;
}

// Number of the line holding byte `offset` of `text`, 1-based.
int line_at(const std::string& text, std::size_t offset) {
  const auto end = text.begin() + static_cast<std::ptrdiff_t>(std::min(offset, text.size()));
  return 1 + static_cast<int>(std::count(text.begin(), end, '\n'));
}

Result<Json> read_json(const std::string& path) {
  const std::string text = TRY(read_regular_file(path, {"the file"}));
  try {
    Json root = Json::parse(text);
    if (!root.is_object()) return fail(Error::at(path, 1, "", "expected a JSON object at the top level"));
    return root;
  } catch (const Json::parse_error& e) {
    // e.byte is 1-based and points just past the offending character.
    const std::string what = e.what();
    const auto text_start = what.find("] ");
    return fail(Error::at(path, line_at(text, e.byte > 0 ? e.byte - 1 : 0), "",
                          "invalid JSON: " + (text_start == std::string::npos ? what : what.substr(text_start + 2))));
  }
}

// Paths are written as the writer saw them (absolute, or relative to its working directory).
// A dump that was moved since has them under the JSON file's directory: try the longest
// tail of the path that exists there.
std::optional<std::string> resolve_tensor_path(const std::string& written, const fs::path& json_dir) {
  std::error_code ec;
  if (fs::is_regular_file(written, ec)) return written;
  const fs::path relative = fs::path(written).relative_path();
  const std::vector<fs::path> parts(relative.begin(), relative.end());
  for (std::size_t first = 0; first < parts.size(); ++first) {
    fs::path candidate = json_dir;
    for (std::size_t i = first; i < parts.size(); ++i) candidate /= parts[i];
    if (fs::is_regular_file(candidate, ec)) return candidate.string();
  }
  return std::nullopt;
}

Result<std::string> resolved_path(const std::string& written, const Where& where, const fs::path& json_dir) {
  auto path = resolve_tensor_path(written, json_dir);
  if (!path) return fail(where.error("tensor file '" + written + "' not found (nor under " + json_dir.string() + ")"));
  return *path;
}

// One entry of fwd_outputs / bwd_grads: {"path": ..., "shape": ..., ...} or (2023) a bare path.
Result<std::string> read_tensor_entry(const Json& entry, const Where& where, const fs::path& json_dir) {
  if (entry.is_string()) return resolved_path(entry.get<std::string>(), where, json_dir);
  if (!entry.is_object())
    return fail(where.error(std::string("expected a path or an object with \"path\", found ") + entry.type_name()));
  auto written = TRY(string_member(entry, where, "path", true));
  return resolved_path(written, where.at("path"), json_dir);
}

Result<std::vector<std::string>> read_tensor_list(const Json& node, const Where& where, const char* key,
                                                  const fs::path& json_dir) {
  auto list = TRY(typed_member(node, where, key, Json::value_t::array, false));
  std::vector<std::string> paths;
  if (!list) return paths;
  for (std::size_t i = 0; i < list->size(); ++i) {
    auto path = TRY(read_tensor_entry((*list)[i], where.at(key).at(i), json_dir));
    paths.push_back(path);
  }
  return paths;
}

Result<NodeKind> read_node_kind(const Json& node, const Where& where) {
  auto type = TRY(string_member(node, where, "type", false));
  if (type.empty() || type == "net") return NodeKind::kNet;
  if (type == "api") return NodeKind::kApi;
  if (type == "in map") return NodeKind::kInMap;
  return fail(where.at("type").error("unknown layer type '" + type + "' (expected net, api or in map)"));
}

Result<std::optional<std::int64_t>> read_net_id(const Json& node, const Where& where) {
  auto metas = TRY(typed_member(node, where, "metas", Json::value_t::object, false));
  if (!metas) return std::optional<std::int64_t>();
  auto net_id = TRY(typed_member(*metas, where.at("metas"), "net_id", Json::value_t::number_integer, false));
  if (!net_id) return std::optional<std::int64_t>();
  return std::optional<std::int64_t>(net_id->get<std::int64_t>());
}

// Reads node.children (an optional list) with `read_child` for each entry.
template <typename Node, typename ReadChild>
Result<std::vector<Node>> read_children(const Json& node, const Where& where, ReadChild read_child) {
  auto list = TRY(typed_member(node, where, "children", Json::value_t::array, false));
  std::vector<Node> children;
  if (!list) return children;
  for (std::size_t i = 0; i < list->size(); ++i) {
    const Where child_where = where.at("children").at(i);
    const Json& child = (*list)[i];
    if (!child.is_object())
      return fail(child_where.error(std::string("expected an object, found ") + child.type_name()));
    auto read = TRY(read_child(child, child_where));
    children.push_back(std::move(read));
  }
  return children;
}

Result<ReportNode> read_report_node(const Json& node, const Where& where, const fs::path& json_dir) {
  auto name = TRY(string_member(node, where, "name", true));
  auto route = TRY(string_member(node, where, "route", true));
  auto kind = TRY(read_node_kind(node, where));
  auto fwd = TRY(read_tensor_list(node, where, "fwd_outputs", json_dir));
  auto bwd = TRY(read_tensor_list(node, where, "bwd_grads", json_dir));
  auto net_id = TRY(read_net_id(node, where));
  auto children = TRY(read_children<ReportNode>(node, where, [&](const Json& child, const Where& child_where) {
    return read_report_node(child, child_where, json_dir);
  }));
  return ReportNode{std::move(name), std::move(route),   kind, std::move(fwd), std::move(bwd),
                    net_id,          std::move(children)};
}

// report.json's layer_map: {"route": [...], "fullname": [...]}; pairing needs the routes.
Result<std::vector<std::string>> read_report_map_routes(const Json& root, const Where& where) {
  auto map = TRY(typed_member(root, where, "layer_map", Json::value_t::object, false));
  if (!map) return std::vector<std::string>();
  return string_list_member(*map, where.at("layer_map"), "route");
}

// {"weight": "<path>", "bias": null, ...} in the JSON's order.
Result<std::vector<NamedTensor>> read_named_tensors(const Json& node, const Where& where, const char* key,
                                                    const fs::path& json_dir) {
  auto dict = TRY(typed_member(node, where, key, Json::value_t::object, false));
  std::vector<NamedTensor> out;
  if (!dict) return out;
  for (const auto& [name, value] : dict->items()) {
    const Where value_where = where.at(key).at(name);
    if (value.is_null()) {
      out.push_back({name, std::nullopt});
      continue;
    }
    if (!value.is_string())
      return fail(value_where.error(std::string("expected a path or null, found ") + value.type_name()));
    auto path = TRY(resolved_path(value.get<std::string>(), value_where, json_dir));
    out.push_back({name, std::move(path)});
  }
  return out;
}

Result<ParamNode> read_param_node(const Json& node, const Where& where, const fs::path& json_dir) {
  auto name = TRY(string_member(node, where, "name", true));
  auto route = TRY(string_member(node, where, "route", true));
  auto available = TRY(typed_member(node, where, "available", Json::value_t::boolean, false));
  auto weights = TRY(read_named_tensors(node, where, "weights", json_dir));
  auto grads = TRY(read_named_tensors(node, where, "grads", json_dir));
  auto children = TRY(read_children<ParamNode>(node, where, [&](const Json& child, const Where& child_where) {
    return read_param_node(child, child_where, json_dir);
  }));
  return ParamNode{std::move(name),    std::move(route), !available || available->get<bool>(),
                   std::move(weights), std::move(grads), std::move(children)};
}

// A rank's label: its directory relative to the dump ("step_0/rank_1"), "" for the dump itself.
std::string label_of(const fs::path& dir, const fs::path& dump_dir) {
  const fs::path relative = dir.lexically_relative(dump_dir);
  return relative == "." ? std::string() : relative.string();
}

std::optional<std::string> existing_file(const fs::path& dir, const char* name) {
  std::error_code ec;
  const fs::path path = dir / name;
  return fs::is_regular_file(path, ec) ? std::optional<std::string>(path.string()) : std::nullopt;
}

Result<std::optional<ParamTree>> read_optional_param_tree(const std::optional<std::string>& path) {
  if (!path) return std::optional<ParamTree>();
  auto tree = TRY(read_param_tree(*path));
  return std::optional<ParamTree>(std::move(tree));
}

Result<RankDump> read_rank(const fs::path& dir, const fs::path& dump_dir) {
  RankDump rank{dir.string(), label_of(dir, dump_dir), {}, {}, {}};
  const auto report = existing_file(dir, "report.json");
  const auto params = existing_file(dir, "params.json");
  const auto weights = existing_file(dir, "weights.json");
  const auto grads = existing_file(dir, "grads.json");
  if (!report && !params && !weights && !grads)
    return fail(Error::at(dir.string(), 0, "", "no report.json, params.json, weights.json or grads.json here"));
  if (report) {
    auto read = TRY(read_report(*report));
    rank.report = std::move(read);
  }
  auto weights_tree = TRY(read_optional_param_tree(weights ? weights : params));
  rank.weights = std::move(weights_tree);
  auto grads_tree = TRY(read_optional_param_tree(grads ? grads : params));
  rank.grads = std::move(grads_tree);
  return rank;
}

// The number after `marker` in `name` ("step_12" -> 12), for ordering step_2 before step_10.
std::uint64_t number_after(const std::string& name, const std::string& marker) {
  const auto at = name.find(marker);
  std::uint64_t number = std::numeric_limits<std::uint64_t>::max();
  if (at != std::string::npos) {
    const char* first = name.data() + at + marker.size();
    std::from_chars(first, name.data() + name.size(), number);
  }
  return number;
}

// The directories of one level: `dir`'s entries when every name contains `marker`
// ("step_", "rank_"), in numeric order; otherwise `dir` itself.
std::vector<fs::path> level_directories(const fs::path& dir, const std::string& marker) {
  std::vector<fs::path> numbered;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (entry.path().filename().string().find(marker) == std::string::npos) return {dir};
    numbered.push_back(entry.path());
  }
  if (numbered.empty()) return {dir};
  const auto order = [&](const fs::path& path) {
    const std::string name = path.filename().string();
    return std::pair(number_after(name, marker), name);
  };
  std::sort(numbered.begin(), numbered.end(),
            [&](const fs::path& a, const fs::path& b) { return order(a) < order(b); });
  return numbered;
}

void collect_routes(const ReportNode& node, std::set<std::string>& routes) {
  routes.insert(node.route);
  for (const ReportNode& child : node.children) collect_routes(child, routes);
}

void collect_routes(const ParamNode& node, std::set<std::string>& routes) {
  routes.insert(node.route);
  for (const ParamNode& child : node.children) collect_routes(child, routes);
}

}  // namespace

Result<Report> read_report(const std::string& path) {
  auto root = TRY(read_json(path));
  const Where top{path, ""};
  const fs::path json_dir = fs::path(path).parent_path();
  Report report;
  report.file = path;
  auto framework = TRY(string_member(root, top, "framework", false));
  report.framework = std::move(framework);
  auto map_routes = TRY(read_report_map_routes(root, top));
  report.map_routes = std::move(map_routes);

  const Json* tree = member(root, "tree");
  if (!tree) return fail(top.at("tree").error("required key is missing"));
  if (tree->is_object()) {  // 2023 dumps: a single root
    auto node = TRY(read_report_node(*tree, top.at("tree"), json_dir));
    report.roots.push_back(std::move(node));
    return report;
  }
  if (!tree->is_array())
    return fail(top.at("tree").error(std::string("expected a list of layers, found ") + tree->type_name()));
  for (std::size_t i = 0; i < tree->size(); ++i) {
    const Where where = top.at("tree").at(i);
    if (!(*tree)[i].is_object())
      return fail(where.error(std::string("expected an object, found ") + (*tree)[i].type_name()));
    auto node = TRY(read_report_node((*tree)[i], where, json_dir));
    report.roots.push_back(std::move(node));
  }
  return report;
}

Result<ParamTree> read_param_tree(const std::string& path) {
  auto root = TRY(read_json(path));
  const Where top{path, ""};
  ParamTree tree;
  tree.file = path;
  auto framework = TRY(string_member(root, top, "framework", false));
  tree.framework = std::move(framework);
  auto node = TRY(typed_member(root, top, "tree", Json::value_t::object, true));
  auto read = TRY(read_param_node(*node, top.at("tree"), fs::path(path).parent_path()));
  tree.root = std::move(read);
  return tree;
}

Result<Dump> read_dump(const std::string& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return fail(Error::at(dir, 0, "", "not a directory"));
  Dump dump{dir, {}};
  for (const fs::path& step_dir : level_directories(dir, "step_")) {
    StepDump step{label_of(step_dir, dir), {}};
    for (const fs::path& rank_dir : level_directories(step_dir, "rank_")) {
      auto rank = TRY(read_rank(rank_dir, dir));
      step.ranks.push_back(std::move(rank));
    }
    dump.steps.push_back(std::move(step));
  }
  return dump;
}

std::set<std::string> dump_routes(const Dump& dump) {
  std::set<std::string> routes;
  for (const StepDump& step : dump.steps) {
    for (const RankDump& rank : step.ranks) {
      if (rank.report)
        for (const ReportNode& root : rank.report->roots) collect_routes(root, routes);
      if (rank.weights) collect_routes(rank.weights->root, routes);
      if (rank.grads) collect_routes(rank.grads->root, routes);
    }
  }
  return routes;
}

}  // namespace tipc::align
