// The restricted unpickler on hand-built pickles: every accepted opcode, the memo's
// reference semantics, numpy arrays in both module spellings, and the refusals (globals
// outside the allow-list, out-of-band buffers, old protocols, truncation, cycles, limits).
#include "align/io/pickle.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "align/io/load.h"
#include "support/npy_file.h"
#include "support/run_binary.h"
#include "support/temp_dir.h"

namespace tipc::align {
namespace {
namespace TIPC_TEST_FILE {

std::string le(std::uint64_t value, int width) {
  std::string out;
  for (int i = 0; i < width; ++i) out += static_cast<char>((value >> (8 * i)) & 0xff);
  return out;
}

// Writes pickle opcodes the way CPython's pickler does.
struct PickleWriter {
  std::string s;

  explicit PickleWriter(int protocol = 3) { s = std::string("\x80", 1) + static_cast<char>(protocol); }
  PickleWriter& op(std::string_view raw) {
    s.append(raw);
    return *this;
  }
  PickleWriter& str(std::string_view text) {
    s += 'X' + le(text.size(), 4);
    s.append(text);
    return *this;
  }
  PickleWriter& short_str(std::string_view text) {
    s += "\x8c" + le(text.size(), 1);
    s.append(text);
    return *this;
  }
  PickleWriter& bytes(std::string_view raw) {
    s += 'B' + le(raw.size(), 4);
    s.append(raw);
    return *this;
  }
  PickleWriter& global(std::string_view module, std::string_view name) {
    s += 'c';
    s.append(module);
    s += '\n';
    s.append(name);
    s += '\n';
    return *this;
  }
  PickleWriter& int1(int v) {
    s += 'K' + le(static_cast<std::uint64_t>(v), 1);
    return *this;
  }
  PickleWriter& int4(std::int32_t v) {
    s += 'J' + le(static_cast<std::uint32_t>(v), 4);
    return *this;
  }
  PickleWriter& put(int index) {
    s += 'q' + le(static_cast<std::uint64_t>(index), 1);
    return *this;
  }
  PickleWriter& get(int index) {
    s += 'h' + le(static_cast<std::uint64_t>(index), 1);
    return *this;
  }
  PickleWriter& stop() {
    s += '.';
    return *this;
  }

  // numpy's dtype(code, False, True) followed by its BUILD state.
  PickleWriter& dtype(std::string_view code, std::string_view order, int flags = 0) {
    global("numpy", "dtype").str(code).op("\x89\x88\x87R");
    op("(").int1(3).str(order).op("NNN").int4(-1).int4(-1).int1(flags).op("tb");
    return *this;
  }
  // _reconstruct(ndarray, (0,), b'b'), memoised at `memo` (before its BUILD, as numpy does).
  PickleWriter& placeholder(std::string_view module, int memo = -1) {
    global(module, "_reconstruct")
        .global("numpy", "ndarray")
        .int1(0)
        .op("\x85")
        .op("C\x01"
            "b")
        .op("\x87R");
    if (memo >= 0) put(memo);
    return *this;
  }
  PickleWriter& shape(const std::vector<int>& dims) {
    op("(");
    for (const int d : dims) int1(d);
    return op("t");
  }
  // A numeric ndarray exactly as np.save pickles it.
  PickleWriter& ndarray(std::string_view module, std::string_view code, std::string_view order,
                        const std::vector<int>& dims, bool fortran, std::string_view raw, int memo = -1) {
    placeholder(module, memo).op("(").int1(1).shape(dims).dtype(code, order);
    op(fortran ? "\x88" : "\x89").bytes(raw).op("tb");
    return *this;
  }
  // The 0-d object array around a dict; `items` writes the keys and values.
  template <typename F>
  PickleWriter& object_dict(std::string_view module, F items) {
    placeholder(module).op("(").int1(1).op(")").dtype("O8", "|", 63).op("\x89]}(");
    items(*this);
    return op("uatb");
  }
};

SharedBytes pickle_bytes(const PickleWriter& w) { return SharedBytes::own(w.s); }

std::string floats(std::initializer_list<float> values) {
  std::string out;
  for (const float v : values) out.append(reinterpret_cast<const char*>(&v), sizeof v);
  return out;
}

void expect_error(const PickleWriter& w, const std::string& needle) {
  const auto value = unpickle(pickle_bytes(w), "evil.npy");
  ASSERT_FALSE(value) << "expected an error containing: " << needle;
  EXPECT_NE(value.error().str().find("evil.npy"), std::string::npos) << value.error().str();
  EXPECT_NE(value.error().str().find(needle), std::string::npos) << value.error().str();
}

TEST(PickleSecurity, OsSystemIsRefusedByNameAndNothingRuns) {
  test::TempDir dir;
  const auto marker = dir.path() / "pwned";
  PickleWriter w;
  w.global("os", "system").put(0).str("touch " + marker.string()).op("\x85R").stop();
  expect_error(w, "global 'os.system' is not allowed");
  EXPECT_FALSE(std::filesystem::exists(marker));
}

TEST(PickleSecurity, BuiltinsEvalThroughStackGlobalIsRefused) {
  PickleWriter w(4);
  w.op("\x95").op(le(40, 8)).short_str("builtins").op("\x94").short_str("eval").op("\x94\x93\x94");
  w.short_str("__import__('os').system('false')").op("\x85R").stop();
  expect_error(w, "global 'builtins.eval' is not allowed");
}

TEST(PickleSecurity, OtherGlobalsAreRefusedByName) {
  for (const auto& [module, name] : std::vector<std::pair<std::string, std::string>>{
           {"copyreg", "_reconstructor"},
           {"posix", "system"},
           {"subprocess", "Popen"},
           {"numpy.core.multiarray", "_unknown"},
           {"numpy", "load"},
           {"numpy.ma.core", "_mareconstruct"},
       }) {
    PickleWriter w;
    w.global(module, name).op(")R").stop();
    expect_error(w, "global '" + module + "." + name + "' is not allowed");
  }
}

TEST(PickleSecurity, ObjectCreatingAndOutOfBandOpcodesAreRefused) {
  expect_error(PickleWriter(5).op("\x97").stop(), "out-of-band");
  expect_error(PickleWriter(5).op("\x98").stop(), "out-of-band");
  expect_error(PickleWriter(3).op("U\x02hi").stop(), "Python 2 byte strings");
  expect_error(PickleWriter(3).global("numpy", "ndarray").op(")\x81").stop(), "NEWOBJ");
  expect_error(PickleWriter(3).op("(i").stop(), "INST");
  expect_error(PickleWriter(3).op("\x82\x01").stop(), "EXT1");
  expect_error(PickleWriter(3).op("P1\n").stop(), "persistent");
  expect_error(PickleWriter(3).op("\xff").stop(), "unsupported pickle opcode 0xff");
}

TEST(PickleSecurity, NdarrayClassCannotBeCalledAndReconstructTakesOnlyNdarray) {
  expect_error(PickleWriter().global("numpy", "ndarray").op(")R").stop(), "cannot be called");
  PickleWriter w;
  w.global("numpy.core.multiarray", "_reconstruct")
      .global("numpy", "dtype")
      .int1(0)
      .op("\x85")
      .op("C\x01"
          "b");
  w.op("\x87R").stop();
  expect_error(w, "only numpy.ndarray is supported");
}

TEST(PickleProtocol, OnlyTwoToFiveAreAccepted) {
  auto value = unpickle(SharedBytes::own(std::string_view("(lp0\n.")), "p0.npy");
  ASSERT_FALSE(value);
  EXPECT_NE(value.error().str().find("protocol 0 or 1"), std::string::npos) << value.error().str();
  expect_error(PickleWriter(6).op("N").stop(), "pickle protocol 6 is not supported");
  expect_error(PickleWriter(1).op("N").stop(), "pickle protocol 1 is not supported");
  for (const int protocol : {2, 3, 4, 5}) {
    value = unpickle(pickle_bytes(PickleWriter(protocol).op("N").stop()), "ok");
    ASSERT_TRUE(value) << protocol;
    EXPECT_TRUE(value->is<Value::None>());
  }
}

TEST(PickleProtocol, TruncationIsReportedWithTheOffset) {
  const std::string whole = PickleWriter().str("hello").stop().s;
  for (std::size_t cut = 0; cut < whole.size(); ++cut) {
    const auto value = unpickle(SharedBytes::own(std::string_view(whole).substr(0, cut)), "cut.npy");
    ASSERT_FALSE(value) << cut;
    EXPECT_NE(value.error().str().find("cut.npy: pickle offset"), std::string::npos) << value.error().str();
  }
  expect_error(PickleWriter().op("B").op(le(1000, 4)).op("abc").stop(), "truncated pickle: 1000 bytes announced");
  expect_error(PickleWriter(4).op("\x95").op(le(1u << 30, 8)).op("N").stop(), "truncated pickle");
}

// How far the .npz reader inflates an object member: to the STOP, and on to the end of a
// FRAME that announced more bytes than come before it (the unpickler refuses a FRAME whose
// bytes are not there, STOP or not: fuzzing found the prefix up to STOP refused).
TEST(PickleEndFinder, APickleEndsAtItsStopOrAtTheEndOfAFrameThatRunsPastIt) {
  const std::string plain = PickleWriter(4).short_str("a.b").stop().s;  // a '.' inside an operand is no STOP
  PickleEndFinder finder;
  ASSERT_EQ(finder.scan(plain + "trailing"), PickleEndFinder::State::kEnd);
  EXPECT_EQ(finder.length(), plain.size());
  const std::string framed = PickleWriter(4).op("\x95").op(le(20, 8)).op("N").stop().s + std::string(18, 'x');
  PickleEndFinder framed_finder;
  EXPECT_EQ(framed_finder.scan(std::string_view(framed).substr(0, 13)), PickleEndFinder::State::kMore);
  ASSERT_EQ(framed_finder.scan(framed + "more"), PickleEndFinder::State::kEnd);
  EXPECT_EQ(framed_finder.length(), framed.size());
  const auto whole = unpickle(SharedBytes::own(framed), "framed.pkl");
  const auto prefix = unpickle(SharedBytes::own(std::string_view(framed).substr(0, framed_finder.length())), "p");
  ASSERT_TRUE(whole) << whole.error().str();
  ASSERT_TRUE(prefix) << prefix.error().str();
  EXPECT_TRUE(prefix->is<Value::None>());
  PickleEndFinder endless;  // a frame no input can hold: never an end, so the whole member is read and refused
  EXPECT_EQ(endless.scan(PickleWriter(4).op("\x95").op(le(~0ull, 8)).op("N").stop().s), PickleEndFinder::State::kMore);
}

TEST(PickleValues, ScalarsStringsAndContainers) {
  PickleWriter w(4);
  w.op("}(");
  w.short_str("float").op("G").op(std::string("\x3f\xe0\x00\x00\x00\x00\x00\x00", 8));  // 0.5, big-endian
  w.short_str("neg").int4(-7);
  w.short_str("int2").op("M").op(le(1000, 2));
  w.short_str("long1").op("\x8a\x02").op(le(0xff00, 2));  // two's complement: -256
  w.short_str("long8").op("\x8a\x08").op(le(0x7fffffffffffffffULL, 8));
  w.short_str("bools").op("\x88\x89\x86");
  w.short_str("none").op("N");
  w.short_str("list").op("](").int1(1).int1(2).op("e").int1(3).op("a");
  w.short_str("bytes8").op("\x8e").op(le(3, 8)).op("abc");
  w.short_str("bytearray").op("\x96").op(le(2, 8)).op("xy");
  w.short_str("unicode8").op("\x8d").op(le(5, 8)).op("h\xc3\xa9!!");
  w.op("u").stop();
  const auto value = unpickle(pickle_bytes(w), "values");
  ASSERT_TRUE(value) << value.error().str();
  const auto* dict = value->get<Value::Dict>();
  ASSERT_NE(dict, nullptr);
  ASSERT_EQ(dict->items.size(), 11u);
  EXPECT_EQ(dict->items[0].first.text, "float");  // insertion order is kept
  EXPECT_EQ(*dict->find("float")->get<double>(), 0.5);
  EXPECT_EQ(*dict->find("neg")->get<std::int64_t>(), -7);
  EXPECT_EQ(*dict->find("int2")->get<std::int64_t>(), 1000);
  EXPECT_EQ(*dict->find("long1")->get<std::int64_t>(), -256);
  EXPECT_EQ(*dict->find("long8")->get<std::int64_t>(), 0x7fffffffffffffffLL);
  const auto& bools = dict->find("bools")->get<Value::Tuple>()->items;
  EXPECT_TRUE(*bools[0]->get<bool>());
  EXPECT_FALSE(*bools[1]->get<bool>());
  EXPECT_TRUE(dict->find("none")->is<Value::None>());
  const auto& list = *dict->find("list")->get<Value::List>();
  ASSERT_EQ(list.size(), 3u);
  EXPECT_EQ(*list[2]->get<std::int64_t>(), 3);
  EXPECT_EQ(dict->find("bytes8")->get<SharedBytes>()->view(), "abc");
  EXPECT_EQ(dict->find("bytearray")->get<SharedBytes>()->view(), "xy");
  EXPECT_EQ(*dict->find("unicode8")->get<std::string>(), "h\xc3\xa9!!");
  EXPECT_EQ(dict->find("missing"), nullptr);
  EXPECT_EQ(value->describe(), "dict");
}

TEST(PickleValues, BadOperandsAreErrors) {
  expect_error(PickleWriter().op("\x8b").op(le(9, 4)).op(std::string(9, '\0')).stop(), "wider than 64 bits");
  expect_error(PickleWriter().op("}").op("]").int1(2).op("s").stop(),
               "dict key of type list is not supported (str, int, float, bool, None, bytes and tuples of these are)");
  expect_error(PickleWriter().int1(1).op("e").stop(), "no MARK");
  expect_error(PickleWriter().op("(a").stop(), "stack underflow");
  expect_error(PickleWriter().op("}(").str("k").op("u").stop(), "odd number");
  expect_error(PickleWriter().get(3).stop(), "memo entry 3 is read before it is written");
  expect_error(PickleWriter().op(std::string("X\x02\x00\x00\x00\xc3(", 7)).stop(), "not valid UTF-8");
  expect_error(PickleWriter().op("N").int1(1).op("a").stop(), "APPEND target list expected, got None");
  expect_error(PickleWriter().op("N").op("}b").stop(), "BUILD on a None");
}

// Keys as np.save pickles them, against Python's own str() of each key (keys.txt).
TEST(PickleKeys, HashableScalarKeysLoadWithPythonsStrOfTheKey) {
  test::TempDir dir;
  dir.write("make.py", R"(import numpy as np
keys = [7, -3, 2**40, 1.5, 1e-05, 1e16, float("inf"), True, None, (1, 'a'), (), (2.5,), ((1, None), b'q'),
        b'x', b'it\'s\n\xff', "plain", "it's", ('it"s', "it's", "\t\u00e9\u00a0"), False]
np.save("keys.npy", {k: np.array([i], dtype=np.float32) for i, k in enumerate(keys)})
with open("keys.txt", "w", encoding="utf-8") as f:
    f.write("".join(str(k) + "\n" for k in keys))
)");
  ASSERT_EQ(std::system(("cd " + test::shell_quote(dir.path().string()) + " && /usr/bin/python3 make.py").c_str()), 0);
  const auto value = load_values((dir.path() / "keys.npy").string());
  ASSERT_TRUE(value) << value.error().str();
  const auto& dict = *value->get<Value::Dict>();
  std::istringstream expected(test::slurp((dir.path() / "keys.txt").string()));
  std::size_t i = 0;
  for (std::string line; std::getline(expected, line); ++i) {
    ASSERT_LT(i, dict.items.size());
    EXPECT_EQ(dict.items[i].first.text, line) << "key " << i;
    EXPECT_EQ(dict.items[i].second->get<Array>()->to_doubles(), (std::vector<double>{static_cast<double>(i)}));
  }
  EXPECT_EQ(i, dict.items.size());
}

// Python's dict equality: 1 == 1.0 == True and (1, 'a') == (1.0, 'a'), but '1' != 1 != b'1'.
TEST(PickleKeys, EqualNumbersAreOneKeyAndKeepTheFirstSpelling) {
  PickleWriter w;
  w.op("}(").int1(1).str("int").op("G").op(std::string("\x3f\xf0\0\0\0\0\0\0", 8)).str("float");
  w.op("\x88").str("bool").str("1").str("str").bytes("1").str("bytes").op("u").stop();
  const auto value = unpickle(pickle_bytes(w), "keys");
  ASSERT_TRUE(value) << value.error().str();
  const auto& dict = *value->get<Value::Dict>();
  ASSERT_EQ(dict.items.size(), 3u);
  EXPECT_EQ(dict.items[0].first.text, "1");
  EXPECT_EQ(*dict.items[0].second->get<std::string>(), "bool");  // the last value, the first key
  EXPECT_EQ(dict.items[1].first.text, "1");
  EXPECT_EQ(dict.items[2].first.text, "b'1'");
  EXPECT_EQ(*dict.find(Value::Key{"1"})->get<std::string>(), "str");
  EXPECT_EQ(dict.find(Value::Key{"2"}), nullptr);
}

TEST(PickleKeys, DeeplyNestedTupleKeyIsRefused) {
  PickleWriter w;
  w.op("}").op("N").op(std::string(300, '\x85')).op("N").op("s").stop();
  expect_error(w, "dict key nested deeper than the limit");
}

TEST(PickleValues, MemoHoldsReferencesAndCyclesAreRefused) {
  PickleWriter w;
  w.op("}(").str("a").op("]").put(0).int1(1).op("a").str("b").get(0).op("u").stop();
  const auto value = unpickle(pickle_bytes(w), "memo");
  ASSERT_TRUE(value) << value.error().str();
  const auto& dict = *value->get<Value::Dict>();
  ASSERT_EQ(dict.items.size(), 2u);
  EXPECT_EQ(dict.items[0].second, dict.items[1].second);  // one list, referenced twice
  EXPECT_EQ(dict.items[1].second->get<Value::List>()->size(), 1u);
  expect_error(PickleWriter().op("]").put(0).get(0).op("a").stop(), "reference cycle");
}

TEST(PickleValues, DepthAndStackLimits) {
  PickleWriter deep;
  deep.op(std::string(300, ']')).op(std::string(299, 'a')).stop();
  expect_error(deep, "nesting deeper than the limit");
  PickleWriter wide;
  wide.op(std::string(50, 'N')).op("t").stop();
  const auto value = unpickle(pickle_bytes(wide), "evil.npy", UnpickleLimits{.max_stack = 10});
  ASSERT_FALSE(value);
  EXPECT_NE(value.error().str().find("stack limit"), std::string::npos);
}

TEST(PickleNumpy, ArrayFilledAfterBeingMemoisedIsSharedFilled) {
  for (const std::string module : {"numpy.core.multiarray", "numpy._core.multiarray", "numpy.core._multiarray_umath",
                                   "numpy._core._multiarray_umath"}) {
    PickleWriter w;
    w.object_dict(module, [&](PickleWriter& p) {
      p.str("first").ndarray(module, "f4", "<", {2, 2}, false, floats({1, 2, 3, 4}), 40);
      p.str("again").get(40);
    });
    w.stop();
    const auto value = unpickle(pickle_bytes(w), "shared");
    ASSERT_TRUE(value) << module << ": " << value.error().str();
    const auto* outer = value->get<Value::ObjectArray>();
    ASSERT_NE(outer, nullptr);
    EXPECT_TRUE(outer->shape.empty());
    const auto& dict = *outer->elements.at(0)->get<Value::Dict>();
    const Array& first = *dict.find("first")->get<Array>();
    EXPECT_EQ(dict.items[0].second, dict.items[1].second);  // one shared node
    EXPECT_EQ(first.shape, (std::vector<std::size_t>{2, 2}));
    EXPECT_EQ(first.to_doubles(), (std::vector<double>{1, 2, 3, 4}));
  }
}

TEST(PickleNumpy, ByteOrderComesFromTheDtypeStateAndFortranFlagIsKept) {
  std::string big = floats({1.5f, -2.0f});
  for (std::size_t i = 0; i < big.size(); i += 4) std::reverse(big.begin() + i, big.begin() + i + 4);
  PickleWriter w;
  w.op("}(").str("be").ndarray("numpy.core.multiarray", "f4", ">", {2}, false, big);
  w.str("f").ndarray("numpy.core.multiarray", "f4", "<", {2, 3}, true, floats({0, 3, 1, 4, 2, 5}));
  w.str("u1").ndarray("numpy.core.multiarray", "u1", "|", {2}, false, "\xff\x01");
  w.op("u").stop();
  const auto value = unpickle(pickle_bytes(w), "orders");
  ASSERT_TRUE(value) << value.error().str();
  const auto& dict = *value->get<Value::Dict>();
  const Array& be = *dict.find("be")->get<Array>();
  EXPECT_EQ(be.dtype.descr(), ">f4");
  EXPECT_EQ(be.to_doubles(), (std::vector<double>{1.5, -2.0}));
  const Array& f = *dict.find("f")->get<Array>();
  EXPECT_TRUE(f.fortran_order);
  EXPECT_EQ(f.to_doubles(), (std::vector<double>{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(dict.find("u1")->get<Array>()->to_doubles(), (std::vector<double>{255, 1}));
}

TEST(PickleNumpy, RawBytesPointIntoTheInputWithoutCopying) {
  PickleWriter w;
  w.ndarray("numpy.core.multiarray", "f4", "<", {3}, false, floats({7, 8, 9})).stop();
  const SharedBytes input = pickle_bytes(w);
  const auto value = unpickle(input, "nocopy");
  ASSERT_TRUE(value) << value.error().str();
  const Array& array = *value->get<Array>();
  EXPECT_GE(array.data.data(), input.data());
  EXPECT_LE(array.data.data() + array.data.size(), input.data() + input.size());
}

TEST(PickleNumpy, ScalarsCodecsAndFrombuffer) {
  PickleWriter w(5);
  w.op("}(");
  w.str("scalar")
      .global("numpy._core.multiarray", "scalar")
      .dtype("f8", "<")
      .op("C\x08")
      .op(std::string("\0\0\0\0\0\0\x04@", 8));
  w.op("\x86R");
  // protocol 2's bytes: _codecs.encode('\xff\x00...', 'latin1'), with U+00FF as UTF-8
  w.str("latin").global("numpy.core.multiarray", "_reconstruct").global("numpy", "ndarray").int1(0).op("\x85");
  w.op("C\x01"
       "b")
      .op("\x87R")
      .op("(")
      .int1(1)
      .shape({2})
      .dtype("u1", "|")
      .op("\x89");
  w.global("_codecs", "encode").str("\xc3\xbf\x01").str("latin1").op("\x86R").op("tb");
  w.str("frombuffer").global("numpy.core.numeric", "_frombuffer").op("(").op("\x96").op(le(8, 8)).op(floats({1, 2}));
  w.dtype("f4", "<").shape({1, 2}).short_str("F").op("tR");
  w.str("empty").global("__builtin__", "bytes").op(")R");
  w.op("u").stop();
  const auto value = unpickle(pickle_bytes(w), "mixed");
  ASSERT_TRUE(value) << value.error().str();
  const auto& dict = *value->get<Value::Dict>();
  const auto* scalar = dict.find("scalar")->get<Value::Scalar>();
  ASSERT_NE(scalar, nullptr);
  EXPECT_EQ(scalar->value.value_at(0), 2.5);
  EXPECT_EQ(dict.find("scalar")->describe(), "numpy float64 scalar");
  EXPECT_EQ(dict.find("latin")->get<Array>()->to_doubles(), (std::vector<double>{255, 1}));
  const Array& fb = *dict.find("frombuffer")->get<Array>();
  EXPECT_TRUE(fb.fortran_order);
  EXPECT_EQ(fb.to_doubles(), (std::vector<double>{1, 2}));
  EXPECT_EQ(dict.find("empty")->get<SharedBytes>()->size(), 0u);
}

TEST(PickleNumpy, MalformedArraysAreErrors) {
  expect_error(PickleWriter().ndarray("numpy.core.multiarray", "f4", "<", {3}, false, floats({1, 2})).stop(),
               "float32 array of shape (3,) needs 12 bytes, the pickle has 8");
  expect_error(PickleWriter().global("numpy", "dtype").str("U5").op("\x89\x88\x87R").stop(), "unsupported dtype 'U5'");
  expect_error(PickleWriter().placeholder("numpy.core.multiarray").stop(), "never filled");
  expect_error(PickleWriter().global("_codecs", "encode").str("\xc4\x80").str("latin1").op("\x86R").stop(),
               "above 255");
  expect_error(PickleWriter().global("_codecs", "encode").str("a").str("utf-8").op("\x86R").stop(), "encoding 'utf-8'");
  PickleWriter v4;
  v4.global("numpy", "dtype").str("M8").op("\x89\x88\x87R");
  expect_error(v4, "unsupported dtype 'M8'");
  PickleWriter meta;
  meta.global("numpy", "dtype").str("f4").op("\x89\x88\x87R").op("(").int1(4).str("<").op("NNN").int4(-1).int4(-1);
  meta.int1(0).op("N").op("tb").stop();
  expect_error(meta, "only version-3 states");
  PickleWriter twice;
  twice.ndarray("numpy.core.multiarray", "f4", "<", {1}, false, floats({1})).op("(").int1(1).shape({1});
  twice.dtype("f4", "<").op("\x89").bytes(floats({1})).op("tb").stop();
  expect_error(twice, "built twice");
  expect_error(PickleWriter().global("numpy", "dtype").op(")R").stop(), "called with 0 arguments");
  expect_error(PickleWriter().global("numpy", "dtype").stop(), "the result holds the callable numpy.dtype");
}

// Issue 37, defect 6: every EMPTY_LIST + APPEND (2 bytes) built a list object and a Value
// (about 190 bytes of memory per byte of file), and only the diff refused the result.
TEST(PickleBudget, EmptyListsBeyondTheBudgetAreRefusedAsTheyAreBuilt) {
  PickleWriter w;
  w.op("]");
  for (int i = 0; i < 100000; ++i) w.op("]a");
  w.stop();
  expect_error(w,
               "pickle offset 65538: the pickle builds more than 65536 objects and container elements, the "
               "budget for its 200004 bytes");
}

TEST(PickleBudget, TheBudgetIsAFloorOrProportionalToThePickle) {
  const UnpickleLimits defaults;
  EXPECT_EQ(defaults.budget_for(1000), 65536u);
  EXPECT_EQ(defaults.budget_for(std::size_t{1} << 30), (std::size_t{1} << 30) / 512);
  // A list, a mark, three items and the three elements APPENDS takes: 8 units.
  const SharedBytes list = pickle_bytes(PickleWriter().op("](NNNe").stop());
  const auto fits = unpickle(list, "list", UnpickleLimits{.budget_floor = 8});
  ASSERT_TRUE(fits) << fits.error().str();
  EXPECT_EQ(fits->get<Value::List>()->size(), 3u);
  const auto over = unpickle(list, "list", UnpickleLimits{.budget_floor = 7});
  ASSERT_FALSE(over);
  EXPECT_NE(over.error().str().find("builds more than 7 objects"), std::string::npos) << over.error().str();
}

TEST(PickleBudget, NoneTrueAndFalseAreOneObjectEach) {
  PickleWriter w;
  w.op("](").op(std::string(1000, 'N')).op("\x88\x88\x89\x89").op("e").stop();
  const auto value = unpickle(pickle_bytes(w), "singletons");
  ASSERT_TRUE(value) << value.error().str();
  const auto& items = *value->get<Value::List>();
  ASSERT_EQ(items.size(), 1004u);
  EXPECT_EQ(items.front(), items[999]) << "a thousand Nones are one Value, as in Python";
  EXPECT_EQ(items[1000], items[1001]);
  EXPECT_EQ(items[1002], items[1003]);
  EXPECT_TRUE(*items[1000]->get<bool>());
  EXPECT_FALSE(*items[1003]->get<bool>());
}

TEST(PickleRootShape, AResultMustBeADictOrAnArrayAndIsCheckedBeforeAnyValueIsBuilt) {
  const PickleWriter lists = PickleWriter().op("](]]]e").stop();
  EXPECT_TRUE(unpickle(pickle_bytes(lists), "any"));
  const auto refused = unpickle(pickle_bytes(lists), "r.npy", {}, PickleRoot::kResult);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().str(),
            "r.npy: pickle offset 8: not a reprod_log result: a list (expected a dict of "
            "arrays, or an array)");
  const auto tuple = unpickle(pickle_bytes(PickleWriter().op("NN\x86").stop()), "t.npy", {}, PickleRoot::kResult);
  ASSERT_FALSE(tuple);
  EXPECT_NE(tuple.error().str().find("not a reprod_log result: a tuple"), std::string::npos);
  PickleWriter dict;
  dict.object_dict("numpy.core.multiarray", [](PickleWriter& p) { p.str("x").int1(1); }).stop();
  EXPECT_TRUE(unpickle(pickle_bytes(dict), "d.npy", {}, PickleRoot::kResult));
  PickleWriter array;
  array.ndarray("numpy.core.multiarray", "f4", "<", {2}, false, floats({1, 2})).stop();
  EXPECT_TRUE(unpickle(pickle_bytes(array), "a.npy", {}, PickleRoot::kResult));
}

TEST(PickleRootShape, LoadValuesRefusesAPickledListAtTheUnpickler) {
  test::TempDir dir;
  const std::string path = dir.write("lists.npy", test::npy_object(PickleWriter().op("](]]e").stop().s));
  const auto value = load_values(path);
  ASSERT_FALSE(value);
  EXPECT_NE(value.error().str().find("lists.npy: pickle offset 7: not a reprod_log result: a list"), std::string::npos)
      << value.error().str();
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::align
