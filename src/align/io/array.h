#pragma once
// The in-memory model of one numpy array, as read from a .npy, an .npz member or a pickle.
//
// Large arrays are not copied: the bytes either point into a memory-mapped file (kept
// alive by a shared handle) or are owned (decoded or decompressed data). The element
// helpers widen any numeric dtype to double / complex for the diff engine; they read
// unaligned memory safely, because pickled payloads are not aligned.
#include <complex>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"

namespace tipc::align {

// Bytes that stay valid as long as any copy of the handle lives. Slices share the owner.
class SharedBytes {
 public:
  SharedBytes() = default;
  static SharedBytes own(std::vector<std::byte> bytes);
  static SharedBytes own(std::string_view bytes);
  // Maps the whole file read-only; an empty file gives an empty (owned) buffer.
  static Result<SharedBytes> map_file(const std::string& path);

  // Caller guarantees offset + size <= this->size().
  SharedBytes slice(std::size_t offset, std::size_t size) const;

  const std::byte* data() const { return data_; }
  std::size_t size() const { return size_; }
  std::span<const std::byte> span() const { return {data_, size_}; }
  std::string_view view() const { return {reinterpret_cast<const char*>(data_), size_}; }
  bool is_mapped() const { return mapped_; }

 private:
  std::shared_ptr<const void> owner_;
  const std::byte* data_ = nullptr;
  std::size_t size_ = 0;
  bool mapped_ = false;
};

enum class DtypeKind { kBool, kInt, kUInt, kFloat, kComplex };
enum class ByteOrder { kLittle, kBig, kNotApplicable };

// A numeric dtype: what the diff engine can compare. Object, string and structured dtypes
// never become a Dtype; the readers reject them or unpickle them into values.
struct Dtype {
  DtypeKind kind = DtypeKind::kFloat;
  std::size_t item_size = 4;
  ByteOrder order = ByteOrder::kLittle;

  // numpy's descr, e.g. "<f4", "|u1", ">c16".
  std::string descr() const;
  // numpy's name, e.g. "float32", "bool", "complex64".
  std::string name() const;
  bool needs_swap() const;
  bool operator==(const Dtype&) const = default;
};

// Parses a kind+size code such as "f4", "b1", "?" or "c16" (no byte-order prefix).
// Returns nothing for kinds the diff cannot compare (object, strings, datetimes, ...).
std::optional<Dtype> dtype_from_code(std::string_view code, ByteOrder order);
// Parses a full descr such as "<f4" or "|b1"; "=" means this machine's order.
std::optional<Dtype> dtype_from_descr(std::string_view descr);
// The order a byte-order character stands for ('<', '>', '|', '=').
std::optional<ByteOrder> byte_order_from_char(char c);

// prod(shape), or nothing on overflow. An empty shape (0-d) has one element.
std::optional<std::size_t> element_count(std::span<const std::size_t> shape);
// prod(shape) * item_size, or nothing on overflow.
std::optional<std::size_t> byte_count(std::span<const std::size_t> shape, std::size_t item_size);
// "(2, 3)", "(5,)", "()" — Python's spelling, for messages.
std::string shape_text(std::span<const std::size_t> shape);
// "[1, 0, 2]": an element's index, for messages.
std::string index_text(std::span<const std::size_t> index);
// The index of the `flat`-th element of a C-order array of `shape` (numpy's unravel_index).
std::vector<std::size_t> unravel_index(std::size_t flat, std::span<const std::size_t> shape);

struct Array {
  Dtype dtype;
  std::vector<std::size_t> shape;
  bool fortran_order = false;  // the bytes are column-major
  SharedBytes data;            // exactly size() * dtype.item_size bytes

  std::size_t size() const;  // number of elements
  std::size_t ndim() const { return shape.size(); }
  bool is_mapped() const { return data.is_mapped(); }
  // "float32 array of shape (2, 3)", for messages.
  std::string describe() const;

  // Element `i` in memory (storage) order, widened. Complex gives its real part in value_at.
  double value_at(std::size_t i) const;
  std::complex<double> complex_at(std::size_t i) const;
  // Exact integer value of element i (bool, signed and unsigned kinds; unsigned above
  // INT64_MAX wraps, use uint_at for those). Float and complex kinds truncate.
  std::int64_t int_at(std::size_t i) const;
  std::uint64_t uint_at(std::size_t i) const;
  // Storage index of the element at a C-order (row-major) flat index: the identity for
  // C-ordered arrays, a transposition for Fortran-ordered ones.
  std::size_t storage_index(std::size_t c_index) const;
  // All elements in C order, widened to double (a copy: use for small arrays and tests).
  std::vector<double> to_doubles() const;
};

// IEEE half precision to double, exact (subnormals, infinities and NaN included).
double half_to_double(std::uint16_t bits);

}  // namespace tipc::align
