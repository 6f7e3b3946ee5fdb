#include "align/checks/init_check_files.h"

#include <algorithm>
#include <memory>
#include <utility>

#include <fmt/format.h>

#include "align/io/load.h"

namespace tipc::align {
namespace {

// A loaded file's leaves by dotted key, in file order; one leaf with key "" for a plain array.
struct LoadedFile {
  std::string file;
  std::shared_ptr<const Value> root;  // owns what the leaves point into
  std::vector<std::pair<std::string, const Value*>> leaves;

  bool is_dict() const { return root->is<Value::Dict>(); }
  const Value* find(const std::string& key) const {
    const auto it = std::find_if(leaves.begin(), leaves.end(), [&](const auto& leaf) { return leaf.first == key; });
    return it == leaves.end() ? nullptr : it->second;
  }
};

void flatten(const Value& value, const std::string& prefix, LoadedFile& loaded) {
  if (const auto* dict = value.get<Value::Dict>()) {
    for (const auto& [key, child] : dict->items)
      flatten(*child, prefix.empty() ? key.text : prefix + "." + key.text, loaded);
    return;
  }
  loaded.leaves.emplace_back(prefix, &value);
}

Result<LoadedFile> load_flattened(const std::string& file) {
  Value value = TRY(load_values(file));
  LoadedFile loaded{file, std::make_shared<const Value>(std::move(value)), {}};
  flatten(*loaded.root, "", loaded);
  return loaded;
}

// A key compared in both files, with the arrays it names.
struct KeyPair {
  std::string key;  // "" for two plain arrays
  const Array* a = nullptr;
  const Array* b = nullptr;
};

struct Selection {
  std::vector<KeyPair> pairs;
  std::vector<std::string> only_in_a, only_in_b, not_arrays;
};

// The array a leaf holds (a numpy scalar is a 0-d array), or nullptr for other objects.
const Array* as_array(const Value& value) {
  if (const auto* array = value.get<Array>()) return array;
  if (const auto* scalar = value.get<Value::Scalar>()) return &scalar->value;
  return nullptr;
}

std::vector<std::string> keys_missing_from(const LoadedFile& from, const LoadedFile& other) {
  std::vector<std::string> missing;
  for (const auto& [key, value] : from.leaves) {
    if (!other.find(key)) missing.push_back(key);
  }
  return missing;
}

Result<const Array*> named_array(const LoadedFile& file, const std::string& key) {
  const Value* value = file.find(key);
  if (!value) return fail(Error::at(file.file, 0, key, fmt::format("key '{}' is not in the file", key)));
  if (const Array* array = as_array(*value)) return array;
  return fail(Error::at(file.file, 0, key, fmt::format("key '{}' is not an array ({})", key, value->describe())));
}

Result<Selection> select_plain(const LoadedFile& a, const LoadedFile& b, const std::vector<std::string>& wanted) {
  if (!wanted.empty()) return fail(Error::plain(fmt::format("--key needs dict files; {} is a plain array", a.file)));
  for (const LoadedFile* file : {&a, &b}) {
    if (!as_array(*file->root)) {
      return fail(Error::at(file->file, 0, "",
                            fmt::format("holds a {}, not an array or a dict of arrays", file->root->describe())));
    }
  }
  return Selection{{{"", as_array(*a.root), as_array(*b.root)}}, {}, {}, {}};
}

void select_common_arrays(const LoadedFile& a, const LoadedFile& b, Selection& selection) {
  for (const auto& [key, value] : a.leaves) {
    const Value* other = b.find(key);
    if (!other) continue;
    if (as_array(*value) && as_array(*other))
      selection.pairs.push_back({key, as_array(*value), as_array(*other)});
    else
      selection.not_arrays.push_back(key);
  }
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
    const Array* first = TRY(named_array(a, key));
    const Array* second = TRY(named_array(b, key));
    selection.pairs.push_back({key, first, second});
  }
  if (wanted.empty()) select_common_arrays(a, b, selection);
  if (selection.pairs.empty()) return fail(Error::plain(fmt::format("no array is in both {} and {}", a.file, b.file)));
  return selection;
}

Result<InitCheckKey> compare_pair(const KeyPair& pair, const LoadedFile& a, const LoadedFile& b,
                                  const InitCheckOptions& options) {
  auto comparison = compare_initialisation(*pair.a, *pair.b, options);
  if (!comparison) {
    const std::string what = pair.key.empty() ? "" : fmt::format("key '{}' of ", pair.key);
    return fail(Error::plain(fmt::format("{}{} vs {}: {}", what, a.file, b.file, comparison.error().str())));
  }
  return InitCheckKey{pair.key, std::move(*comparison)};
}

}  // namespace

std::size_t InitCheckReport::passed() const {
  return static_cast<std::size_t>(
      std::count_if(keys.begin(), keys.end(), [](const InitCheckKey& key) { return key.comparison.passed; }));
}

Result<InitCheckReport> check_initialisation_files(const std::string& file_a, const std::string& file_b,
                                                   const std::vector<std::string>& wanted_keys,
                                                   const InitCheckOptions& options) {
  const LoadedFile a = TRY(load_flattened(file_a));
  const LoadedFile b = TRY(load_flattened(file_b));
  Selection selection = TRY(select_keys(a, b, wanted_keys));
  InitCheckReport report{file_a,
                         file_b,
                         options,
                         {},
                         std::move(selection.only_in_a),
                         std::move(selection.only_in_b),
                         std::move(selection.not_arrays)};
  for (const KeyPair& pair : selection.pairs) report.keys.push_back(TRY(compare_pair(pair, a, b, options)));
  return report;
}

}  // namespace tipc::align
