// .npz archives: stored and deflated members, object members, and broken archives.
#include "align/io/npz.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "align/io/load.h"
#include "support/align_samples.h"
#include "support/npy_file.h"
#include "support/paths.h"
#include "support/temp_dir.h"

namespace tipc::align {
namespace {
namespace TIPC_TEST_FILE {

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

// Issue 37, defect 5: a member was inflated whole, whatever its .npy header declared. It is
// now read only as far as the header says, and a member that holds more or less is an error.
Result<Value::Dict> read_members(const std::vector<std::pair<std::string, std::string>>& members) {
  return read_npz(SharedBytes::own(test::npz(members)), "mem.npz");
}

void expect_member_error(const Result<Value::Dict>& members, const std::string& needle) {
  ASSERT_FALSE(members) << "expected: " << needle;
  EXPECT_NE(members.error().str().find(needle), std::string::npos) << members.error().str();
}

TEST(NpzMemberSize, AMemberLongerThanItsHeaderDeclaresIsAnErrorNamingIt) {
  const std::string x = test::npy_float32({1, 2, 3, 4});
  expect_member_error(read_members({{"x", x + std::string(4096, '\0')}}),
                      "mem.npz:x.npy: member longer than its .npy header declares");
  const auto honest = read_members({{"x", x}});
  ASSERT_TRUE(honest) << honest.error().str();
  EXPECT_EQ(honest->find("x")->get<Array>()->to_doubles(), (std::vector<double>{1, 2, 3, 4}));
}

TEST(NpzMemberSize, AMemberShorterThanItsHeaderDeclaresIsAnErrorNamingIt) {
  const std::string x = test::npy_float32({1, 2, 3, 4});
  expect_member_error(read_members({{"x", x.substr(0, x.size() - 8)}}),
                      "mem.npz:x.npy: member shorter than its .npy header declares");
}

TEST(NpzMemberSize, AnObjectMemberEndsAtItsPicklesStop) {
  const std::string pickle = std::string("\x80\x03}q\x00X\x01\x00\x00\x00kK\x07s.", 15);
  const auto honest = read_members({{"d", test::npy_object(pickle)}});
  ASSERT_TRUE(honest) << honest.error().str();
  EXPECT_EQ(*honest->find("d")->get<Value::Dict>()->find("k")->get<std::int64_t>(), 7);
  expect_member_error(read_members({{"d", test::npy_object(pickle) + std::string(4096, '\0')}}),
                      "mem.npz:d.npy: member longer than its .npy header declares");
}

TEST(NpzMemberSize, ASizeTheArchiveCannotExpandToIsRefusedBeforeAnythingIsInflated) {
  // 1 GiB declared in an archive of a few hundred bytes: deflate reaches 1032 times its input at most.
  expect_member_error(read_members({{"x", test::npy_header("<f4", "(268435456,)")}}),
                      "mem.npz:x.npy: member larger than its archive can hold: its .npy header declares 1073741952 "
                      "bytes, but deflate expands the archive's");
  // A dtype no size can be declared for is named from the header alone, as before.
  expect_member_error(read_members({{"s", test::npy_header("<U5", "(2,)") + std::string(40, 'a')}}),
                      "mem.npz:s.npy: unsupported dtype '<U5'");
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::align
