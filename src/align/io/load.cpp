#include "align/io/load.h"

#include "align/io/npy.h"
#include "align/io/npz.h"

namespace tipc::align {
namespace {

constexpr std::string_view kZipMagic = "PK\x03\x04";
constexpr std::string_view kEmptyZipMagic = "PK\x05\x06";  // an archive without members

bool looks_like_zip(const SharedBytes& bytes) {
  const std::string_view head = bytes.view().substr(0, 4);
  return head == kZipMagic || head == kEmptyZipMagic;
}

// np.save wraps a dict (or any object) in a 0-d object array; the object is what counts.
Value unwrap_zero_dim(Value value) {
  if (const auto* objects = value.get<Value::ObjectArray>(); objects != nullptr && objects->shape.empty()) {
    return *objects->elements.front();
  }
  return value;
}

}  // namespace

Result<Value> load_npy_value(const SharedBytes& bytes, const std::string& name) {
  auto file = TRY(split_npy(bytes, name));
  return load_npy_value(file, name);
}

Result<Value> load_npy_value(const NpyFile& file, const std::string& name) {
  if (!file.header.is_object()) {
    auto array = TRY(array_from_npy(file, name));
    return Value{std::move(array)};
  }
  auto value = TRY(unpickle(file.payload, name, {}, PickleRoot::kResult));
  return unwrap_zero_dim(std::move(value));
}

Result<Value> load_values(const std::string& path) {
  auto bytes = TRY(SharedBytes::map_file(path));
  if (looks_like_zip(bytes)) {
    auto members = TRY(read_npz(bytes, path));
    return Value{std::move(members)};
  }
  return load_npy_value(bytes, path);
}

}  // namespace tipc::align
