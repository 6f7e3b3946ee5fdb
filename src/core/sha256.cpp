#include "core/sha256.h"

#include <openssl/evp.h>

#include <memory>
#include <stdexcept>
#include <string>

namespace tipc {
namespace {

// libcrypto fails only when it cannot allocate, which the rest of the program treats as fatal too.
void require(int status, const char* what) {
  if (status != 1) throw std::runtime_error(std::string("OpenSSL: ") + what + " failed");
}

}  // namespace

Sha256::Sha256() : context_(EVP_MD_CTX_new(), &EVP_MD_CTX_free) {
  if (!context_) throw std::bad_alloc();
  require(EVP_DigestInit_ex(context_.get(), EVP_sha256(), nullptr), "SHA-256 init");
}

void Sha256::update(const void* data, std::size_t size) {
  require(EVP_DigestUpdate(context_.get(), data, size), "SHA-256 update");
}

std::string Sha256::hex_digest() const {
  const std::unique_ptr<EVP_MD_CTX, void (*)(EVP_MD_CTX*)> done(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
  if (!done) throw std::bad_alloc();
  require(EVP_MD_CTX_copy_ex(done.get(), context_.get()), "SHA-256 copy");
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  require(EVP_DigestFinal_ex(done.get(), digest, &length), "SHA-256 final");
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  for (unsigned int i = 0; i < length; ++i) {
    hex += kHex[digest[i] >> 4];
    hex += kHex[digest[i] & 0xf];
  }
  return hex;
}

}  // namespace tipc
