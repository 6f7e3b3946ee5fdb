#pragma once
// Summarises numpy's reduction blocks of a long sequence on several threads.
//
// Only the per-block work runs concurrently: the summaries come back in block order, so
// whoever merges them sequentially gets bit for bit the result one thread would have got.
// Small inputs stay on the calling thread, where starting threads would cost more than it saves.
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <thread>
#include <vector>

#include "align/numeric/reduce.h"

namespace tipc::align {

// Blocks a thread takes at a time: large enough to amortise the atomic, small enough to balance.
inline constexpr std::size_t kBlocksPerClaim = 64;
inline constexpr std::size_t kMaxDiffThreads = 8;

// make_worker() is called once per thread and returns a callable
// `Summary(std::size_t first_element, std::size_t element_count)` with its own scratch space.
template <typename Summary, typename MakeWorker>
std::vector<Summary> summarize_blocks(std::size_t total, MakeWorker make_worker) {
  const std::size_t blocks = (total + kNumpyReduceBlock - 1) / kNumpyReduceBlock;
  std::vector<Summary> out(blocks);
  std::atomic<std::size_t> next_claim{0};
  const auto work = [&] {
    auto worker = make_worker();
    for (std::size_t first = next_claim.fetch_add(kBlocksPerClaim); first < blocks;
         first = next_claim.fetch_add(kBlocksPerClaim)) {
      for (std::size_t block = first; block < std::min(blocks, first + kBlocksPerClaim); ++block) {
        const std::size_t start = block * kNumpyReduceBlock;
        out[block] = worker(start, std::min(kNumpyReduceBlock, total - start));
      }
    }
  };
  const std::size_t claims = (blocks + kBlocksPerClaim - 1) / kBlocksPerClaim;
  const std::size_t threads =
      std::min({static_cast<std::size_t>(std::max(1u, std::thread::hardware_concurrency())), kMaxDiffThreads, claims});
  std::vector<std::jthread> helpers;
  for (std::size_t i = 1; i < threads; ++i) helpers.emplace_back(work);
  work();
  helpers.clear();  // joins: every block is written before `out` is handed back
  return out;
}

}  // namespace tipc::align
