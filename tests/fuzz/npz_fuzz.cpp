// libFuzzer target: the .npz reader (align/io/npz.h: ZIP through libarchive, then each member
// through load_npy_value) on bytes in memory. Checks: no crash, leak or undefined
// behaviour; member keys are unique; the limits hold, the size limits included: the
// members' arrays together hold no more than the archive can expand to (its size times
// deflate's largest ratio) and no more than the total limit; every member value is well
// formed (fuzz_check.h).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "align/io/npz.h"
#include "fuzz_check.h"

using namespace tipc;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const align::SharedBytes bytes = align::SharedBytes::own(std::string_view(reinterpret_cast<const char*>(data), size));
  // Small limits keep a deflate bomb under libFuzzer's memory limit; the logic is the same.
  const align::NpzLimits limits{.max_member_bytes = 16u << 20, .max_total_bytes = 32u << 20, .max_members = 1000};
  const auto members = align::read_npz(bytes, "fuzz.npz", limits);
  if (!members) {
    FUZZ_CHECK(!members.error().diagnostics.empty());
    return 0;
  }
  FUZZ_CHECK(members->items.size() <= limits.max_members);
  // Keys are member names less one ".npy" (numpy's NpzFile: "a.npy.npy" is key "a.npy").
  std::uint64_t array_bytes = 0;
  for (const auto& [key, value] : members->items) {
    FUZZ_CHECK(value != nullptr);
    if (const auto* array = value->get<align::Array>()) array_bytes += array->data.size();
  }
  // A member is read only as far as its header declares, and declared sizes are bounded.
  FUZZ_CHECK(array_bytes <= size * limits.max_expansion);
  FUZZ_CHECK(array_bytes <= limits.max_total_bytes);
  // walk_value checks key uniqueness and every member.
  fuzz::walk_value(align::Value{*members});
  return 0;
}
