#include "core/sha256.h"

#include <gtest/gtest.h>

#include <string>

namespace tipc {
namespace {
namespace TIPC_TEST_FILE {

std::string digest_of(const std::string& text) {
  Sha256 hash;
  hash.update(text.data(), text.size());
  return hash.hex_digest();
}

// Test vectors from FIPS 180-2, appendix B.
TEST(Sha256, EmptyMessageMatchesFips180) {
  EXPECT_EQ(digest_of(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST(Sha256, OneBlockMessageMatchesFips180) {
  EXPECT_EQ(digest_of("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(Sha256, TwoBlockMessageMatchesFips180) {
  EXPECT_EQ(digest_of("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST(Sha256, MillionLetterAMatchesFips180) {
  EXPECT_EQ(digest_of(std::string(1000000, 'a')), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256, IncrementalUpdatesEqualOneShot) {
  std::string message;
  for (int i = 0; i < 1000; ++i) message += static_cast<char>(i * 7 + 3);
  // Piece sizes straddle the 64-byte block and the 56-byte padding boundary.
  for (const std::size_t piece : {1u, 3u, 55u, 56u, 63u, 64u, 65u, 999u}) {
    Sha256 hash;
    for (std::size_t at = 0; at < message.size(); at += piece) {
      hash.update(message.data() + at, std::min(piece, message.size() - at));
    }
    EXPECT_EQ(hash.hex_digest(), digest_of(message)) << "piece size " << piece;
  }
}

TEST(Sha256, DigestCanBeTakenMidStream) {
  Sha256 hash;
  hash.update("ab", 2);
  EXPECT_EQ(hash.hex_digest(), digest_of("ab"));
  hash.update("c", 1);
  EXPECT_EQ(hash.hex_digest(), digest_of("abc"));
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc
