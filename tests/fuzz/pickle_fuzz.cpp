// libFuzzer target: the restricted unpickler (align/io/pickle.h). Checks: no crash, leak,
// undefined behaviour or runaway recursion on any bytes; the result is a well-formed
// Value tree (fuzz_check.h); and the limits are monotone: a pickle accepted under tight
// limits is accepted under the default ones, with the same kind of result; and
// PickleEndFinder (how far the .npz reader inflates an object member) agrees with the
// unpickler: it finds the STOP the unpickler stops at, and the bytes up to it unpickle
// exactly as the whole input does.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "align/io/pickle.h"
#include "fuzz_check.h"

using namespace tipc;

namespace {

void check_end_finder(const align::SharedBytes& bytes, const Result<align::Value>& whole) {
  align::PickleEndFinder finder;
  const auto state = finder.scan(bytes.view());
  if (state != align::PickleEndFinder::State::kEnd) {
    FUZZ_CHECK(!whole.has_value());  // a pickle the unpickler takes has a STOP the finder finds
    return;
  }
  FUZZ_CHECK(finder.length() <= bytes.size());
  // The whole input's budget: a shorter pickle gets a smaller one above the floor.
  const align::UnpickleLimits same_budget{.budget_floor = align::UnpickleLimits{}.budget_for(bytes.size())};
  const auto prefix = align::unpickle(bytes.slice(0, finder.length()), "fuzz.pkl", same_budget);
  FUZZ_CHECK(prefix.has_value() == whole.has_value());
  if (prefix) FUZZ_CHECK(prefix->describe() == whole->describe());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // An exactly-sized heap copy, so ASan sees a read one byte past the end.
  const align::SharedBytes bytes = align::SharedBytes::own(std::string_view(reinterpret_cast<const char*>(data), size));
  const auto value = align::unpickle(bytes, "fuzz.pkl");
  if (value) {
    fuzz::walk_value(*value);
  } else {
    FUZZ_CHECK(!value.error().diagnostics.empty());
  }
  check_end_finder(bytes, value);
  const align::UnpickleLimits tight{.max_stack = 16, .max_memo = 8, .max_depth = 4, .max_decoded_bytes = 64};
  const auto small = align::unpickle(bytes, "fuzz.pkl", tight);
  if (small) {
    FUZZ_CHECK(value.has_value());
    FUZZ_CHECK(small->describe() == value->describe());
    fuzz::walk_value(*small);
  }
  return 0;
}
