#pragma once
// Reading numpy's .npy container (format versions 1.0, 2.0 and 3.0).
//
// The header is a Python dict literal; it is parsed here, not evaluated, and only the
// three keys numpy writes are accepted. A plain numeric payload becomes an Array that
// points into the bytes it came from (a memory-mapped file for read_npy). An object
// payload ('|O') is a pickle: these functions hand it out as bytes (split_npy) and
// leave unpickling to align/io/load.h, which is the entry point for result files.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "align/io/array.h"
#include "core/error.h"

namespace tipc::align {

// Headers above this size are refused (numpy's own default limit is 10000 characters).
inline constexpr std::size_t kMaxNpyHeaderBytes = 1 << 20;

struct NpyHeader {
  int major_version = 1;
  int minor_version = 0;
  std::string descr;        // as written, e.g. "<f4" or "|O"; empty for a structured dtype
  bool structured = false;  // descr was a list of fields
  bool fortran_order = false;
  std::vector<std::size_t> shape;
  std::size_t payload_offset = 0;  // 10 + HEADER_LEN (v1) or 12 + HEADER_LEN (v2, v3)

  bool is_object() const;  // descr '|O' (any size): the payload is a pickle
};

// A .npy split into its header and its payload (a slice sharing the file's bytes).
struct NpyFile {
  NpyHeader header;
  SharedBytes payload;
};

// A .npy's first bytes that hold its magic, version and HEADER_LEN (10 for version 1, 12 after).
inline constexpr std::size_t kNpyPreambleBytes = 12;
// Where the payload starts (magic, version, HEADER_LEN and the dict), from the first
// kNpyPreambleBytes or more: a reader of a stream (an .npz member) learns how much header to read.
Result<std::size_t> npy_header_size(std::string_view first_bytes, const std::string& name);
// Parses magic, version, HEADER_LEN and the header dict. `name` is used in errors.
Result<NpyHeader> parse_npy_header(std::string_view bytes, const std::string& name);
Result<NpyFile> split_npy(const SharedBytes& bytes, const std::string& name);
// The plain array of a split .npy; object arrays and unsupported dtypes are errors.
Result<Array> array_from_npy(const NpyFile& file, const std::string& name);

// Maps the file and returns its array without copying the payload.
Result<Array> read_npy(const std::string& path);
// In-memory .npy data: the shared form keeps pointing into `bytes`; the view form copies.
Result<Array> parse_npy(const SharedBytes& bytes, const std::string& name = "<memory>");
Result<Array> parse_npy(std::string_view bytes, const std::string& name = "<memory>");

}  // namespace tipc::align
