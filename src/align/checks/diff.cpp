#include "align/checks/diff.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <set>

#include "align/io/array.h"
#include "align/io/load.h"
#include "align/io/py_repr.h"
#include "core/text.h"

namespace tipc::align {
namespace {

// A structural mismatch: the check fails (exit 1), it is not unreadable input.
Error mismatch(const std::string& path, std::string message) {
  Error error = Error::at("", 0, path, std::move(message));
  error.exit_code = kExitFailed;
  return error;
}

std::string shape_of(const LeafDiff& diff) { return shape_text(diff.shape); }

class Comparer {
 public:
  Comparer(const DiffOptions& options, std::vector<Statistic> methods, const std::string& name1,
           const std::string& name2)
      : options_(options), methods_(std::move(methods)), name1_(name1), name2_(name2) {}

  Result<DiffResult> run(const Value::Dict& info1, const Value::Dict& info2) {
    // reprod_log checks the top-level keys both ways before computing any diff.
    if (auto missing = first_missing_key(info1, info2, name1_, name2_, "")) return fail(*missing);
    if (auto missing = first_missing_key(info2, info1, name2_, name1_, "")) return fail(*missing);
    TRY(walk(info1, info2, 0, ""));
    if (options_.rules.nothing_compared_fails && leaf_count_ == 0) {
      return fail(mismatch("", fmt::format("nothing to compare: {} and {} hold no arrays", name1_, name2_)));
    }
    warn_about_unused_layout_rules();
    return std::move(result_);
  }

 private:
  std::optional<Error> first_missing_key(const Value::Dict& from, const Value::Dict& in, const std::string& from_name,
                                         const std::string& in_name, const std::string& prefix) const {
    for (const auto& [key, value] : from.items) {
      if (in.find(key) == nullptr) {
        const std::string path = join(prefix, key.text);
        return mismatch(path, fmt::format("key '{}' of {} is missing in {}", path, from_name, in_name));
      }
    }
    return std::nullopt;
  }

  static std::string join(const std::string& prefix, const std::string& key) {
    return prefix.empty() ? key : prefix + "." + key;
  }

  // Recursion follows info1; keys only in info2 below the top level are reported where the
  // rules say so (reprod_log ignores them silently).
  Result<void> walk(const Value::Dict& d1, const Value::Dict& d2, int depth, const std::string& prefix) {
    if (depth > 0 && options_.rules.extra_nested_key_fails) {
      if (auto extra = first_missing_key(d2, d1, name2_, name1_, prefix)) return fail(*extra);
    }
    for (const auto& [key, value1] : d1.items) {
      const std::string path = join(prefix, key.text);
      const Value* value2 = d2.find(key);
      if (value2 == nullptr) {
        return fail(mismatch(path, fmt::format("key '{}' of {} is missing in {}", path, name1_, name2_)));
      }
      if (auto compared = compare_node(key.text, path, depth, *value1, *value2); !compared) return compared;
    }
    return {};
  }

  Result<void> compare_node(const std::string& key, const std::string& path, int depth, const Value& v1,
                            const Value& v2) {
    if (v1.data.index() != v2.data.index()) {
      return fail(mismatch(path, fmt::format("key '{}' has different types: {} in {}, {} in {}", path, v1.describe(),
                                             name1_, v2.describe(), name2_)));
    }
    if (const auto* dict1 = v1.get<Value::Dict>()) {
      // Kept explicit: a nested dict with keys mean/min/max is still a dict, not a leaf
      // (reprod_log crashes on it, report_leaflike.txt).
      result_.entries.push_back(DiffEntry{key, path, depth, true, {}, true, "", {}});
      return walk(*dict1, *v2.get<Value::Dict>(), depth + 1, path);
    }
    if (const auto* array1 = v1.get<Array>()) return compare_leaf(key, path, depth, *array1, *v2.get<Array>());
    return fail(mismatch(path, fmt::format("key '{}': only arrays and dicts can be compared, got {} in {} and {} in {}",
                                           path, v1.describe(), name1_, v2.describe(), name2_)));
  }

  Result<void> compare_leaf(const std::string& key, const std::string& path, int depth, const Array& a,
                            const Array& b) {
    LeafDiffOptions leaf_options{options_.rules.exact_integers, {}, options_.rules.numpy_memory_order};
    if (const LayoutRule* rule = find_layout_rule(options_.layout, path)) {
      auto axes = layout_axes(*rule, b.ndim());
      if (!axes) {
        return fail(
            mismatch(path, fmt::format("key '{}' of {} ({}): {}", path, name2_, b.describe(), axes.error().str())));
      }
      leaf_options.second_axes = std::move(*axes);
      used_layout_rules_.insert(rule);
    }
    auto diff = diff_arrays(a, b, leaf_options);
    if (!diff) {
      return fail(mismatch(path, fmt::format("key '{}': cannot compare {} ({}) with {} ({}): {}", path, a.describe(),
                                             name1_, b.describe(), name2_, diff.error())));
    }
    ++leaf_count_;
    if (diff->transposed_first) result_.compare_lines.push_back("transpose sub_data1");
    note_shape_and_overflow(path, a, b, *diff);
    DiffEntry entry{key, path, depth, false, {}, true, "", std::move(*diff)};
    check_methods(entry);
    result_.passed = result_.passed && entry.passed;
    result_.entries.push_back(std::move(entry));
    return {};
  }

  // The pass flag is per key but sticky across that key's methods (reprod_log quirk kept:
  // the printed flags are what scripts scrape).
  void check_methods(DiffEntry& entry) const {
    for (const Statistic statistic : methods_) {
      const StatValue value = pick(entry.diff.stats, statistic);
      const bool nan_fails = options_.rules.nan_fails && value.is_nan();
      if (value.as_double() > options_.threshold || nan_fails) {
        if (entry.passed) {
          entry.reason = fmt::format("{} diff {} {} threshold {}", to_string(statistic), value.text(),
                                     nan_fails ? "is NaN, fails at" : ">", python_float_repr(options_.threshold));
        }
        entry.passed = false;
      }
      entry.checks.push_back(MethodCheck{statistic, value, entry.passed});
    }
  }

  static StatValue pick(const LeafStats& stats, Statistic statistic) {
    switch (statistic) {
      case Statistic::kMin: return stats.min;
      case Statistic::kMax: return stats.max;
      case Statistic::kMean: return stats.mean;
    }
    return stats.mean;
  }

  // Says what reprod_log does silently.
  void note_shape_and_overflow(const std::string& path, const Array& a, const Array& b, const LeafDiff& diff) {
    if (!options_.rules.explains) return;
    if (diff.transposed_first) {
      result_.warnings.push_back(
          fmt::format("key '{}': {} value {} transposed to {} to match {} (reprod_log auto-transpose)", path, name1_,
                      shape_text(a.shape), shape_of(diff), name2_));
    }
    const bool scalar_vs_one = a.size() == 1 && b.size() == 1 && a.ndim() <= 1 && b.ndim() <= 1;
    if (diff.broadcast && !diff.transposed_first && !scalar_vs_one) {
      result_.warnings.push_back(fmt::format("key '{}': shapes {} and {} were broadcast to {}", path,
                                             shape_text(a.shape), shape_text(b.shape), shape_of(diff)));
    }
    if (diff.wrapped) {
      result_.warnings.push_back(
          fmt::format("key '{}': integer diff computed exactly; numpy ({} arithmetic) would wrap around", path,
                      diff.diff_dtype.name()));
    }
  }

  void warn_about_unused_layout_rules() {
    if (!options_.rules.explains) return;
    for (const LayoutRule& rule : options_.layout) {
      if (!used_layout_rules_.contains(&rule)) {
        result_.warnings.push_back(
            fmt::format("layout rule '{}: {}' ({}) matched no key", rule.pattern, rule.transform, rule.source));
      }
    }
  }

  const DiffOptions& options_;
  std::vector<Statistic> methods_;
  const std::string& name1_;
  const std::string& name2_;
  DiffResult result_;
  std::size_t leaf_count_ = 0;
  std::set<const LayoutRule*> used_layout_rules_;
};

Result<const Value::Dict*> as_result_dict(const Value& value, const std::string& name) {
  if (const auto* dict = value.get<Value::Dict>()) return dict;
  return fail(
      Error::at(name, 0, "",
                "not a reprod_log result: " + value.describe() + " (expected a dict of arrays, or two plain arrays)"));
}

// Two dumped tensors compare as one entry, named after the files: "out" when both are
// out.npy, "a vs b" for a.npy and b.npy.
std::string plain_entry_name(const std::string& path1, const std::string& path2) {
  const std::string stem1 = std::filesystem::path(path1).stem().string();
  const std::string stem2 = std::filesystem::path(path2).stem().string();
  return stem1 == stem2 ? stem1 : stem1 + " vs " + stem2;
}

Value single_entry(const std::string& name, Value array) {
  Value::Dict dict;
  dict.items.emplace_back(name, std::make_shared<const Value>(std::move(array)));
  return Value{std::move(dict)};
}

}  // namespace

std::string_view to_string(Statistic statistic) {
  switch (statistic) {
    case Statistic::kMin: return "min";
    case Statistic::kMax: return "max";
    case Statistic::kMean: return "mean";
  }
  return "mean";
}

Result<std::vector<Statistic>> parse_methods(std::string_view method) {
  std::vector<Statistic> out;
  for (const std::string& name : split(method, ',')) {
    if (name == "all") {
      out.insert(out.end(), {Statistic::kMin, Statistic::kMax, Statistic::kMean});
    } else if (name == "min" || name == "max" || name == "mean") {
      out.push_back(name == "min" ? Statistic::kMin : name == "max" ? Statistic::kMax : Statistic::kMean);
    } else {
      return fail(
          Error::plain(fmt::format("unknown diff method '{}' (expected mean, min, max, all or a "
                                   "comma-separated list of them)",
                                   name)));
    }
  }
  return out;
}

Result<DiffResult> compare_values(const Value& info1, const Value& info2, const DiffOptions& options,
                                  const std::string& name1, const std::string& name2) {
  auto methods = TRY(parse_methods(options.method));
  auto dict1 = TRY(as_result_dict(info1, name1));
  auto dict2 = TRY(as_result_dict(info2, name2));
  return Comparer(options, std::move(methods), name1, name2).run(*dict1, *dict2);
}

Result<DiffResult> compare_files(const std::string& path1, const std::string& path2, const DiffOptions& options) {
  auto info1 = TRY(load_values(path1));
  auto info2 = TRY(load_values(path2));
  if (info1.is<Array>() && info2.is<Array>()) {
    const std::string name = plain_entry_name(path1, path2);
    return compare_values(single_entry(name, std::move(info1)), single_entry(name, std::move(info2)), options, path1,
                          path2);
  }
  return compare_values(info1, info2, options, path1, path2);
}

}  // namespace tipc::align
