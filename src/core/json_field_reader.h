#pragma once
// The fields of one object of a JSON file tipc-run reads back (a plan file, report.json),
// each checked for its type, with errors that name the file and the field:
// "FILE: CONTEXTfield 'WHERE.KEY': WHAT" ("stage train: field 'needs.gpus': not a number").
// JSON type errors are caught here: no exception leaves a reader. Fields may be optional,
// with a default: a file of an older tipc-run lacks the fields added since. (A check's
// result file, whose every field is required, has its own reader: align/checks/result_json.h.)
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/error.h"

namespace tipc {

template <class T>
inline constexpr bool is_optional_json_field = false;
template <class T>
inline constexpr bool is_optional_json_field<std::optional<T>> = true;

class JsonFieldReader {
 public:
  // `context` begins every message ("stage train: "); `where` is the object's place, put
  // before its keys ("needs.", "plans[0].stages[2].").
  JsonFieldReader(const nlohmann::json& object, const std::string& file, std::string context = "",
                  std::string where = "")
      : object_(object), file_(file), context_(std::move(context)), where_(std::move(where)) {}

  // A field that must be there (not absent, not null).
  template <class T>
  Result<T> required(const char* key) const {
    const auto it = object_.find(key);
    if (it == object_.end() || it->is_null()) return fail(error(key, "missing"));
    return convert<T>(*it, key);
  }
  // A field that may be absent or null: `fallback` then.
  template <class T>
  Result<T> optional(const char* key, T fallback = {}) const {
    const auto it = object_.find(key);
    if (it == object_.end() || it->is_null()) return fallback;
    return convert<T>(*it, key);
  }
  // An object field; nullopt when absent or null.
  Result<std::optional<JsonFieldReader>> object(const std::string& key) const {
    const auto it = object_.find(key);
    if (it == object_.end() || it->is_null()) return std::nullopt;
    if (!it->is_object()) return fail(error(key, "not an object"));
    return JsonFieldReader(*it, file_, context_, where_ + key + ".");
  }
  // An array of objects; empty when absent or null.
  Result<std::vector<JsonFieldReader>> objects(const std::string& key) const {
    std::vector<JsonFieldReader> out;
    const auto it = object_.find(key);
    if (it == object_.end() || it->is_null()) return out;
    if (!it->is_array()) return fail(error(key, "not a list"));
    for (std::size_t i = 0; i < it->size(); ++i) {
      const std::string item = fmt::format("{}[{}]", key, i);
      if (!(*it)[i].is_object()) return fail(error(item, "not an object"));
      out.emplace_back((*it)[i], file_, context_, where_ + item + ".");
    }
    return out;
  }
  const nlohmann::json& json() const { return object_; }
  Error error(const std::string& key, const std::string& what) const {
    return Error::at(file_, 0, where_ + key, fmt::format("{}field '{}{}': {}", context_, where_, key, what));
  }

 private:
  template <class T>
  Result<T> convert(const nlohmann::json& value, const char* key) const {
    try {
      if constexpr (is_optional_json_field<T>) {
        return T(value.get<typename T::value_type>());
      } else {
        return value.get<T>();
      }
    } catch (const nlohmann::json::exception&) {
      return fail(error(key, fmt::format("not {}", expected<T>())));
    }
  }
  template <class T>
  static const char* expected() {
    if constexpr (is_optional_json_field<T>) {
      return expected<typename T::value_type>();
    } else if constexpr (std::is_same_v<T, std::string>) {
      return "a string";
    } else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
      return "a list of strings";
    } else if constexpr (std::is_same_v<T, bool>) {
      return "true or false";
    } else if constexpr (std::is_arithmetic_v<T>) {
      return "a number";
    } else {
      return "of the expected type";
    }
  }

  const nlohmann::json& object_;
  const std::string& file_;
  std::string context_;
  std::string where_;
};

}  // namespace tipc
