#pragma once
// SHA-256, streaming. Used to fingerprint data archives so that an unchanged archive is
// not unpacked again. OpenSSL's libcrypto does the hashing: it uses the CPU's SHA
// instructions where there are any (about 7x a portable C++ loop on this project's
// machines), which a multi-gigabyte data archive hashed on every run needs.
#include <cstddef>
#include <memory>
#include <string>

struct evp_md_ctx_st;  // OpenSSL's EVP_MD_CTX, kept out of this header

namespace tipc {

class Sha256 {
 public:
  Sha256();

  void update(const void* data, std::size_t size);
  // Digest of everything fed so far, as 64 lowercase hex digits. Finishes a copy of the
  // state, so more data may still be added afterwards.
  std::string hex_digest() const;

 private:
  std::unique_ptr<evp_md_ctx_st, void (*)(evp_md_ctx_st*)> context_;
};

}  // namespace tipc
