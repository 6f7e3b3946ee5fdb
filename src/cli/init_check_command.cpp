#include "cli/init_check_command.h"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <utility>
#include <variant>

#include "align/init_check.h"
#include "align/load.h"
#include "cli/subcommand.h"
#include "core/json_file.h"
#include "core/error.h"

namespace tipc::cli {
namespace {

using Json = nlohmann::ordered_json;

struct InitCheckArgs {
  std::string file_a, file_b;
  std::vector<std::string> keys;
  align::InitCheckOptions options;
  std::optional<std::string> json_path;
};

// Returns the parsed arguments, or the exit code (0 after --help).
std::variant<InitCheckArgs, int> parse_init_check_args(const std::vector<std::string>& args, std::ostream& out,
                                                       std::ostream& err) {
  InitCheckArgs parsed;
  CLI::App app{"Compare the distributions of initialised weights (moments, histogram overlap, two-sample KS)",
               "tipc-run init-check"};
  app.add_option("A", parsed.file_a, "weights of one framework: a .npy array, a reprod_log dict .npy or an .npz")
      ->required();
  app.add_option("B", parsed.file_b, "weights of the other framework, of the same kind")->required();
  app.add_option("--key", parsed.keys, "compare only this (dotted) key; repeatable")->allow_extra_args(false);
  app.add_option("--bins", parsed.options.bins, "histogram bins over the joint range (default 50)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{100000}));
  app.add_option("--threshold", parsed.options.max_ks,
                 "largest accepted KS statistic (default: the critical value at alpha = 0.01 for the sizes)")
      ->check(CLI::PositiveNumber);
  app.add_option("--json", parsed.json_path, "also write statistics and histograms to this file (replaced atomically)");
  if (const auto code = parse_subcommand(app, args, out, err)) return *code;
  return parsed;
}

// A loaded file's leaves by dotted key, in file order; one leaf with key "" for a plain array.
struct LoadedFile {
  std::string file;
  std::shared_ptr<const align::Value> root;  // owns what the leaves point into
  std::vector<std::pair<std::string, const align::Value*>> leaves;

  bool is_dict() const { return root->is<align::Value::Dict>(); }
  const align::Value* find(const std::string& key) const {
    const auto it = std::find_if(leaves.begin(), leaves.end(), [&](const auto& leaf) { return leaf.first == key; });
    return it == leaves.end() ? nullptr : it->second;
  }
};

void flatten(const align::Value& value, const std::string& prefix, LoadedFile& loaded) {
  if (const auto* dict = value.get<align::Value::Dict>()) {
    for (const auto& [key, child] : dict->items) flatten(*child, prefix.empty() ? key.text : prefix + "." + key.text, loaded);
    return;
  }
  loaded.leaves.emplace_back(prefix, &value);
}

Result<LoadedFile> load_file(const std::string& file) {
  auto value = align::load_values(file);
  if (!value) return fail(value.error());
  LoadedFile loaded{file, std::make_shared<const align::Value>(std::move(*value)), {}};
  flatten(*loaded.root, "", loaded);
  return loaded;
}

// A key compared in both files, with the arrays it names.
struct KeyPair {
  std::string key;  // "" for two plain arrays
  const align::Array* a = nullptr;
  const align::Array* b = nullptr;
};

struct Selection {
  std::vector<KeyPair> pairs;
  std::vector<std::string> only_in_a, only_in_b;
  std::vector<std::string> not_arrays;  // in both files, but not an array in one of them
};

// The array a leaf holds (a numpy scalar is a 0-d array), or nullptr for other objects.
const align::Array* as_array(const align::Value& value) {
  if (const auto* array = value.get<align::Array>()) return array;
  if (const auto* scalar = value.get<align::Value::Scalar>()) return &scalar->value;
  return nullptr;
}

std::vector<std::string> keys_missing_from(const LoadedFile& from, const LoadedFile& other) {
  std::vector<std::string> missing;
  for (const auto& [key, value] : from.leaves) {
    if (!other.find(key)) missing.push_back(key);
  }
  return missing;
}

Result<const align::Array*> named_array(const LoadedFile& file, const std::string& key) {
  const align::Value* value = file.find(key);
  if (!value) return fail(Error::at(file.file, 0, key, fmt::format("key '{}' is not in the file", key)));
  if (const align::Array* array = as_array(*value)) return array;
  return fail(Error::at(file.file, 0, key, fmt::format("key '{}' is not an array ({})", key, value->describe())));
}

Result<Selection> select_plain(const LoadedFile& a, const LoadedFile& b, const std::vector<std::string>& wanted) {
  if (!wanted.empty()) return fail(Error::plain(fmt::format("--key needs dict files; {} is a plain array", a.file)));
  for (const LoadedFile* file : {&a, &b}) {
    if (!as_array(*file->root)) {
      return fail(Error::at(file->file, 0, "", fmt::format("holds a {}, not an array or a dict of arrays",
                                                           file->root->describe())));
    }
  }
  return Selection{{{"", as_array(*a.root), as_array(*b.root)}}, {}, {}, {}};
}

Result<Selection> select_keys(const LoadedFile& a, const LoadedFile& b, const std::vector<std::string>& wanted) {
  if (a.is_dict() != b.is_dict()) {
    const LoadedFile& plain = a.is_dict() ? b : a;
    return fail(Error::plain(fmt::format("{} is a plain array and {} a dict of arrays: compare two of a kind",
                                         plain.file, (a.is_dict() ? a : b).file)));
  }
  if (!a.is_dict()) return select_plain(a, b, wanted);
  Selection selection{{}, keys_missing_from(a, b), keys_missing_from(b, a), {}};
  for (const std::string& key : wanted) {
    const auto first = named_array(a, key);
    if (!first) return fail(first.error());
    const auto second = named_array(b, key);
    if (!second) return fail(second.error());
    selection.pairs.push_back({key, *first, *second});
  }
  if (wanted.empty()) {
    for (const auto& [key, value] : a.leaves) {
      const align::Value* other = b.find(key);
      if (!other) continue;
      if (as_array(*value) && as_array(*other)) selection.pairs.push_back({key, as_array(*value), as_array(*other)});
      else selection.not_arrays.push_back(key);
    }
  }
  if (selection.pairs.empty()) return fail(Error::plain(fmt::format("no array is in both {} and {}", a.file, b.file)));
  return selection;
}

struct KeyOutcome {
  std::string key;
  align::InitComparison comparison;
};

Result<KeyOutcome> compare_key_pair(const KeyPair& pair, const LoadedFile& a, const LoadedFile& b,
                                const align::InitCheckOptions& options) {
  auto comparison = align::compare_initialisation(*pair.a, *pair.b, options);
  if (!comparison) {
    const std::string what = pair.key.empty() ? "" : fmt::format("key '{}' of ", pair.key);
    return fail(Error::plain(fmt::format("{}{} vs {}: {}", what, a.file, b.file, comparison.error().str())));
  }
  return KeyOutcome{pair.key, std::move(*comparison)};
}

std::string display_key(const std::string& key) { return key.empty() ? "(array)" : key; }

std::string limit_description(const align::InitCheckOptions& options) {
  if (options.max_ks > 0) return fmt::format("the fixed --threshold {:g}", options.max_ks);
  return "the two-sample critical value at alpha = 0.01 for each key's sizes";
}

void print_key_table(const std::vector<KeyOutcome>& outcomes, const align::InitCheckOptions& options, std::ostream& out) {
  std::size_t key_width = 3;
  for (const auto& outcome : outcomes) key_width = std::max(key_width, display_key(outcome.key).size());
  out << "KS limit: " << limit_description(options) << '\n';
  out << fmt::format("{:<{}} {:>11} {:>11} {:>11} {:>11} {:>11} {:>11} {:>11} {:>11} {:>8} {:>9} {:>9} {}\n", "key",
                     key_width, "mean A", "mean B", "std A", "std B", "min A", "min B", "max A", "max B", "overlap",
                     "KS", "limit", "result");
  for (const auto& [key, c] : outcomes) {
    out << fmt::format(
        "{:<{}} {:>11.4g} {:>11.4g} {:>11.4g} {:>11.4g} {:>11.4g} {:>11.4g} {:>11.4g} {:>11.4g} {:>8.4f} {:>9.4g} "
        "{:>9.4g} {}\n",
        display_key(key), key_width, c.first.mean, c.second.mean, c.first.std, c.second.std, c.first.min,
        c.second.min, c.first.max, c.second.max, c.histogram_overlap, c.ks_statistic, c.ks_limit,
        c.passed ? "PASS" : "FAIL");
  }
}

std::size_t count_passed(const std::vector<KeyOutcome>& outcomes) {
  return static_cast<std::size_t>(
      std::count_if(outcomes.begin(), outcomes.end(), [](const KeyOutcome& o) { return o.comparison.passed; }));
}

void print_init_check(const std::vector<KeyOutcome>& outcomes, const Selection& selection, const InitCheckArgs& args,
                  std::ostream& out) {
  print_key_table(outcomes, args.options, out);
  if (!selection.only_in_a.empty())
    out << fmt::format("only in A ({}): {}\n", args.file_a, fmt::join(selection.only_in_a, ", "));
  if (!selection.only_in_b.empty())
    out << fmt::format("only in B ({}): {}\n", args.file_b, fmt::join(selection.only_in_b, ", "));
  if (!selection.not_arrays.empty())
    out << fmt::format("not compared (not arrays): {}\n", fmt::join(selection.not_arrays, ", "));
  const std::size_t passed = count_passed(outcomes);
  out << fmt::format("tipc-run init-check: {} passed, {} failed\n", passed, outcomes.size() - passed) << std::flush;
}

Json stats_json(const align::DistributionStats& stats) {
  return {{"count", stats.count}, {"mean", stats.mean}, {"std", stats.std}, {"min", stats.min}, {"max", stats.max}};
}

Json outcome_json(const KeyOutcome& outcome) {
  const align::InitComparison& c = outcome.comparison;
  return {{"key", outcome.key},
          {"status", c.passed ? "PASS" : "FAIL"},
          {"reason", c.reason},
          {"a", stats_json(c.first)},
          {"b", stats_json(c.second)},
          {"ks_statistic", c.ks_statistic},
          {"ks_limit", c.ks_limit},
          {"histogram_overlap", c.histogram_overlap},
          {"histogram", {{"bin_edges", c.bin_edges}, {"a_counts", c.first_counts}, {"b_counts", c.second_counts}}}};
}

Json init_check_json(const std::vector<KeyOutcome>& outcomes, const Selection& selection, const InitCheckArgs& args) {
  Json keys = Json::array();
  for (const auto& outcome : outcomes) keys.push_back(outcome_json(outcome));
  const std::size_t passed = count_passed(outcomes);
  const bool fixed = args.options.max_ks > 0;
  return {{"a", args.file_a},
          {"b", args.file_b},
          {"bins", args.options.bins},
          {"ks_limit", fixed ? "threshold" : "critical_value"},
          {"threshold", fixed ? Json(args.options.max_ks) : Json(nullptr)},
          {"passed", passed},
          {"failed", outcomes.size() - passed},
          {"only_in_a", selection.only_in_a},
          {"only_in_b", selection.only_in_b},
          {"not_arrays", selection.not_arrays},
          {"keys", keys}};
}

Result<std::vector<KeyOutcome>> compare_selection(const Selection& selection, const LoadedFile& a,
                                                  const LoadedFile& b, const align::InitCheckOptions& options) {
  std::vector<KeyOutcome> outcomes;
  for (const KeyPair& pair : selection.pairs) {
    auto outcome = compare_key_pair(pair, a, b, options);
    if (!outcome) return fail(outcome.error());
    outcomes.push_back(std::move(*outcome));
  }
  return outcomes;
}

}  // namespace

int init_check_main(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  auto parsed = parse_init_check_args(args, out, err);
  if (const int* code = std::get_if<int>(&parsed)) return *code;
  const InitCheckArgs& check_args = std::get<InitCheckArgs>(parsed);
  const auto a = load_file(check_args.file_a);
  if (!a) return subcommand_error("init-check", a.error(), err);
  const auto b = load_file(check_args.file_b);
  if (!b) return subcommand_error("init-check", b.error(), err);
  const auto selection = select_keys(*a, *b, check_args.keys);
  if (!selection) return subcommand_error("init-check", selection.error(), err);
  const auto outcomes = compare_selection(*selection, *a, *b, check_args.options);
  if (!outcomes) return subcommand_error("init-check", outcomes.error(), err);
  print_init_check(*outcomes, *selection, check_args, out);
  if (check_args.json_path) {
    if (auto written = write_json_atomically(*check_args.json_path, init_check_json(*outcomes, *selection, check_args));
        !written) {
      return subcommand_error("init-check", written.error(), err);
    }
  }
  return count_passed(*outcomes) == outcomes->size() ? kExitPassed : kExitFailed;
}

int init_check_main(const std::vector<std::string>& args) { return init_check_main(args, std::cout, std::cerr); }

}  // namespace tipc::cli
