#pragma once
// The storage of floating values as float16, float32 or float64, for arrays built in tests.
#include <cstddef>
#include <cstring>
#include <vector>

namespace tipc::test {

// `values` rounded to the float type of `item_size` bytes (2, 4 or 8), native byte order.
inline std::vector<std::byte> float_bytes(std::size_t item_size, const std::vector<double>& values) {
  std::vector<std::byte> bytes(values.size() * item_size);
  for (std::size_t i = 0; i < values.size(); ++i) {
    const auto half = static_cast<_Float16>(values[i]);
    const auto single = static_cast<float>(values[i]);
    const void* source = item_size == 2   ? static_cast<const void*>(&half)
                         : item_size == 4 ? static_cast<const void*>(&single)
                                          : static_cast<const void*>(&values[i]);
    std::memcpy(bytes.data() + i * item_size, source, item_size);
  }
  return bytes;
}

}  // namespace tipc::test
