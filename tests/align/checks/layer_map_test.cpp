// The YAML layer map: its rules and their lines, errors naming file, line and key, and
// what ignore / ignore_recursively / ignore_class do to report and parameter trees.
#include "align/checks/layer_map.h"

#include <gtest/gtest.h>

#include "support/temp_dir.h"

namespace tipc::align {
namespace {
namespace TIPC_TEST_FILE {

ReportNode node(const std::string& name, const std::string& route, std::vector<ReportNode> children = {}) {
  ReportNode out;
  out.name = name;
  out.route = route;
  out.children = std::move(children);
  return out;
}

// "route(child route(...), ...)" for compact tree assertions.
std::string shape_of(const std::vector<ReportNode>& nodes) {
  std::string out;
  for (const ReportNode& n : nodes) {
    if (!out.empty()) out += " ";
    out += n.route + (n.children.empty() ? "" : "(" + shape_of(n.children) + ")");
  }
  return out;
}

// Model
//   block (Sequential)
//     fc1 (Linear)
//     drop (Dropout)
//   aux (Aux)
//     noise (Noise)
//   head (Sequential)
//     fc2 (Linear)
std::vector<ReportNode> sample_tree() {
  return {node("Model", "M",
               {node("Sequential", "M.block", {node("Linear", "M.block.fc1"), node("Dropout", "M.block.drop")}),
                node("Aux", "M.aux", {node("Noise", "M.aux.noise")}),
                node("Sequential", "M.head", {node("Linear", "M.head.fc2")})})};
}

Result<LayerMap> read_text(const test::TempDir& temp, const std::string& text) {
  return read_layer_map(temp.write("map.yaml", text));
}

TEST(LayerMap, ReadsEveryRuleKindWithItsLine) {
  test::TempDir temp;
  const auto map = read_text(temp,
                             "base:\n"
                             "  ignore: [M.block]\n"
                             "  ignore_recursively:\n"
                             "    - M.aux\n"
                             "  ignore_class:\n"
                             "    - {under: M, class: Dropout}\n"
                             "raw:\n"
                             "  ignore: N.act\n"
                             "  ignore_class: {under: N}\n"
                             "map:\n"
                             "  M.lstm: N.rnn\n");
  ASSERT_TRUE(map) << map.error().str();
  ASSERT_EQ(map->base.ignore.size(), 1u);
  EXPECT_EQ(map->base.ignore[0].route, "M.block");
  EXPECT_EQ(map->base.ignore[0].line, 2);
  EXPECT_EQ(map->base.ignore_recursively.at(0).line, 4);
  EXPECT_EQ(map->base.ignore_class.at(0).class_name, "Dropout");
  EXPECT_EQ(map->raw.ignore.at(0).route, "N.act");                  // a single route is a list of one
  EXPECT_EQ(map->raw.ignore_class.at(0).class_name, "Sequential");  // PaDiff's default class
  ASSERT_EQ(map->pairs.size(), 1u);
  EXPECT_EQ(map->pairs[0].base_route, "M.lstm");
  EXPECT_EQ(map->pairs[0].raw_route, "N.rnn");
  EXPECT_EQ(map->pairs[0].line, 11);
}

TEST(LayerMap, AnEmptyFileMapsNothing) {
  test::TempDir temp;
  const auto map = read_text(temp, "");
  ASSERT_TRUE(map) << map.error().str();
  EXPECT_TRUE(map->pairs.empty());
  EXPECT_TRUE(map->base.ignore.empty());
}

TEST(LayerMap, ErrorsNameTheFileTheLineAndTheKey) {
  test::TempDir temp;
  struct Case {
    std::string text;
    int line;
    std::string key;
  };
  for (const Case& c : {
           Case{"base:\n  ignore_recursivly: [M.aux]\n", 2, "base.ignore_recursivly"},  // PaDiff's docs' spelling
           Case{"base:\n  ignore: [M.a, [M.b]]\n", 2, "base.ignore[1]"},
           Case{"raw:\n  ignore_class:\n    - {class: Dropout}\n", 3, "raw.ignore_class[0].under"},
           Case{"raw:\n  ignore_class:\n    - {under: N, kind: X}\n", 3, "raw.ignore_class[0].kind"},
           Case{"map:\n  - M.a\n", 2, "map"},
           Case{"map:\n  M.a: [N.a]\n", 2, "map.M.a"},
           Case{"mapping: {}\n", 1, "mapping"},
       }) {
    const auto map = read_text(temp, c.text);
    ASSERT_FALSE(map) << c.text;
    EXPECT_EQ(map.error().exit_code, kExitUsage);
    const Diagnostic& d = map.error().diagnostics.at(0);
    EXPECT_EQ(d.file, (temp.path() / "map.yaml").string()) << c.text;
    EXPECT_EQ(d.line, c.line) << c.text;
    EXPECT_EQ(d.key, c.key) << c.text;
    EXPECT_NE(d.message.find(c.key), std::string::npos) << d.message;
  }
}

TEST(LayerMap, MalformedYamlNamesTheLine) {
  test::TempDir temp;
  const auto map = read_text(temp, "base:\n  ignore: [M.a\n  raw: x\n");
  ASSERT_FALSE(map);
  EXPECT_GT(map.error().diagnostics.at(0).line, 1);
  EXPECT_FALSE(read_layer_map((temp.path() / "absent.yaml").string()));
}

TEST(LayerMap, IgnoreSplicesTheLayerOutAndKeepsItsSublayers) {
  IgnoreRules rules;
  rules.ignore = {{"M.block", 1}};
  EXPECT_EQ(shape_of(apply_ignore_rules(rules, sample_tree())),
            "M(M.block.fc1 M.block.drop M.aux(M.aux.noise) M.head(M.head.fc2))");
}

TEST(LayerMap, IgnoreRecursivelyDropsTheWholeSubtree) {
  IgnoreRules rules;
  rules.ignore_recursively = {{"M.aux", 1}};
  EXPECT_EQ(shape_of(apply_ignore_rules(rules, sample_tree())),
            "M(M.block(M.block.fc1 M.block.drop) M.head(M.head.fc2))");
}

TEST(LayerMap, IgnoreClassAppliesOnlyBelowItsLayer) {
  IgnoreRules rules;
  rules.ignore_class = {{"M", "Sequential", 1}};
  EXPECT_EQ(shape_of(apply_ignore_rules(rules, sample_tree())),
            "M(M.block.fc1 M.block.drop M.aux(M.aux.noise) M.head.fc2)");

  rules.ignore_class = {{"M.block", "Dropout", 1}};
  EXPECT_EQ(shape_of(apply_ignore_rules(rules, sample_tree())),
            "M(M.block(M.block.fc1) M.aux(M.aux.noise) M.head(M.head.fc2))");

  rules.ignore_class = {{"M.block", "Sequential", 1}};  // the layer itself is not below itself
  EXPECT_EQ(shape_of(apply_ignore_rules(rules, sample_tree())), shape_of(sample_tree()));
}

TEST(LayerMap, IgnoredParameterNodesBecomeUnavailable) {
  ParamNode root{"Model", "M", true, {}, {}, {}};
  root.children = {ParamNode{"Linear", "M.fc", true, {}, {}, {}},
                   ParamNode{"Aux", "M.aux", true, {}, {}, {ParamNode{"Linear", "M.aux.fc", true, {}, {}, {}}}},
                   ParamNode{"Dropout", "M.drop", true, {}, {}, {}}};
  IgnoreRules rules;
  rules.ignore = {{"M.fc", 1}};
  rules.ignore_recursively = {{"M.aux", 2}};
  rules.ignore_class = {{"M", "Dropout", 3}};
  const ParamNode filtered = apply_ignore_rules(rules, root);
  EXPECT_TRUE(filtered.available);
  EXPECT_FALSE(filtered.children[0].available);
  EXPECT_FALSE(filtered.children[1].available);
  EXPECT_FALSE(filtered.children[1].children[0].available);
  EXPECT_FALSE(filtered.children[2].available);
}

TEST(LayerMap, RoutesThatNameNoLayerAreWarnedAbout) {
  LayerMap map;
  map.file = "map.yaml";
  map.base.ignore = {{"M.fc", 2}, {"M.typo", 3}};
  map.raw.ignore_class = {{"N.missing", "Sequential", 5}};
  map.pairs = {{"M.fc", "N.fc", 7}};
  const auto warnings = unmatched_rule_warnings(map, {"M", "M.fc"}, {"N", "N.fc"});
  ASSERT_EQ(warnings.size(), 2u);
  EXPECT_EQ(warnings[0], "map.yaml:3: base route 'M.typo' names no layer in the base dump");
  EXPECT_EQ(warnings[1], "map.yaml:5: raw route 'N.missing' names no layer in the raw dump");
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::align
