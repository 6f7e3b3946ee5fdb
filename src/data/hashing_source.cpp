#include "data/hashing_source.h"

#include <cerrno>
#include <exception>

namespace tipc::data {
namespace {

constexpr std::size_t kReadBlockBytes = 256 * 1024;

}  // namespace

HashingSource::HashingSource(UniqueFd file) : file_(std::move(file)) {
  for (auto& block : blocks_) block.resize(kReadBlockBytes);
  hasher_ = std::thread([this] { hash_queued_pieces(); });
}

HashingSource::~HashingSource() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  hasher_.join();
}

void HashingSource::attach(archive* reader) {
  archive_read_set_read_callback(reader, &HashingSource::read);
  archive_read_set_seek_callback(reader, &HashingSource::seek);
  archive_read_set_callback_data(reader, this);
}

la_ssize_t HashingSource::read(archive* reader, void* self, const void** block) {
  auto& source = *static_cast<HashingSource*>(self);
  const std::size_t index = source.next_block_;
  source.next_block_ = (index + 1) % kBlocks;
  {
    std::unique_lock lock(source.mutex_);
    source.changed_.wait(lock, [&] { return !source.queued_[index]; });
  }
  std::vector<char>& buffer = source.blocks_[index];
  ssize_t got = 0;
  do {
    got = ::read(source.file_.get(), buffer.data(), buffer.size());
  } while (got < 0 && errno == EINTR);
  if (got < 0) {
    archive_set_error(reader, errno, "read error: %s", errno_text(errno).c_str());
    return ARCHIVE_FATAL;
  }
  source.queue_in_order(index, static_cast<std::uint64_t>(got));
  source.position_ += static_cast<std::uint64_t>(got);
  *block = buffer.data();
  return got;
}

la_int64_t HashingSource::seek(archive* reader, void* self, la_int64_t offset, int whence) {
  auto& source = *static_cast<HashingSource*>(self);
  const off_t now = ::lseek(source.file_.get(), offset, whence);
  if (now < 0) {
    archive_set_error(reader, errno, "seek error: %s", errno_text(errno).c_str());
    return ARCHIVE_FATAL;
  }
  source.position_ = static_cast<std::uint64_t>(now);
  return now;
}

// Queues the part of the block just read that extends the in-order prefix, if any.
void HashingSource::queue_in_order(std::size_t block, std::uint64_t size) {
  const std::uint64_t end = position_ + size;
  if (position_ > in_order_ || in_order_ >= end) return;
  {
    const std::lock_guard lock(mutex_);
    queue_.push_back(
        {block, static_cast<std::size_t>(in_order_ - position_), static_cast<std::size_t>(end - in_order_)});
    queued_[block] = true;
  }
  changed_.notify_all();
  in_order_ = end;
}

void HashingSource::hash_queued_pieces() {
  for (;;) {
    Piece piece{};
    {
      std::unique_lock lock(mutex_);
      changed_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;
      piece = queue_.front();
    }
    try {
      hash_.update(blocks_[piece.block].data() + piece.from, piece.size);
    } catch (const std::exception&) {
      hash_failed_ = true;  // read under the mutex by digest(), after this piece is off the queue
    }
    {
      const std::lock_guard lock(mutex_);
      queue_.pop_front();
      queued_[piece.block] = false;
    }
    changed_.notify_all();
  }
}

Result<std::string> HashingSource::digest(const std::string& archive_path) {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return queue_.empty(); });
  if (hash_failed_) return fail(Error::at(archive_path, 0, "", "cannot compute the SHA-256"));
  std::vector<char>& buffer = blocks_.front();
  for (;;) {
    const ssize_t got = ::pread(file_.get(), buffer.data(), buffer.size(), static_cast<off_t>(in_order_));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return fail(Error::at(archive_path, 0, "", "read error: " + errno_text(errno)));
    if (got == 0) return hash_.hex_digest();
    hash_.update(buffer.data(), static_cast<std::size_t>(got));
    in_order_ += static_cast<std::uint64_t>(got);
  }
}

}  // namespace tipc::data
