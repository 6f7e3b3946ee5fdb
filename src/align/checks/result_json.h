#pragma once
// Reading a check's result file (what its --json option writes) back. Every accessor names
// the file and the field's path ("keys[2].ks_limit") when the field is missing or of
// another type, so a renamed field is a clear error, never a silent gap in a report.
// Non-finite numbers have no JSON spelling: the writers write them as null, and number()
// reads null back as NaN.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "align/checks/verdict.h"
#include "core/error.h"

namespace tipc::align {

class JsonFields {
 public:
  using Json = nlohmann::ordered_json;

  // `object` must outlive this; a non-object is reported by the first accessor.
  JsonFields(const Json& object, std::string file, std::string path = "");

  Result<std::string> text(std::string_view key) const;
  Result<std::optional<std::string>> optional_text(std::string_view key) const;  // null: nullopt
  Result<double> number(std::string_view key) const;                             // null: NaN
  Result<std::size_t> count(std::string_view key) const;
  Result<bool> boolean(std::string_view key) const;
  Result<Verdict> verdict(std::string_view key) const;
  Result<std::vector<std::string>> texts(std::string_view key) const;
  Result<std::vector<double>> numbers(std::string_view key) const;  // null elements: NaN
  Result<std::vector<std::size_t>> counts(std::string_view key) const;
  Result<JsonFields> object(std::string_view key) const;
  // nullopt when the field is null.
  Result<std::optional<JsonFields>> optional_object(std::string_view key) const;
  // An array of objects, each with its index in its path.
  Result<std::vector<JsonFields>> objects(std::string_view key) const;
  // The field itself (an object of numbers, say), for a caller that walks it.
  Result<const Json*> field(std::string_view key) const;
  // An error about field `key` of this object: "field 'keys[0].values': <message>".
  Error error(std::string_view key, std::string_view message) const;
  const Json& json() const { return *json_; }

 private:
  std::string path_of(std::string_view key) const;
  Error wrong(std::string_view key, std::string_view expected) const {
    return error(key, "expected " + std::string(expected));
  }
  template <typename T, typename Check>
  Result<std::vector<T>> array_of(std::string_view key, Check check, std::string_view expected) const;

  const Json* json_;
  std::string file_, path_;
};

}  // namespace tipc::align
