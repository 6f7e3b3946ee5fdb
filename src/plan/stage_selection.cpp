#include "plan/stage_selection.h"

#include <fnmatch.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/plural.h"
#include "core/split_list.h"
#include "core/text.h"

namespace tipc::plan {
namespace {

// Whether `needle` occurs in `haystack` as a run of adjacent elements.
bool contains_run(const std::vector<std::string>& haystack, const std::vector<std::string>& needle) {
  return !needle.empty() &&
         std::search(haystack.begin(), haystack.end(), needle.begin(), needle.end()) != haystack.end();
}

// A word: the whole of a segment, or whole _-separated words of a segment after the first.
bool word_matches(const std::string& word, const std::vector<std::string>& segments) {
  const std::vector<std::string> words = split_list(word, '_');
  for (std::size_t i = 0; i < segments.size(); ++i) {
    if (segments[i] == word || (i > 0 && contains_run(split_list(segments[i], '_'), words))) return true;
  }
  return false;
}

}  // namespace

bool pattern_matches(const std::string& pattern, const Stage& stage) {
  const std::string id = lower(stage.id);
  const std::string wanted = lower(pattern);
  if (wanted.find_first_of("*?[") != std::string::npos) return fnmatch(wanted.c_str(), id.c_str(), 0) == 0;
  const std::vector<std::string> segments = split_list(id, '/');
  if (wanted.find('/') != std::string::npos) return contains_run(segments, split_list(wanted, '/'));
  return stage_kind_from_string(wanted) == stage.kind || word_matches(wanted, segments);
}

namespace {

using Node = StageExpression::Node;

bool is_operator(const std::string& token) {
  return token == "and" || token == "or" || token == "not" || token == "(" || token == ")";
}

// Words, with parentheses as words of their own.
std::vector<std::string> tokens_of(const std::string& text) {
  std::string spaced;
  for (const char c : text) spaced += c == '(' || c == ')' ? std::string(" ") + c + " " : std::string(1, c);
  std::istringstream in(spaced);
  std::vector<std::string> tokens;
  for (std::string token; in >> token;) tokens.push_back(token);
  return tokens;
}

// Recursive descent over pytest's grammar: or < and < not < pattern | ( expression ).
class Parser {
 public:
  explicit Parser(const std::string& text) : text_(text), tokens_(tokens_of(text)) {}

  Result<Node> parse() {
    if (tokens_.empty()) return problem("it is empty");
    Node node = TRY(parse_binary(Node::Op::kOr));
    if (pos_ < tokens_.size()) return problem(fmt::format("'{}' follows a complete expression", tokens_[pos_]));
    return node;
  }

 private:
  Result<Node> parse_binary(Node::Op op) {
    const char* word = op == Node::Op::kOr ? "or" : "and";
    auto operand = [&]() { return op == Node::Op::kOr ? parse_binary(Node::Op::kAnd) : parse_not(); };
    Node left = TRY(operand());
    while (accept(word)) {
      Node right = TRY(operand());  // before the braces: a TRY inside them leaks `left` on an error (GCC)
      left = Node{op, "", {std::move(left), std::move(right)}};
    }
    return left;
  }

  Result<Node> parse_not() {
    if (!accept("not")) return parse_atom();
    Node negated = TRY(parse_not());
    return Node{Node::Op::kNot, "", {std::move(negated)}};
  }

  Result<Node> parse_atom() {
    if (pos_ == tokens_.size()) {
      return problem(pos_ == 0 ? "a pattern is missing"
                               : fmt::format("a pattern is missing after '{}'", tokens_.back()));
    }
    if (accept("(")) {
      Node inner = TRY(parse_binary(Node::Op::kOr));
      if (!accept(")")) return problem("a ')' is missing");
      return inner;
    }
    const std::string& token = tokens_[pos_];
    if (is_operator(token)) return problem(fmt::format("a pattern is missing before '{}'", token));
    ++pos_;
    return Node{Node::Op::kPattern, token, {}};
  }

  bool accept(const std::string& token) {
    if (pos_ == tokens_.size() || tokens_[pos_] != token) return false;
    ++pos_;
    return true;
  }

  tl::unexpected<Error> problem(const std::string& what) const {
    return fail(Error::plain(
        fmt::format("'{}': {} (patterns joined by and, or, not; e.g. -k 'infer and not bs1')", text_, what)));
  }

  const std::string& text_;
  std::vector<std::string> tokens_;
  std::size_t pos_ = 0;
};

bool evaluate(const Node& node, const Stage& stage) {
  switch (node.op) {
    case Node::Op::kPattern: return pattern_matches(node.pattern, stage);
    case Node::Op::kNot: return !evaluate(node.operands.front(), stage);
    case Node::Op::kAnd: return evaluate(node.operands[0], stage) && evaluate(node.operands[1], stage);
    case Node::Op::kOr: return evaluate(node.operands[0], stage) || evaluate(node.operands[1], stage);
  }
  return false;
}

}  // namespace

Result<StageExpression> StageExpression::parse(const std::string& text) {
  StageExpression expression;
  expression.root_ = TRY(Parser(text).parse());
  return expression;
}

bool StageExpression::matches(const Stage& stage) const { return evaluate(root_, stage); }

namespace {

// Each kept stage's left-out dependencies, and theirs in turn while they are left out too.
void record_unselected_deps(Plan& plan, const std::set<std::string>& kept) {
  std::map<std::string, const Stage*> by_id;
  for (const auto& stage : plan.stages) by_id[stage.id] = &stage;
  for (auto& stage : plan.stages) {
    if (!kept.count(stage.id)) continue;
    std::vector<std::string> pending(stage.deps.begin(), stage.deps.end());
    std::set<std::string> seen;
    while (!pending.empty()) {
      const std::string id = pending.back();
      pending.pop_back();
      const auto it = by_id.find(id);
      if (kept.count(id) || it == by_id.end() || !seen.insert(id).second) continue;
      stage.unselected_deps.push_back({id, it->second->needs});
      pending.insert(pending.end(), it->second->deps.begin(), it->second->deps.end());
    }
  }
}

std::string asked_for(const std::vector<StageKind>& kinds, const std::vector<std::string>& expressions) {
  std::vector<std::string> asked;
  std::vector<std::string> words;
  for (const StageKind kind : kinds) words.emplace_back(to_string(kind));
  if (!kinds.empty()) asked.push_back(fmt::format("--only {}", fmt::join(words, ",")));
  for (const std::string& expression : expressions) asked.push_back(fmt::format("-k '{}'", expression));
  return fmt::format("{}", fmt::join(asked, " "));
}

}  // namespace

Result<void> select_stages(std::vector<Plan>& plans, const std::vector<StageKind>& kinds,
                           const std::vector<std::string>& expressions) {
  std::vector<StageExpression> parsed;
  for (const std::string& text : expressions) parsed.push_back(TRY(StageExpression::parse(text)));
  auto selected = [&](const Stage& stage) {
    const bool kind_ok = kinds.empty() || std::find(kinds.begin(), kinds.end(), stage.kind) != kinds.end();
    return kind_ok && (parsed.empty() || std::any_of(parsed.begin(), parsed.end(),
                                                     [&](const StageExpression& e) { return e.matches(stage); }));
  };
  std::size_t planned = 0, kept_total = 0;
  std::string example;
  for (auto& plan : plans) {
    planned += plan.stages.size();
    if (example.empty() && !plan.stages.empty()) example = plan.stages.front().id;
    std::set<std::string> kept;
    for (const auto& stage : plan.stages) {
      if (selected(stage)) kept.insert(stage.id);
    }
    record_unselected_deps(plan, kept);
    std::erase_if(plan.stages, [&](const Stage& s) { return !kept.count(s.id); });
    for (auto& stage : plan.stages) {
      for (auto* ids : {&stage.deps, &stage.after})
        std::erase_if(*ids, [&](const std::string& d) { return !kept.count(d); });
    }
    kept_total += plan.stages.size();
  }
  if (kept_total > 0 || planned == 0 || (kinds.empty() && expressions.empty())) return {};
  return fail(Error::plain(fmt::format("{} selects none of the {} planned stages (one is {})",
                                       asked_for(kinds, expressions), planned, example)));
}

Result<Shard> parse_shard(const std::string& text) {
  const std::size_t slash = text.find('/');
  int index = 0, count = 0;
  std::size_t used_index = 0, used_count = 0;
  try {
    index = std::stoi(text.substr(0, slash), &used_index);
    count = slash == std::string::npos ? 0 : std::stoi(text.substr(slash + 1), &used_count);
  } catch (const std::exception&) {
    count = 0;
  }
  const bool whole = slash != std::string::npos && used_index == slash && used_count == text.size() - slash - 1;
  if (!whole || count < 1 || index < 1 || index > count) {
    return fail(Error::plain(
        fmt::format("'{}' is not a shard: write K/N, the Kth of N shards, with 1 <= K <= N (e.g. --shard 2/4)", text)));
  }
  return Shard{index, count};
}

std::vector<std::size_t> configs_of_shard(const std::vector<Plan>& plans, const Shard& shard) {
  std::vector<std::size_t> order(plans.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return plans[a].stages.size() > plans[b].stages.size(); });
  std::vector<std::size_t> load(static_cast<std::size_t>(shard.count), 0);
  std::vector<std::size_t> mine;
  for (const std::size_t config : order) {
    const auto lightest = static_cast<std::size_t>(std::min_element(load.begin(), load.end()) - load.begin());
    load[lightest] += std::max<std::size_t>(plans[config].stages.size(), 1);
    if (static_cast<int>(lightest) + 1 == shard.index) mine.push_back(config);
  }
  std::sort(mine.begin(), mine.end());
  return mine;
}

bool keep_shard(std::vector<Plan>& plans, const std::optional<Shard>& shard, std::ostream& out) {
  if (!shard) return true;
  const std::size_t configs = plans.size();
  std::vector<Plan> kept;
  std::size_t stages = 0;
  for (const std::size_t config : configs_of_shard(plans, *shard)) {
    stages += plans[config].stages.size();
    kept.push_back(std::move(plans[config]));
  }
  plans = std::move(kept);
  if (plans.empty()) {
    out << fmt::format("tipc-run: shard {}/{} holds no config ({} for {} shards): nothing ran\n", shard->index,
                       shard->count, plural(configs, "config"), shard->count);
    return false;
  }
  out << fmt::format("tipc-run: shard {}/{}: {} of {} configs, {}\n", shard->index, shard->count, plans.size(), configs,
                     plural(stages, "stage"));
  return true;
}

}  // namespace tipc::plan
