#pragma once
// Which stages a run keeps: --only (stage kinds), -k (expressions over stage ids) and
// --shard K/N (whole configs).
//
// -k takes pytest's expressions: patterns joined by `and`, `or`, `not` and parentheses;
// several -k select what any of them selects. A pattern is matched, case-insensitively,
// so that no word selects every stage through the prefix that all stages of a chain share:
//
//   a glob (holds * ? or [)  the whole id: -k '*/infer/*_bs1'
//   a path (holds /)         whole segments of the id in a row: -k gpus_0/autocast_null
//   a word                   the stage's kind (-k train: the trains, not every stage of
//                            norm_train/...), a whole segment (-k gpus_0, -k norm_train), or
//                            whole _-separated words of a segment after the first (-k bs1,
//                            -k threads_2, -k fp32); the first segment names the chain
//                            every stage of it shares, and a word matches it only whole
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "core/error.h"
#include "plan/plan.h"

namespace tipc::plan {

// Whether one pattern (no `and`, `or`, `not`) selects the stage.
bool pattern_matches(const std::string& pattern, const Stage& stage);

// A -k expression, parsed once.
class StageExpression {
 public:
  // An error names what is wrong with the expression ("-k 'a and': a pattern is missing after 'and'").
  static Result<StageExpression> parse(const std::string& text);
  bool matches(const Stage& stage) const;

  struct Node {
    enum class Op { kPattern, kNot, kAnd, kOr } op = Op::kPattern;
    std::string pattern;
    std::vector<Node> operands;
  };

 private:
  Node root_;
};

// Keeps the stages --only and -k select (dependencies on dropped stages are dropped too).
// A selection that keeps no stage at all is an error: a CI job would pass on nothing.
Result<void> select_stages(std::vector<Plan>& plans, const std::vector<StageKind>& kinds,
                           const std::vector<std::string>& expressions);

// --shard K/N: the Kth (from 1) of N shards.
struct Shard {
  int index = 1;
  int count = 1;
};

// "2/4" -> {2, 4}; an error in words for anything else.
Result<Shard> parse_shard(const std::string& text);

// Which configs (indices into `plans`) shard K of N runs: whole configs, so that every stage
// runs with its dependencies; the biggest first (by stage count) onto the shard with the fewest
// stages so far, ties in config order. Deterministic; the N shards are disjoint and together
// hold every config. A shard with no config is empty when there are fewer configs than shards.
std::vector<std::size_t> configs_of_shard(const std::vector<Plan>& plans, const Shard& shard);

// --shard: keeps the configs of the shard, and says what it holds on `out`: "tipc-run: shard
// 2/4: 3 of 10 configs, 41 stages", or, for an empty shard (fewer configs than shards),
// "tipc-run: shard 4/4 holds no config (3 configs for 4 shards): nothing ran". False for an
// empty shard; true, and nothing said, without --shard.
bool keep_shard(std::vector<Plan>& plans, const std::optional<Shard>& shard, std::ostream& out);

}  // namespace tipc::plan
