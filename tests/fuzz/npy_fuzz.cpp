// libFuzzer target: the .npy reader (align/io/npy.h) and load_npy_value (align/io/load.h), which
// unpickles object payloads. Checks: no crash, leak or undefined behaviour on any bytes; a
// parsed header is self-consistent; an Array points inside the input and holds exactly
// shape x item size bytes; the three entry points agree on what they accept.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "align/io/load.h"
#include "align/io/npy.h"
#include "fuzz_check.h"

using namespace tipc;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  // An exactly-sized heap copy, so ASan sees a read one byte past the end.
  const align::SharedBytes shared = align::SharedBytes::own(bytes);

  const auto header = align::parse_npy_header(bytes, "fuzz.npy");
  if (header) {
    FUZZ_CHECK(header->major_version >= 1 && header->major_version <= 3 && header->minor_version == 0);
    FUZZ_CHECK(header->payload_offset <= size);
    FUZZ_CHECK(header->payload_offset >= (header->major_version == 1 ? 10u : 12u));
    FUZZ_CHECK(!header->structured || header->descr.empty());
  }

  const auto split = align::split_npy(shared, "fuzz.npy");
  FUZZ_CHECK(split.has_value() == header.has_value());
  if (split) {
    FUZZ_CHECK(split->payload.data() == shared.data() + split->header.payload_offset);
    FUZZ_CHECK(split->payload.size() == size - split->header.payload_offset);
  }

  const auto array = align::parse_npy(shared, "fuzz.npy");
  if (array) {
    FUZZ_CHECK(header.has_value() && !header->is_object() && !header->structured);
    FUZZ_CHECK(array->shape == header->shape && array->fortran_order == header->fortran_order);
    // Zero-copy: the array is a slice of the input, right after the header.
    FUZZ_CHECK(array->data.data() == shared.data() + header->payload_offset);
    FUZZ_CHECK(header->payload_offset + array->data.size() <= size);
    fuzz::check_array(*array);
  }
  const auto copied = align::parse_npy(bytes, "fuzz.npy");
  FUZZ_CHECK(copied.has_value() == array.has_value());

  const auto value = align::load_npy_value(shared, "fuzz.npy");
  if (header && !header->is_object()) FUZZ_CHECK(value.has_value() == array.has_value());
  if (value) {
    FUZZ_CHECK(header.has_value());
    fuzz::walk_value(*value);
  }
  return 0;
}
