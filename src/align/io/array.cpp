#include "align/io/array.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cmath>
#include <cstring>

#include "core/regular_file.h"

namespace tipc::align {
namespace {

// std::byteswap is C++23; GCC 12 lacks it.
template <typename U>
U swap_bytes(U value) {
  if constexpr (sizeof(U) == 1) return value;
  if constexpr (sizeof(U) == 2) return __builtin_bswap16(value);
  if constexpr (sizeof(U) == 4) return __builtin_bswap32(value);
  if constexpr (sizeof(U) == 8) return __builtin_bswap64(value);
}

// Reads `N` bytes at p in the stored byte order and returns them as an unsigned integer
// in host order; memcpy keeps unaligned payloads (pickles) safe.
template <typename U>
U load_bits(const std::byte* p, bool swap) {
  U bits;
  std::memcpy(&bits, p, sizeof(U));
  return swap ? swap_bytes(bits) : bits;
}

double float_bits_to_double(const std::byte* p, std::size_t size, bool swap) {
  switch (size) {
    case 2: return half_to_double(load_bits<std::uint16_t>(p, swap));
    case 4: return std::bit_cast<float>(load_bits<std::uint32_t>(p, swap));
    default: return std::bit_cast<double>(load_bits<std::uint64_t>(p, swap));
  }
}

std::uint64_t unsigned_bits(const std::byte* p, std::size_t size, bool swap) {
  switch (size) {
    case 1: return load_bits<std::uint8_t>(p, false);
    case 2: return load_bits<std::uint16_t>(p, swap);
    case 4: return load_bits<std::uint32_t>(p, swap);
    default: return load_bits<std::uint64_t>(p, swap);
  }
}

std::int64_t signed_bits(const std::byte* p, std::size_t size, bool swap) {
  const std::uint64_t raw = unsigned_bits(p, size, swap);
  switch (size) {
    case 1: return static_cast<std::int8_t>(raw);
    case 2: return static_cast<std::int16_t>(raw);
    case 4: return static_cast<std::int32_t>(raw);
    default: return static_cast<std::int64_t>(raw);
  }
}

bool valid_size(DtypeKind kind, std::size_t size) {
  switch (kind) {
    case DtypeKind::kBool: return size == 1;
    case DtypeKind::kInt:
    case DtypeKind::kUInt: return size == 1 || size == 2 || size == 4 || size == 8;
    case DtypeKind::kFloat: return size == 2 || size == 4 || size == 8;
    case DtypeKind::kComplex: return size == 8 || size == 16;
  }
  return false;
}

std::optional<DtypeKind> kind_from_char(char c) {
  switch (c) {
    case 'b': return DtypeKind::kBool;
    case 'i': return DtypeKind::kInt;
    case 'u': return DtypeKind::kUInt;
    case 'f': return DtypeKind::kFloat;
    case 'c': return DtypeKind::kComplex;
    default: return std::nullopt;
  }
}

char kind_char(DtypeKind kind) {
  switch (kind) {
    case DtypeKind::kBool: return 'b';
    case DtypeKind::kInt: return 'i';
    case DtypeKind::kUInt: return 'u';
    case DtypeKind::kFloat: return 'f';
    case DtypeKind::kComplex: return 'c';
  }
  return '?';
}

ByteOrder host_order() { return std::endian::native == std::endian::little ? ByteOrder::kLittle : ByteOrder::kBig; }

}  // namespace

SharedBytes SharedBytes::own(std::vector<std::byte> bytes) {
  auto owner = std::make_shared<const std::vector<std::byte>>(std::move(bytes));
  SharedBytes out;
  out.data_ = owner->data();
  out.size_ = owner->size();
  out.owner_ = std::move(owner);
  return out;
}

SharedBytes SharedBytes::own(std::string_view bytes) {
  const auto* first = reinterpret_cast<const std::byte*>(bytes.data());
  return own(std::vector<std::byte>(first, first + bytes.size()));
}

Result<SharedBytes> SharedBytes::map_file(const std::string& path) {
  const RegularFile file = TRY(open_regular_file(path, {"the file", "open"}));
  const auto size = static_cast<std::size_t>(file.size);
  if (size == 0) return own(std::vector<std::byte>{});  // mmap refuses length 0
  void* address = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, file.fd.get(), 0);
  if (address == MAP_FAILED) return fail(Error::at(path, 0, "", "cannot map: " + errno_text(errno)));
  SharedBytes out;
  out.owner_ = std::shared_ptr<const void>(address, [size](const void* p) { ::munmap(const_cast<void*>(p), size); });
  out.data_ = static_cast<const std::byte*>(address);
  out.size_ = size;
  out.mapped_ = true;
  return out;
}

SharedBytes SharedBytes::slice(std::size_t offset, std::size_t size) const {
  SharedBytes out = *this;
  out.data_ = data_ + offset;
  out.size_ = size;
  return out;
}

std::string Dtype::descr() const {
  const char order_char = order == ByteOrder::kNotApplicable ? '|' : order == ByteOrder::kLittle ? '<' : '>';
  return std::string(1, order_char) + kind_char(kind) + std::to_string(item_size);
}

std::string Dtype::name() const {
  const std::string bits = std::to_string(item_size * 8);
  switch (kind) {
    case DtypeKind::kBool: return "bool";
    case DtypeKind::kInt: return "int" + bits;
    case DtypeKind::kUInt: return "uint" + bits;
    case DtypeKind::kFloat: return "float" + bits;
    case DtypeKind::kComplex: return "complex" + bits;
  }
  return "?";
}

bool Dtype::needs_swap() const { return item_size > 1 && order != ByteOrder::kNotApplicable && order != host_order(); }

std::optional<ByteOrder> byte_order_from_char(char c) {
  switch (c) {
    case '<': return ByteOrder::kLittle;
    case '>': return ByteOrder::kBig;
    case '|': return ByteOrder::kNotApplicable;
    case '=': return host_order();
    default: return std::nullopt;
  }
}

std::optional<Dtype> dtype_from_code(std::string_view code, ByteOrder order) {
  if (code == "?") code = "b1";  // numpy's one-character bool code
  if (code.size() < 2) return std::nullopt;
  const auto kind = kind_from_char(code[0]);
  if (!kind) return std::nullopt;
  std::size_t size = 0;
  for (const char c : code.substr(1)) {
    if (c < '0' || c > '9' || size > 1000) return std::nullopt;
    size = size * 10 + static_cast<std::size_t>(c - '0');
  }
  if (!valid_size(*kind, size)) return std::nullopt;
  // One-byte items have no byte order, whatever the writer put in front of them.
  return Dtype{*kind, size, size == 1 ? ByteOrder::kNotApplicable : order};
}

std::optional<Dtype> dtype_from_descr(std::string_view descr) {
  if (descr.empty()) return std::nullopt;
  if (const auto order = byte_order_from_char(descr[0])) return dtype_from_code(descr.substr(1), *order);
  return dtype_from_code(descr, host_order());  // numpy reads a bare code in native order
}

std::optional<std::size_t> element_count(std::span<const std::size_t> shape) {
  std::size_t count = 1;
  for (const std::size_t dim : shape) {
    if (__builtin_mul_overflow(count, dim, &count)) return std::nullopt;
  }
  return count;
}

std::optional<std::size_t> byte_count(std::span<const std::size_t> shape, std::size_t item_size) {
  const auto count = element_count(shape);
  std::size_t bytes = 0;
  if (!count || __builtin_mul_overflow(*count, item_size, &bytes)) return std::nullopt;
  return bytes;
}

std::string index_text(std::span<const std::size_t> index) { return fmt::format("[{}]", fmt::join(index, ", ")); }

std::vector<std::size_t> unravel_index(std::size_t flat, std::span<const std::size_t> shape) {
  std::vector<std::size_t> index(shape.size());
  for (std::size_t axis = shape.size(); axis-- > 0;) {
    index[axis] = flat % shape[axis];
    flat /= shape[axis];
  }
  return index;
}

std::string shape_text(std::span<const std::size_t> shape) {
  std::string out = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i > 0) out += ", ";
    out += std::to_string(shape[i]);
  }
  if (shape.size() == 1) out += ',';
  return out + ")";
}

std::size_t Array::size() const { return element_count(shape).value_or(0); }

std::string Array::describe() const {
  return dtype.name() + " array of shape " + shape_text(shape) + (fortran_order ? " (Fortran order)" : "");
}

double Array::value_at(std::size_t i) const {
  const std::byte* p = data.data() + i * dtype.item_size;
  const bool swap = dtype.needs_swap();
  switch (dtype.kind) {
    case DtypeKind::kBool: return *p != std::byte{0} ? 1.0 : 0.0;
    case DtypeKind::kInt: return static_cast<double>(signed_bits(p, dtype.item_size, swap));
    case DtypeKind::kUInt: return static_cast<double>(unsigned_bits(p, dtype.item_size, swap));
    case DtypeKind::kFloat: return float_bits_to_double(p, dtype.item_size, swap);
    case DtypeKind::kComplex: return float_bits_to_double(p, dtype.item_size / 2, swap);
  }
  return 0.0;
}

std::complex<double> Array::complex_at(std::size_t i) const {
  if (dtype.kind != DtypeKind::kComplex) return {value_at(i), 0.0};
  const std::size_t half = dtype.item_size / 2;
  const std::byte* p = data.data() + i * dtype.item_size;
  const bool swap = dtype.needs_swap();
  return {float_bits_to_double(p, half, swap), float_bits_to_double(p + half, half, swap)};
}

std::int64_t Array::int_at(std::size_t i) const {
  const std::byte* p = data.data() + i * dtype.item_size;
  switch (dtype.kind) {
    case DtypeKind::kBool: return *p != std::byte{0} ? 1 : 0;
    case DtypeKind::kInt: return signed_bits(p, dtype.item_size, dtype.needs_swap());
    case DtypeKind::kUInt: return static_cast<std::int64_t>(unsigned_bits(p, dtype.item_size, dtype.needs_swap()));
    default: return static_cast<std::int64_t>(value_at(i));
  }
}

std::uint64_t Array::uint_at(std::size_t i) const {
  if (dtype.kind == DtypeKind::kUInt) {
    return unsigned_bits(data.data() + i * dtype.item_size, dtype.item_size, dtype.needs_swap());
  }
  return static_cast<std::uint64_t>(int_at(i));
}

std::size_t Array::storage_index(std::size_t c_index) const {
  if (!fortran_order || shape.size() < 2) return c_index;
  // Peel C-order coordinates from the last axis and weigh each with its Fortran stride
  // (the product of the axes before it). Only called for valid indices, so no axis is 0.
  std::size_t stride = 1;
  for (std::size_t axis = 0; axis + 1 < shape.size(); ++axis) stride *= shape[axis];
  std::size_t left = c_index;
  std::size_t index = 0;
  for (std::size_t axis = shape.size(); axis-- > 0;) {
    index += (left % shape[axis]) * stride;
    left /= shape[axis];
    if (axis > 0) stride /= shape[axis - 1];
  }
  return index;
}

std::vector<double> Array::to_doubles() const {
  std::vector<double> out(size());
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = value_at(storage_index(i));
  return out;
}

double half_to_double(std::uint16_t bits) {
  const bool negative = (bits & 0x8000u) != 0;
  const int exponent = (bits >> 10) & 0x1f;
  const int mantissa = bits & 0x3ff;
  double magnitude = 0.0;
  if (exponent == 0) {
    magnitude = std::ldexp(static_cast<double>(mantissa), -24);  // zero or subnormal
  } else if (exponent == 31) {
    magnitude = mantissa == 0 ? INFINITY : NAN;
  } else {
    magnitude = std::ldexp(static_cast<double>(mantissa | 0x400), exponent - 25);
  }
  return negative ? -magnitude : magnitude;
}

}  // namespace tipc::align
