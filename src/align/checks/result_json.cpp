#include "align/checks/result_json.h"

#include <cstdint>
#include <limits>

#include <fmt/format.h>

namespace tipc::align {
namespace {

// nlohmann keeps a non-negative int it was given as a signed number.
bool is_count(const nlohmann::ordered_json& value) {
  return value.is_number_unsigned() || (value.is_number_integer() && value.get<std::int64_t>() >= 0);
}

}  // namespace

JsonFields::JsonFields(const Json& object, std::string file, std::string path)
    : json_(&object), file_(std::move(file)), path_(std::move(path)) {}

std::string JsonFields::path_of(std::string_view key) const {
  return path_.empty() ? std::string(key) : fmt::format("{}.{}", path_, key);
}

Error JsonFields::error(std::string_view key, std::string_view message) const {
  const std::string path = path_of(key);
  return Error::at(file_, 0, path, fmt::format("field '{}': {}", path, message));
}

Result<const JsonFields::Json*> JsonFields::field(std::string_view key) const {
  if (!json_->is_object()) {
    const std::string where = path_.empty() ? "the file" : "'" + path_ + "'";
    return fail(Error::at(file_, 0, path_, fmt::format("{} is not a JSON object", where)));
  }
  const auto it = json_->find(key);
  if (it == json_->end()) return fail(wrong(key, "a field of that name (it is missing)"));
  return &*it;
}

Result<std::string> JsonFields::text(std::string_view key) const {
  const Json* value = TRY(field(key));
  if (!value->is_string()) return fail(wrong(key, "a string"));
  return value->get<std::string>();
}

Result<std::optional<std::string>> JsonFields::optional_text(std::string_view key) const {
  const Json* value = TRY(field(key));
  if (value->is_null()) return std::optional<std::string>();
  if (!value->is_string()) return fail(wrong(key, "a string or null"));
  return std::optional<std::string>(value->get<std::string>());
}

Result<double> JsonFields::number(std::string_view key) const {
  const Json* value = TRY(field(key));
  if (value->is_null()) return std::numeric_limits<double>::quiet_NaN();
  if (!value->is_number()) return fail(wrong(key, "a number or null"));
  return value->get<double>();
}

Result<std::size_t> JsonFields::count(std::string_view key) const {
  const Json* value = TRY(field(key));
  if (!is_count(*value)) return fail(wrong(key, "a count (an integer >= 0)"));
  return value->get<std::size_t>();
}

Result<bool> JsonFields::boolean(std::string_view key) const {
  const Json* value = TRY(field(key));
  if (!value->is_boolean()) return fail(wrong(key, "true or false"));
  return value->get<bool>();
}

Result<Verdict> JsonFields::verdict(std::string_view key) const {
  const std::string word = TRY(text(key));
  const auto verdict = verdict_from_string(word);
  if (!verdict) return fail(wrong(key, fmt::format("PASS, FAIL, MISSING, SKIPPED or ERROR, not '{}'", word)));
  return *verdict;
}

template <typename T, typename Check>
Result<std::vector<T>> JsonFields::array_of(std::string_view key, Check check, std::string_view expected) const {
  const Json* value = TRY(field(key));
  if (!value->is_array()) return fail(wrong(key, fmt::format("a list of {}", expected)));
  std::vector<T> items;
  for (std::size_t i = 0; i < value->size(); ++i) {
    const Json& item = (*value)[i];
    if (!check(item)) return fail(wrong(fmt::format("{}[{}]", key, i), expected));
    if constexpr (std::is_same_v<T, double>) {
      items.push_back(item.is_null() ? std::numeric_limits<double>::quiet_NaN() : item.get<double>());
    } else {
      items.push_back(item.get<T>());
    }
  }
  return items;
}

Result<std::vector<std::string>> JsonFields::texts(std::string_view key) const {
  return array_of<std::string>(
      key, [](const Json& item) { return item.is_string(); }, "strings");
}

Result<std::vector<double>> JsonFields::numbers(std::string_view key) const {
  return array_of<double>(
      key, [](const Json& item) { return item.is_number() || item.is_null(); }, "numbers");
}

Result<std::vector<std::size_t>> JsonFields::counts(std::string_view key) const {
  return array_of<std::size_t>(key, is_count, "counts");
}

Result<JsonFields> JsonFields::object(std::string_view key) const {
  const Json* value = TRY(field(key));
  if (!value->is_object()) return fail(wrong(key, "an object"));
  return JsonFields(*value, file_, path_of(key));
}

Result<std::optional<JsonFields>> JsonFields::optional_object(std::string_view key) const {
  const Json* value = TRY(field(key));
  if (value->is_null()) return std::optional<JsonFields>();
  if (!value->is_object()) return fail(wrong(key, "an object or null"));
  return std::optional<JsonFields>(JsonFields(*value, file_, path_of(key)));
}

Result<std::vector<JsonFields>> JsonFields::objects(std::string_view key) const {
  const Json* value = TRY(field(key));
  if (!value->is_array()) return fail(wrong(key, "a list of objects"));
  std::vector<JsonFields> items;
  for (std::size_t i = 0; i < value->size(); ++i) {
    const std::string item_path = fmt::format("{}[{}]", path_of(key), i);
    if (!(*value)[i].is_object())
      return fail(Error::at(file_, 0, item_path, fmt::format("field '{}': expected an object", item_path)));
    items.emplace_back((*value)[i], file_, item_path);
  }
  return items;
}

}  // namespace tipc::align
