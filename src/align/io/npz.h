#pragma once
// Reading .npz archives (np.savez / np.savez_compressed): a ZIP of .npy members, stored
// or deflated, read through libarchive. Each member becomes a Value: a plain array, or
// the unpickled object of an object array (e.g. a dict saved with np.savez(d={...})).
// Member bytes are owned copies; use plain .npy files when arrays are too big to copy.
//
// A member is inflated only as far as its .npy header declares it (the header and the
// payload its shape and dtype need, or for an object array the pickle up to its STOP), as
// numpy reads it; a member longer or shorter than that, or whose ZIP directory entry gives
// another size, is an error naming it. Declared sizes are checked against the limits before
// anything is inflated, so the bytes held never exceed what the archive can honestly expand to.
#include <cstdint>
#include <string>

#include "align/io/pickle.h"
#include "core/error.h"

namespace tipc::align {

struct NpzLimits {
  std::uint64_t max_member_bytes = 8ull << 30;  // one member, decompressed
  std::uint64_t max_total_bytes = 16ull << 30;  // all members, decompressed
  std::uint64_t max_members = 100000;
  // Deflate expands its input 1032 times at most: members that declare more, all together,
  // than this multiple of the archive's size cannot be what they claim.
  std::uint64_t max_expansion = 1032;
};

// Members in archive order, named without their ".npy" suffix (as numpy's NpzFile does).
Result<Value::Dict> read_npz(const std::string& path, const NpzLimits& limits = {});
// The same for an .npz already in memory (`bytes` must outlive the call; members are
// copied); `name` is used in errors in place of the path.
Result<Value::Dict> read_npz(const SharedBytes& bytes, const std::string& name, const NpzLimits& limits = {});

}  // namespace tipc::align
