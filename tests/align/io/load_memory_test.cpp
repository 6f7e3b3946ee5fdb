// Hostile alignment inputs of 1 to 24 MB cost tipc-run less than 100 MB (issue 37, defects 5
// and 6): an .npz member whose .npy header says (4,) but that inflates to 1 GiB of zeros
// (2.1 GB and 36 s before), pickles of empty lists (about 190 bytes of memory per byte of
// file before), and the most a pickle may build within its budget. Each is loaded by
// load_values in a forked child that measures its own peak resident memory.
#include <malloc.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "align/io/load.h"
#include "support/npy_file.h"
#include "support/run_binary.h"
#include "support/sanitizers.h"
#include "support/temp_dir.h"

namespace tipc::align {
namespace {
namespace TIPC_TEST_FILE {

// tipc-run holds 14 MiB before it reads an input (its peak RSS on a missing file): what
// the readers take on top must stay under 86 MiB for the process to stay under 100 MiB.
constexpr long kReaderLimitKib = 86 * 1024;

// Deflate's bits, least significant first; Huffman codes go most significant bit first.
class BitWriter {
 public:
  void put(std::uint32_t bits, int count) {
    pending_ |= static_cast<std::uint64_t>(bits) << used_;
    for (used_ += count; used_ >= 8; used_ -= 8, pending_ >>= 8) out_ += static_cast<char>(pending_ & 0xff);
  }
  void put_code(std::uint32_t code, int length) {
    std::uint32_t reversed = 0;
    for (int i = 0; i < length; ++i) reversed |= ((code >> i) & 1u) << (length - 1 - i);
    put(reversed, length);
  }
  std::string finish() { return used_ > 0 ? out_ + static_cast<char>(pending_ & 0xff) : out_; }

 private:
  std::string out_;
  std::uint64_t pending_ = 0;
  int used_ = 0;
};

// One fixed-Huffman deflate block: `prefix` as literals, then `zeros` zero bytes, mostly as
// 258-byte copies at distance 1 (13 bits each): 1 GiB of zeros in 6.8 MB, built at once.
std::string deflate_zeros_after(const std::string& prefix, std::uint64_t zeros) {
  BitWriter bits;
  bits.put(1, 1);  // the last block
  bits.put(1, 2);  // fixed Huffman codes
  auto literal = [&](unsigned char byte) {
    if (byte < 144)
      bits.put_code(0x30 + byte, 8);
    else
      bits.put_code(0x190 + byte - 144, 9);
  };
  for (const char c : prefix) literal(static_cast<unsigned char>(c));
  literal(0);
  for (--zeros; zeros >= 258; zeros -= 258) {
    bits.put_code(0xc5, 8);  // length 258 (code 285)
    bits.put_code(0, 5);     // distance 1
  }
  for (; zeros > 0; --zeros) literal(0);
  bits.put_code(0, 7);  // end of block
  return bits.finish();
}

std::string le(std::uint64_t value, int width) {
  std::string out;
  for (int i = 0; i < width; ++i) out += static_cast<char>((value >> (8 * i)) & 0xff);
  return out;
}

// A ZIP of one deflated member whose directory gives `listed_size` as its size. Its CRC is
// left 0: no reader that keeps to the member's declared size gets as far as checking it.
std::string zip_one_deflated(const std::string& name, const std::string& deflated, std::uint64_t listed_size) {
  const std::string sizes = le(0, 4) + le(deflated.size(), 4) + le(listed_size, 4);  // CRC, compressed, size
  const std::string local =
      le(0x04034b50, 4) + le(20, 2) + le(0, 2) + le(8, 2) + le(0, 4) + sizes + le(name.size(), 2) + le(0, 2) + name;
  const std::string central = le(0x02014b50, 4) + le(20, 2) + le(20, 2) + le(0, 2) + le(8, 2) + le(0, 4) + sizes +
                              le(name.size(), 2) + le(0, 2) + le(0, 2) + le(0, 2) + le(0, 2) + le(0, 4) + le(0, 4) +
                              name;
  const std::string end = le(0x06054b50, 4) + le(0, 2) + le(0, 2) + le(1, 2) + le(1, 2) + le(central.size(), 4) +
                          le(local.size() + deflated.size(), 4) + le(0, 2);
  return local + deflated + central + end;
}

// A pickle of one list holding `count` empty lists: 2 bytes each.
std::string empty_lists(std::size_t count) {
  std::string pickle("\x80\x03]", 3);
  for (std::size_t i = 0; i < count; ++i) pickle += "]a";
  return pickle + ".";
}

// As much as the budget lets a 24 MB pickle build, behind a string that takes the rest:
// {'pad': 'aaa...', '0': {}, '1': {}, ...}, every value a new dict.
std::string budget_worst_case(std::size_t pad_bytes, std::size_t dicts) {
  std::string pickle = std::string("\x80\x03}(\x8c\x03padX", 10) + le(pad_bytes, 4) + std::string(pad_bytes, 'a') + "u";
  for (std::size_t i = 0; i < dicts; i += 1000) {
    pickle += '(';
    for (std::size_t k = i; k < std::min(dicts, i + 1000); ++k) {
      const std::string key = std::to_string(k);
      pickle += "\x8c" + le(key.size(), 1) + key + "}";
    }
    pickle += 'u';
  }
  return pickle + ".";
}

long status_kib(const char* field) {
  std::istringstream status(test::slurp("/proc/self/status"));
  for (std::string line; std::getline(status, line);) {
    if (line.starts_with(field)) return std::stol(line.substr(std::strlen(field)));
  }
  return -1;
}

struct Measured {
  long peak_kib = -1;  // the readers' peak resident memory above what the process held before
  std::string error;   // the first error, "" when every file loaded
};

// Loads the files one after the other in a forked child, keeping each (as the diff keeps
// both sides), and measures what that added to the child's peak resident memory.
Measured peak_load_memory(const std::vector<std::string>& paths) {
  int channel[2];
  if (pipe(channel) != 0) return {};
  const pid_t pid = fork();
  if (pid == 0) {
    close(channel[0]);
    // Free heap pages this process inherited would be reused without adding to its RSS:
    // returned to the system first, every byte the readers take shows.
    malloc_trim(0);
    const long before = status_kib("VmRSS:");
    std::vector<Value> kept;
    std::string error;
    for (const std::string& path : paths) {
      auto value = load_values(path);
      if (!value) {
        error = value.error().str();
        break;
      }
      kept.push_back(std::move(*value));
    }
    const std::string report = std::to_string(status_kib("VmHWM:") - before) + "\n" + error;
    if (write(channel[1], report.data(), report.size()) < 0) _exit(1);
    _exit(0);  // nothing of the parent's is torn down twice
  }
  close(channel[1]);
  std::string report;
  char buffer[4096];
  for (ssize_t got; (got = read(channel[0], buffer, sizeof buffer)) > 0;)
    report.append(buffer, static_cast<std::size_t>(got));
  close(channel[0]);
  waitpid(pid, nullptr, 0);
  const std::size_t newline = report.find('\n');
  if (newline == std::string::npos) return {};
  return {std::stol(report.substr(0, newline)), report.substr(newline + 1)};
}

class HostileAlignmentInputs : public ::testing::Test {
 protected:
  // Loads NAME (twice: both sides of a diff, when `twice`) and checks what the readers took.
  Measured expect_bounded(const std::string& name, const std::string& bytes, bool twice = false) {
    const std::string path = dir_.write(name, bytes);
    const Measured m = peak_load_memory(twice ? std::vector{path, path} : std::vector{path});
    std::cout << name << " (" << bytes.size() / 1024 << " KiB" << (twice ? ", loaded twice" : "")
              << "): the readers' peak " << m.peak_kib / 1024 << " MiB\n";
    EXPECT_GE(m.peak_kib, 0);
    EXPECT_LT(m.peak_kib, kReaderLimitKib) << name << ": " << m.error;
    if (!m.error.empty()) {
      EXPECT_NE(m.error.find(path), std::string::npos) << m.error;
    }
    return m;
  }

  test::TempDir dir_;
};

TEST_F(HostileAlignmentInputs, AnNpzMemberInflatingFarBeyondItsHeaderIsReadNoFurther) {
  TIPC_SKIP_MEMORY_MEASUREMENT_UNDER_SANITIZERS();
  const std::string header = test::npy_header("<f4", "(4,)");  // 16 bytes of payload declared
  const std::string deflated = deflate_zeros_after(header, 1ull << 30);
  const std::uint64_t inflated = header.size() + (1ull << 30);
  for (const auto& [name, listed] :
       {std::pair{"zeros.npz", inflated}, std::pair{"listed_small.npz", header.size() + 16}}) {
    const Measured m = expect_bounded(name, zip_one_deflated("x.npy", deflated, listed));
    EXPECT_NE(m.error.find(std::string(name) + ":x.npy: member longer than its .npy header declares"),
              std::string::npos)
        << m.error;
  }
}

TEST_F(HostileAlignmentInputs, PicklesOfEmptyListsAreRefusedWithinTheirBudget) {
  TIPC_SKIP_MEMORY_MEASUREMENT_UNDER_SANITIZERS();
  for (const auto& [name, mib] :
       {std::pair{"lists_1m.npy", 1}, std::pair{"lists_4m.npy", 4}, std::pair{"lists_24m.npy", 24}}) {
    const Measured m = expect_bounded(name, test::npy_object(empty_lists((std::size_t{1} << 20) * mib / 2)));
    EXPECT_NE(m.error.find("objects and container elements, the budget for its"), std::string::npos) << m.error;
  }
}

TEST_F(HostileAlignmentInputs, TheMostAPickleMayBuildFitsTwice) {
  TIPC_SKIP_MEMORY_MEASUREMENT_UNDER_SANITIZERS();
  // A 24 MB pickle may build 65536 units (the floor: 24 MB / 512 is less); 16000 new dicts
  // under new keys take 64000 of them (a key, a dict and the two entries SETITEMS pops for each).
  const std::string bytes = test::npy_object(budget_worst_case(23u << 20, 16000));
  EXPECT_EQ(expect_bounded("worst.npy", bytes).error, "") << "it loads; the diff refuses its str leaf";
  EXPECT_EQ(expect_bounded("worst.npy", bytes, true).error, "");
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::align
