// .npz archives: stored and deflated members, object members, and broken archives.
#include "align/io/npz.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "align/io/load.h"
#include "support/align_samples.h"
#include "support/paths.h"
#include "support/temp_dir.h"

namespace tipc::align {
namespace {

namespace fs = std::filesystem;

std::string samples_dir() { return test::align_samples_dir(); }

TEST(NpzRead, StoredAndDeflatedMembers) {
  SKIP_WITHOUT_ALIGN_SAMPLES();
  for (const std::string file : {"arrays.npz", "arrays_compressed.npz"}) {
    const auto members = read_npz(samples_dir() + "/" + file);
    ASSERT_TRUE(members) << file << ": " << members.error().str();
    ASSERT_EQ(members->items.size(), 2u) << file;
    EXPECT_EQ(members->items[0].first.text, "a");  // ".npy" dropped, archive order kept
    EXPECT_EQ(members->items[1].first.text, "b");
    const Array* a = members->find("a")->get<Array>();
    ASSERT_NE(a, nullptr);
    EXPECT_EQ(a->dtype.descr(), "<f4");
    EXPECT_EQ(a->to_doubles(), (std::vector<double>{0, 1, 2}));
    const Array* b = members->find("b")->get<Array>();
    ASSERT_NE(b, nullptr);
    EXPECT_EQ(b->dtype.descr(), "<f8");
    EXPECT_EQ(b->to_doubles(), (std::vector<double>{1, 0, 0, 1}));  // eye(2)
  }
}

TEST(NpzRead, ObjectMemberIsUnpickled) {
  SKIP_WITHOUT_ALIGN_SAMPLES();
  const auto value = load_values(samples_dir() + "/dict_in_npz.npz");
  ASSERT_TRUE(value) << value.error().str();
  const auto* members = value->get<Value::Dict>();
  ASSERT_NE(members, nullptr);
  const Value* d = members->find("d");
  ASSERT_NE(d, nullptr);
  const auto* inner = d->get<Value::Dict>();
  ASSERT_NE(inner, nullptr) << d->describe();
  EXPECT_EQ(inner->find("x")->get<Array>()->to_doubles(), (std::vector<double>{1, 1}));
}

TEST(NpzRead, BrokenArchivesAreErrorsNamingTheFile) {
  test::TempDir dir;
  const std::string path = dir.write("broken.npz", std::string("PK\x03\x04", 4) + std::string(40, '\x01'));
  const auto members = read_npz(path);
  ASSERT_FALSE(members);
  EXPECT_NE(members.error().str().find("broken.npz"), std::string::npos) << members.error().str();
  const auto loaded = load_values(path);
  ASSERT_FALSE(loaded);
  EXPECT_NE(loaded.error().str().find("broken.npz"), std::string::npos) << loaded.error().str();
}

TEST(NpzRead, BytesInMemoryReadLikeTheFile) {
  SKIP_WITHOUT_ALIGN_SAMPLES();
  for (const std::string file : {"arrays.npz", "arrays_compressed.npz", "dict_in_npz.npz"}) {
    const auto bytes = SharedBytes::map_file(samples_dir() + "/" + file);
    ASSERT_TRUE(bytes) << bytes.error().str();
    const auto from_file = read_npz(samples_dir() + "/" + file);
    const auto from_memory = read_npz(*bytes, file);
    ASSERT_TRUE(from_file && from_memory) << file;
    ASSERT_EQ(from_memory->items.size(), from_file->items.size()) << file;
    for (std::size_t i = 0; i < from_file->items.size(); ++i) {
      EXPECT_EQ(from_memory->items[i].first.text, from_file->items[i].first.text) << file;
      EXPECT_EQ(from_memory->items[i].second->describe(), from_file->items[i].second->describe()) << file;
    }
  }
  const auto broken = read_npz(SharedBytes::own(std::string("PK\x03\x04", 4) + std::string(40, '\x01')), "mem.npz");
  ASSERT_FALSE(broken);
  EXPECT_NE(broken.error().str().find("mem.npz"), std::string::npos) << broken.error().str();
}

TEST(NpzRead, BadMemberIsNamedInsideTheArchive) {
  SKIP_WITHOUT_ALIGN_SAMPLES();
  // A member limit smaller than the members: the error names archive and member.
  const auto members = read_npz(samples_dir() + "/arrays_compressed.npz", NpzLimits{.max_member_bytes = 100});
  ASSERT_FALSE(members);
  EXPECT_NE(members.error().str().find("arrays_compressed.npz:a.npy: member larger than the size limit"),
            std::string::npos)
      << members.error().str();
}

}  // namespace
}  // namespace tipc::align
