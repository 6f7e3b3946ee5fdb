#include "core/sha256.h"

#include <openssl/evp.h>

#include <cerrno>
#include <cstdio>
#include <stdexcept>
#include <system_error>
#include <vector>

namespace tipc {
namespace {

constexpr std::size_t kFileChunk = 1 << 20;

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

Result<std::string> sha256_file(const std::string& path) {
  const std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!file) {
    return fail(Error::at(path, 0, "", "cannot open: " + std::error_code(errno, std::generic_category()).message()));
  }
  Sha256 hash;
  std::vector<char> chunk(kFileChunk);
  std::size_t got = 0;
  while ((got = std::fread(chunk.data(), 1, chunk.size(), file.get())) > 0) hash.update(chunk.data(), got);
  if (std::ferror(file.get())) {
    return fail(Error::at(path, 0, "", "read error: " + std::error_code(errno, std::generic_category()).message()));
  }
  return hash.hex_digest();
}

}  // namespace tipc
