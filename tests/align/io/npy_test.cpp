// The .npy reader on hand-built byte strings: every header spelling numpy (and older
// writers) produce, byte orders, Fortran order, 0-d, empty and float16 specials, and the
// errors for truncated, malformed and unsupported files.
#include "align/io/npy.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "support/temp_dir.h"

namespace tipc::align {
namespace {
namespace TIPC_TEST_FILE {

// A .npy of the given version around `header` (padded with spaces and '\n' to 64 bytes,
// as numpy does) and `payload`.
std::string npy_bytes(const std::string& header, const std::string& payload, int major = 1, bool pad = true) {
  const std::size_t preamble = major == 1 ? 10 : 12;
  std::string text = header;
  if (pad) {
    while ((preamble + text.size() + 1) % 64 != 0) text += ' ';
    text += '\n';
  }
  std::string out = std::string("\x93NUMPY", 6) + static_cast<char>(major) + '\0';
  const std::size_t width = major == 1 ? 2 : 4;
  for (std::size_t i = 0; i < width; ++i) out += static_cast<char>((text.size() >> (8 * i)) & 0xff);
  return out + text + payload;
}

template <typename T>
std::string raw(const std::vector<T>& values) {
  std::string out(values.size() * sizeof(T), '\0');
  std::memcpy(out.data(), values.data(), out.size());
  return out;
}

std::string reversed_items(std::string bytes, std::size_t item) {
  for (std::size_t i = 0; i < bytes.size(); i += item) std::reverse(bytes.begin() + i, bytes.begin() + i + item);
  return bytes;
}

const std::string kF32Header = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";

TEST(NpyHeader, ParsesWhatNumpyWrites) {
  const auto header = parse_npy_header(npy_bytes(kF32Header, ""), "x.npy");
  ASSERT_TRUE(header) << header.error().str();
  EXPECT_EQ(header->descr, "<f4");
  EXPECT_FALSE(header->fortran_order);
  EXPECT_EQ(header->shape, (std::vector<std::size_t>{2, 3}));
  EXPECT_EQ(header->payload_offset, 128u);  // as in every numpy 1.24 file
}

TEST(NpyHeader, AcceptsAnyKeyOrderQuotesAndSpacing) {
  for (const std::string& text : {
           std::string("{\"shape\": (2, 3), \"fortran_order\": False, \"descr\": \"<f4\"}"),
           std::string("{ 'fortran_order' :False,'shape':(2,3),'descr':'<f4' }"),
           std::string("{'descr':'<f4','fortran_order':False,'shape':(2L, 3L)}"),  // Python 2 longs
           std::string("{'descr': '<f4',\n 'fortran_order': False,\t'shape': ( 2 , 3 , ), }"),
       }) {
    const auto array = parse_npy(npy_bytes(text, raw<float>({0, 1, 2, 3, 4, 5})), "x.npy");
    ASSERT_TRUE(array) << text << ": " << array.error().str();
    EXPECT_EQ(array->shape, (std::vector<std::size_t>{2, 3})) << text;
    EXPECT_EQ(array->value_at(5), 5.0) << text;
  }
}

TEST(NpyHeader, AcceptsVersionsTwoAndThreeAndUnalignedPayloads) {
  for (const int major : {1, 2, 3}) {
    for (const bool pad : {true, false}) {  // numpy <= 1.13 aligned to 16; never assume 64
      const auto array = parse_npy(npy_bytes(kF32Header, raw<float>({1, 2, 3, 4, 5, 6}), major, pad), "x.npy");
      ASSERT_TRUE(array) << major << ": " << array.error().str();
      EXPECT_EQ(array->to_doubles(), (std::vector<double>{1, 2, 3, 4, 5, 6}));
    }
  }
}

TEST(NpyHeader, RejectsMalformedHeadersNamingTheFile) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"{'descr': '<f4', 'fortran_order': False}", "'shape' is missing"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), 'extra': 1}", "unexpected key 'extra'"},
      {"{'descr': '<f4', 'fortran_order': 0, 'shape': (2,)}", "True or False"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': [2]}", "expected '('"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (-1,)}", "non-negative"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (2)}", "trailing comma"},
      {"{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': ()}", "twice"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': ()} x", "after the closing"},
      {"{'descr': '<f4, 'fortran_order': False, 'shape': ()}", "expected"},
  };
  for (const auto& [text, expected] : cases) {
    const auto array = parse_npy(npy_bytes(text, std::string(64, '\0')), "bad.npy");
    ASSERT_FALSE(array) << text;
    EXPECT_NE(array.error().str().find("bad.npy"), std::string::npos) << array.error().str();
    EXPECT_NE(array.error().str().find(expected), std::string::npos) << text << " -> " << array.error().str();
  }
}

TEST(NpyRead, BadMagicAndVersion) {
  auto array = parse_npy(std::string("PK\x03\x04 not an npy at all"), "a.npy");
  ASSERT_FALSE(array);
  EXPECT_NE(array.error().str().find("a.npy: not a .npy file: bad magic"), std::string::npos) << array.error().str();

  std::string v4 = npy_bytes(kF32Header, raw<float>({1, 2, 3, 4, 5, 6}));
  v4[6] = 4;
  array = parse_npy(v4, "v4.npy");
  ASSERT_FALSE(array);
  EXPECT_NE(array.error().str().find("version 4.0"), std::string::npos) << array.error().str();
}

TEST(NpyRead, TruncatedFiles) {
  const std::string whole = npy_bytes(kF32Header, raw<float>({1, 2, 3, 4, 5, 6}));
  for (const std::size_t cut : {std::size_t{0}, std::size_t{4}, std::size_t{9}, std::size_t{40}, whole.size() - 1}) {
    const auto array = parse_npy(whole.substr(0, cut), "cut.npy");
    ASSERT_FALSE(array) << cut;
    EXPECT_NE(array.error().str().find("cut.npy: truncated"), std::string::npos) << cut << ": " << array.error().str();
  }
}

TEST(NpyRead, TrailingBytesAreIgnoredLikeNumpy) {
  const auto array = parse_npy(npy_bytes(kF32Header, raw<float>({1, 2, 3, 4, 5, 6}) + "junk"), "x.npy");
  ASSERT_TRUE(array) << array.error().str();
  EXPECT_EQ(array->data.size(), 24u);
}

TEST(NpyRead, UnsupportedDtypesAreClearErrors) {
  for (const auto& [descr, expected] : std::vector<std::pair<std::string, std::string>>{
           {"'<U5'", "unsupported dtype '<U5'"},
           {"'|S3'", "unsupported dtype '|S3'"},
           {"'<M8[ns]'", "unsupported dtype '<M8[ns]'"},
           {"'<f16'", "unsupported dtype '<f16'"},
           {"[('a', '<f4'), ('b', '<i4', (2,))]", "structured"},
           {"'|O'", "pickled Python objects"},
       }) {
    const std::string header = "{'descr': " + descr + ", 'fortran_order': False, 'shape': (1,), }";
    const auto array = parse_npy(npy_bytes(header, std::string(64, '\0')), "odd.npy");
    ASSERT_FALSE(array) << descr;
    EXPECT_NE(array.error().str().find(expected), std::string::npos) << array.error().str();
  }
}

TEST(NpyRead, EveryNumericDtypeWidens) {
  struct Case {
    std::string descr;
    std::string payload;
    std::vector<double> expected;
  };
  const std::vector<Case> cases = {
      {"|b1", std::string("\x00\x01\x02", 3), {0, 1, 1}},
      {"|i1", std::string("\xff\x7f\x80", 3), {-1, 127, -128}},
      {"|u1", std::string("\xff\x7f\x80", 3), {255, 127, 128}},
      {"<i2", raw<std::int16_t>({-2, 300, 7}), {-2, 300, 7}},
      {"<u2", raw<std::uint16_t>({65535, 1, 2}), {65535, 1, 2}},
      {"<i4", raw<std::int32_t>({-5, 0, 2147483647}), {-5, 0, 2147483647}},
      {"<u4", raw<std::uint32_t>({4294967295u, 1, 2}), {4294967295.0, 1, 2}},
      {"<i8", raw<std::int64_t>({-9, 1LL << 40, 3}), {-9, 1099511627776.0, 3}},
      {"<u8", raw<std::uint64_t>({1ULL << 63, 1, 2}), {9223372036854775808.0, 1, 2}},
      {"<f4", raw<float>({0.5f, -1.25f, 3.0f}), {0.5, -1.25, 3.0}},
      {"<f8", raw<double>({0.1, -2.0, 1e300}), {0.1, -2.0, 1e300}},
      {"<f2", raw<std::uint16_t>({0x3c00, 0xc000, 0x3555}), {1.0, -2.0, 0.333251953125}},
      {">f4", reversed_items(raw<float>({0.5f, -1.25f, 3.0f}), 4), {0.5, -1.25, 3.0}},
      {">i8", reversed_items(raw<std::int64_t>({-9, 2, 3}), 8), {-9, 2, 3}},
      {">f2", reversed_items(raw<std::uint16_t>({0x3c00, 0xc000, 0x3555}), 2), {1.0, -2.0, 0.333251953125}},
      {">u2", reversed_items(raw<std::uint16_t>({65535, 1, 2}), 2), {65535, 1, 2}},
  };
  for (const auto& c : cases) {
    const std::string header = "{'descr': '" + c.descr + "', 'fortran_order': False, 'shape': (3,), }";
    const auto array = parse_npy(npy_bytes(header, c.payload), "x.npy");
    ASSERT_TRUE(array) << c.descr << ": " << array.error().str();
    EXPECT_EQ(array->to_doubles(), c.expected) << c.descr;
  }
}

TEST(NpyRead, ExactIntegersAndComplex) {
  auto array = parse_npy(
      npy_bytes("{'descr': '<i8', 'fortran_order': False, 'shape': (1,), }", raw<std::int64_t>({(1LL << 62) + 1})),
      "x.npy");
  ASSERT_TRUE(array);
  EXPECT_EQ(array->int_at(0), (1LL << 62) + 1);
  array = parse_npy(npy_bytes("{'descr': '<u8', 'fortran_order': False, 'shape': (1,), }", raw<std::uint64_t>({~0ULL})),
                    "x.npy");
  ASSERT_TRUE(array);
  EXPECT_EQ(array->uint_at(0), ~0ULL);
  for (const std::string descr : {"<c8", ">c8", "<c16", ">c16"}) {
    const bool wide = descr.find("16") != std::string::npos;
    std::string payload = wide ? raw<double>({1.5, -2.0, 0.0, 3.0}) : raw<float>({1.5f, -2.0f, 0.0f, 3.0f});
    if (descr[0] == '>') payload = reversed_items(payload, wide ? 8 : 4);
    array = parse_npy(npy_bytes("{'descr': '" + descr + "', 'fortran_order': False, 'shape': (2,), }", payload), "c");
    ASSERT_TRUE(array) << descr << ": " << array.error().str();
    EXPECT_EQ(array->complex_at(0), std::complex<double>(1.5, -2.0)) << descr;
    EXPECT_EQ(array->complex_at(1), std::complex<double>(0.0, 3.0)) << descr;
    EXPECT_EQ(array->value_at(0), 1.5) << descr;
  }
}

TEST(NpyRead, Float16Specials) {
  const auto array = parse_npy(npy_bytes("{'descr': '<f2', 'fortran_order': False, 'shape': (7,), }",
                                         raw<std::uint16_t>({0x7c00, 0xfc00, 0x7e00, 0x0001, 0x8000, 0x7bff, 0x0400})),
                               "x.npy");
  ASSERT_TRUE(array) << array.error().str();
  EXPECT_EQ(array->value_at(0), INFINITY);
  EXPECT_EQ(array->value_at(1), -INFINITY);
  EXPECT_TRUE(std::isnan(array->value_at(2)));
  EXPECT_EQ(array->value_at(3), std::ldexp(1.0, -24));  // smallest subnormal
  EXPECT_EQ(array->value_at(4), 0.0);
  EXPECT_TRUE(std::signbit(array->value_at(4)));
  EXPECT_EQ(array->value_at(5), 65504.0);               // largest finite
  EXPECT_EQ(array->value_at(6), std::ldexp(1.0, -14));  // smallest normal
}

TEST(NpyRead, FortranOrderMapsCIndicesToStorage) {
  // numpy: asfortranarray(arange(6).reshape(2, 3)) stores 0 3 1 4 2 5.
  const auto array = parse_npy(
      npy_bytes("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3), }", raw<float>({0, 3, 1, 4, 2, 5})), "f.npy");
  ASSERT_TRUE(array) << array.error().str();
  EXPECT_TRUE(array->fortran_order);
  EXPECT_EQ(array->to_doubles(), (std::vector<double>{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(array->value_at(1), 3.0);  // memory order stays available

  std::vector<float> f3(24);  // shape (2, 3, 4): element (i, j, k) at i + 2j + 6k, value 100i + 10j + k
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 4; ++k)
        f3[static_cast<std::size_t>(i + 2 * j + 6 * k)] = static_cast<float>(100 * i + 10 * j + k);
  const auto cube =
      parse_npy(npy_bytes("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3, 4), }", raw(f3)), "f3.npy");
  ASSERT_TRUE(cube);
  const auto c_order = cube->to_doubles();
  EXPECT_EQ(c_order[0], 0);
  EXPECT_EQ(c_order[1], 1);
  EXPECT_EQ(c_order[4], 10);
  EXPECT_EQ(c_order[12], 100);
  EXPECT_EQ(c_order[23], 123);
}

TEST(NpyRead, ZeroDimAndEmpty) {
  auto array = parse_npy(npy_bytes("{'descr': '<f8', 'fortran_order': False, 'shape': (), }", raw<double>({3.0})), "z");
  ASSERT_TRUE(array) << array.error().str();
  EXPECT_EQ(array->ndim(), 0u);
  EXPECT_EQ(array->size(), 1u);
  EXPECT_EQ(array->value_at(0), 3.0);

  for (const std::string shape : {"(0,)", "(0, 3)", "(3, 0, 2)"}) {
    array = parse_npy(npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': " + shape + ", }", ""), "e");
    ASSERT_TRUE(array) << shape << ": " << array.error().str();
    EXPECT_EQ(array->size(), 0u);
    EXPECT_TRUE(array->to_doubles().empty());
  }
}

TEST(NpyRead, OverflowingShapeIsAnError) {
  const auto array = parse_npy(
      npy_bytes("{'descr': '<f8', 'fortran_order': False, 'shape': (4294967296, 4294967296, 16), }", ""), "huge.npy");
  ASSERT_FALSE(array);
  EXPECT_NE(array.error().str().find("too large"), std::string::npos) << array.error().str();
}

TEST(NpyRead, FileIsMappedNotCopied) {
  test::TempDir dir;
  const std::string path = dir.write("m.npy", npy_bytes(kF32Header, raw<float>({1, 2, 3, 4, 5, 6})));
  const auto array = read_npy(path);
  ASSERT_TRUE(array) << array.error().str();
  EXPECT_TRUE(array->is_mapped());
  EXPECT_EQ(array->value_at(2), 3.0);
  EXPECT_EQ(array->describe(), "float32 array of shape (2, 3)");

  const auto missing = read_npy(dir.path().string() + "/absent.npy");
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().str().find("absent.npy: cannot open"), std::string::npos);
  const auto empty = read_npy(dir.write("empty.npy", ""));
  ASSERT_FALSE(empty);
  EXPECT_NE(empty.error().str().find("truncated"), std::string::npos) << empty.error().str();
}

TEST(NpyDtype, DescrAndNames) {
  EXPECT_EQ(dtype_from_descr("<f4")->descr(), "<f4");
  EXPECT_EQ(dtype_from_descr(">c16")->name(), "complex128");
  EXPECT_EQ(dtype_from_descr("<u1")->descr(), "|u1");  // one-byte items have no order
  EXPECT_EQ(dtype_from_descr("|b1")->name(), "bool");
  EXPECT_EQ(dtype_from_descr("?")->name(), "bool");
  EXPECT_FALSE(dtype_from_descr("<f3"));
  EXPECT_FALSE(dtype_from_descr("|O"));
  EXPECT_FALSE(dtype_from_descr(""));
  EXPECT_EQ(shape_text(std::vector<std::size_t>{5}), "(5,)");
  EXPECT_EQ(shape_text(std::vector<std::size_t>{}), "()");
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::align
