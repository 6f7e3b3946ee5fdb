#pragma once
// Reading .npz archives (np.savez / np.savez_compressed): a ZIP of .npy members, stored
// or deflated, read through libarchive. Each member becomes a Value: a plain array, or
// the unpickled object of an object array (e.g. a dict saved with np.savez(d={...})).
// Member bytes are owned copies; use plain .npy files when arrays are too big to copy.
#include <cstdint>
#include <string>

#include "align/io/pickle.h"
#include "core/error.h"

namespace tipc::align {

struct NpzLimits {
  std::uint64_t max_member_bytes = 8ull << 30;   // one member, decompressed
  std::uint64_t max_total_bytes = 16ull << 30;   // all members, decompressed
  std::uint64_t max_members = 100000;
};

// Members in archive order, named without their ".npy" suffix (as numpy's NpzFile does).
Result<Value::Dict> read_npz(const std::string& path, const NpzLimits& limits = {});
// The same for an .npz already in memory (`bytes` must outlive the call; members are
// copied); `name` is used in errors in place of the path.
Result<Value::Dict> read_npz(const SharedBytes& bytes, const std::string& name, const NpzLimits& limits = {});

}  // namespace tipc::align
