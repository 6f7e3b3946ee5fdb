#pragma once
// One entry point for the diff engine: whatever result file it is given, a Value.
//
//   * a plain .npy            -> an Array (pointing into the memory-mapped file);
//   * an object .npy          -> the unpickled object; a 0-d object array (what np.save
//                                writes for reprod_log's dict) is unwrapped to its element;
//   * an .npz                 -> a Dict of member name (without ".npy") -> member value.
//
// The kind is told by the file's magic bytes, not by its extension.
#include <string>

#include "align/io/array.h"
#include "align/io/npy.h"
#include "align/io/pickle.h"
#include "core/error.h"

namespace tipc::align {

Result<Value> load_values(const std::string& path);

// The value of one .npy held in `bytes` (a file or an .npz member); `name` is used in errors.
Result<Value> load_npy_value(const SharedBytes& bytes, const std::string& name);
// The same for a .npy already split into its header and payload.
Result<Value> load_npy_value(const NpyFile& file, const std::string& name);

}  // namespace tipc::align
