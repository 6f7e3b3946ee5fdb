#pragma once
// .npy and .npz files written by a test (no numpy needed).
#include <archive.h>
#include <archive_entry.h>

#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace tipc::test {

// A version 1 .npy header as np.save writes it, e.g. npy_header("<f4", "(3,)"); any payload may follow.
inline std::string npy_header(const std::string& descr, const std::string& shape) {
  std::string header = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
  while ((10 + header.size() + 1) % 64 != 0) header += ' ';
  header += '\n';
  return std::string("\x93NUMPY\x01\x00", 8) + static_cast<char>(header.size()) + '\0' + header;
}

// A version 1 .npy of float32 values, 1-D.
inline std::string npy_float32(const std::vector<float>& values) {
  std::string payload(values.size() * sizeof(float), '\0');
  if (!values.empty()) std::memcpy(payload.data(), values.data(), payload.size());
  return npy_header("<f4", "(" + std::to_string(values.size()) + ",)") + payload;
}

// A 0-d object .npy holding `pickle` (what np.save writes for a dict, with its pickle).
inline std::string npy_object(const std::string& pickle) { return npy_header("|O", "()") + pickle; }

// An .npz (a zip of "<name>.npy" members, stored): a dict of arrays, as np.savez writes it.
inline std::string npz(const std::vector<std::pair<std::string, std::string>>& members) {
  std::string buffer(1 << 20, '\0');
  std::size_t used = 0;
  archive* writer = archive_write_new();
  archive_write_set_format_zip(writer);
  archive_write_zip_set_compression_store(writer);
  archive_write_open_memory(writer, buffer.data(), buffer.size(), &used);
  for (const auto& [name, bytes] : members) {
    archive_entry* entry = archive_entry_new();
    archive_entry_set_pathname(entry, (name + ".npy").c_str());
    archive_entry_set_size(entry, static_cast<la_int64_t>(bytes.size()));
    archive_entry_set_filetype(entry, AE_IFREG);
    archive_entry_set_perm(entry, 0644);
    archive_write_header(writer, entry);
    archive_write_data(writer, bytes.data(), bytes.size());
    archive_entry_free(entry);
  }
  archive_write_close(writer);
  archive_write_free(writer);
  buffer.resize(used);
  return buffer;
}

}  // namespace tipc::test
