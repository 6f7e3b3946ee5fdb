#include "core/sha256.h"

#include <openssl/evp.h>

#include <memory>
#include <new>
#include <string>

namespace tipc {
namespace {

// libcrypto's digest calls fail only when it cannot allocate: out of memory, as anywhere else
// in the program (docs/architecture.md, the error convention).
void require(int status) {
  if (status != 1) throw std::bad_alloc();
}

}  // namespace

Sha256::Sha256() : context_(EVP_MD_CTX_new(), &EVP_MD_CTX_free) {
  if (!context_) throw std::bad_alloc();
  require(EVP_DigestInit_ex(context_.get(), EVP_sha256(), nullptr));
}

void Sha256::update(const void* data, std::size_t size) { require(EVP_DigestUpdate(context_.get(), data, size)); }

std::string Sha256::hex_digest() const {
  const std::unique_ptr<EVP_MD_CTX, void (*)(EVP_MD_CTX*)> done(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
  if (!done) throw std::bad_alloc();
  require(EVP_MD_CTX_copy_ex(done.get(), context_.get()));
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  require(EVP_DigestFinal_ex(done.get(), digest, &length));
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  for (unsigned int i = 0; i < length; ++i) {
    hex += kHex[digest[i] >> 4];
    hex += kHex[digest[i] & 0xf];
  }
  return hex;
}

}  // namespace tipc
