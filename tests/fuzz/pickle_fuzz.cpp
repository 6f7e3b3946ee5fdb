// libFuzzer target: the restricted unpickler (align/io/pickle.h). Checks: no crash, leak,
// undefined behaviour or runaway recursion on any bytes; the result is a well-formed
// Value tree (fuzz_check.h); and the limits are monotone: a pickle accepted under tight
// limits is accepted under the default ones, with the same kind of result.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "align/io/pickle.h"
#include "fuzz_check.h"

using namespace tipc;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // An exactly-sized heap copy, so ASan sees a read one byte past the end.
  const align::SharedBytes bytes = align::SharedBytes::own(std::string_view(reinterpret_cast<const char*>(data), size));
  const auto value = align::unpickle(bytes, "fuzz.pkl");
  if (value) {
    fuzz::walk_value(*value);
  } else {
    FUZZ_CHECK(!value.error().diagnostics.empty());
  }
  const align::UnpickleLimits tight{.max_stack = 16, .max_memo = 8, .max_depth = 4, .max_decoded_bytes = 64};
  const auto small = align::unpickle(bytes, "fuzz.pkl", tight);
  if (small) {
    FUZZ_CHECK(value.has_value());
    FUZZ_CHECK(small->describe() == value->describe());
    fuzz::walk_value(*small);
  }
  return 0;
}
