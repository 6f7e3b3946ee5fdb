#pragma once
// Feeds an archive file to libarchive and takes its SHA-256 on the way, so a data step
// reads its archive once and the stamp's digest is that of the very bytes unpacked.
// The hashing runs on a thread of its own, beside the unpacking: the block just read is
// handed over, and the next read goes into another of a few blocks.
#include <archive.h>

#include <array>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/error.h"
#include "core/sha256.h"
#include "core/unique_fd.h"

namespace tipc::data {

class HashingSource {
 public:
  explicit HashingSource(UniqueFd file);
  ~HashingSource();
  HashingSource(const HashingSource&) = delete;
  HashingSource& operator=(const HashingSource&) = delete;

  int fd() const { return file_.get(); }

  // Makes `reader` read through this source (then archive_read_open1).
  void attach(archive* reader);

  // SHA-256 of the whole file. Hashes what the reads did not: tar's zero blocks after
  // its end marker, what a zip reader seeked over, or the whole file when nothing was
  // read. Reads through libarchive must be over.
  Result<std::string> digest(const std::string& archive_path);

 private:
  static constexpr std::size_t kBlocks = 4;
  struct Piece {  // bytes of a block that extend the hashed prefix of the file
    std::size_t block;
    std::size_t from;
    std::size_t size;
  };

  static la_ssize_t read(archive* reader, void* self, const void** block);
  static la_int64_t seek(archive* reader, void* self, la_int64_t offset, int whence);
  void queue_in_order(std::size_t block, std::uint64_t size);
  void hash_queued_pieces();  // the hashing thread

  UniqueFd file_;
  std::array<std::vector<char>, kBlocks> blocks_;
  std::size_t next_block_ = 0;
  std::uint64_t position_ = 0;  // of the next read()
  std::uint64_t in_order_ = 0;  // bytes 0 .. in_order_ are hashed or queued to be

  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Piece> queue_;
  std::array<bool, kBlocks> queued_{};  // a block with a piece not hashed yet is not read into
  bool stopping_ = false;
  bool hash_failed_ = false;
  Sha256 hash_;  // the thread's while pieces are queued; digest() takes over once they are done
  std::thread hasher_;
};

}  // namespace tipc::data
