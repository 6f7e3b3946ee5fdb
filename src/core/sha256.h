#pragma once
// SHA-256 (FIPS 180-4), streaming. Used to fingerprint data archives so that an
// unchanged archive is not unpacked again.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/error.h"

namespace tipc {

class Sha256 {
 public:
  Sha256();

  void update(const void* data, std::size_t size);
  // Digest of everything fed so far, as 64 lowercase hex digits. Finishes a copy of the
  // state, so more data may still be added afterwards.
  std::string hex_digest() const;

 private:
  void compress(const std::uint8_t* block);

  std::array<std::uint32_t, 8> state_;
  std::array<std::uint8_t, 64> buffer_{};
  std::size_t buffered_ = 0;
  std::uint64_t total_bytes_ = 0;
};

// Hex SHA-256 of a file's bytes; an error names the file.
Result<std::string> sha256_file(const std::string& path);

}  // namespace tipc
