// Every sample numpy wrote into ../shared/align-samples loads through load_values, with
// the contents its README and gen_samples.py describe. Skipped loudly without the folder.
#include "align/io/load.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "support/align_samples.h"
#include "support/paths.h"
#include "support/temp_dir.h"

namespace tipc::align {
namespace {
namespace TIPC_TEST_FILE {

namespace fs = std::filesystem;

std::string samples_dir() { return test::align_samples_dir(); }

Value load(const std::string& name) {
  auto value = load_values(samples_dir() + "/" + name);
  EXPECT_TRUE(value) << name << ": " << value.error().str();
  return value ? *value : Value{};
}

const Value::Dict& dict_of(const Value& value) {
  static const Value::Dict kEmpty;
  const auto* dict = value.get<Value::Dict>();
  EXPECT_NE(dict, nullptr) << "expected a dict, got " << value.describe();
  return dict != nullptr ? *dict : kEmpty;
}

const Array& array_at(const Value::Dict& dict, const std::string& key) {
  static const Array kEmpty;
  const Value* value = dict.find(key);
  EXPECT_NE(value, nullptr) << "no key " << key;
  const Array* array = value != nullptr ? value->get<Array>() : nullptr;
  EXPECT_NE(array, nullptr) << key << " is " << (value != nullptr ? value->describe() : "missing");
  return array != nullptr ? *array : kEmpty;
}

std::vector<std::string> keys(const Value::Dict& dict) {
  std::vector<std::string> out;
  for (const auto& [key, value] : dict.items) out.push_back(key.text);
  return out;
}

std::vector<double> as_f32(std::vector<double> values) {
  for (double& v : values) v = static_cast<float>(v);
  return values;
}

TEST(AlignLoadSamples, EveryNpyAndNpzLoads) {
  SKIP_WITHOUT_ALIGN_SAMPLES();
  int loaded = 0;
  for (const std::string& dir : {samples_dir(), samples_dir() + "/cases"}) {
    for (const auto& entry : fs::directory_iterator(dir)) {
      const std::string ext = entry.path().extension().string();
      if (ext != ".npy" && ext != ".npz") continue;
      const auto value = load_values(entry.path().string());
      EXPECT_TRUE(value) << entry.path() << ": " << value.error().str();
      ++loaded;
    }
  }
  EXPECT_GE(loaded, 33 + 38);  // 33 pinned top-level samples, 19 case pairs
}

TEST(AlignLoadSamples, ResultFilesShareTheMemoisedArray) {
  SKIP_WITHOUT_ALIGN_SAMPLES();
  const Value r1 = load("result_1.npy");
  const auto& d1 = dict_of(r1);
  EXPECT_EQ(keys(d1), (std::vector<std::string>{"demo_test_1", "demo_test_2"}));
  ASSERT_EQ(d1.items.size(), 2u);
  EXPECT_EQ(d1.items[0].second, d1.items[1].second);  // BINGET 17: the same object
  const Array& a = array_at(d1, "demo_test_1");
  EXPECT_EQ(a.dtype.descr(), "<f4");
  EXPECT_EQ(a.shape, (std::vector<std::size_t>{1, 3, 4, 4}));
  EXPECT_TRUE(a.is_mapped());  // points into the mapped file: no copy
  // np.random.seed(0); np.random.rand(...)[:3] as float32
  EXPECT_EQ(a.value_at(0), static_cast<float>(0.5488135039273248));
  EXPECT_EQ(a.value_at(1), static_cast<float>(0.7151893663724195));
  EXPECT_EQ(a.value_at(2), static_cast<float>(0.6027633760716439));

  const Value r2 = load("result_2.npy");
  const auto& d2 = dict_of(r2);
  EXPECT_EQ(array_at(d2, "demo_test_1").to_doubles(), a.to_doubles());
  EXPECT_NE(array_at(d2, "demo_test_2").to_doubles(), a.to_doubles());

  const Value np2 = load("np2sim_result_2.npy");  // protocol 4, numpy._core spelling
  const auto& d3 = dict_of(np2);
  EXPECT_EQ(keys(d3), keys(d2));
  for (const auto& key : keys(d2)) EXPECT_EQ(array_at(d3, key).to_doubles(), array_at(d2, key).to_doubles()) << key;
}

TEST(AlignLoadSamples, OneKeyPerDtype) {
  SKIP_WITHOUT_ALIGN_SAMPLES();
  struct Case {
    std::string file;
    std::string descr;
    std::vector<double> values;  // (arange(6).reshape(2, 3) * 1.5).astype(dt)
  };
  const std::vector<double> exact = {0, 1.5, 3, 4.5, 6, 7.5};
  const std::vector<Case> cases = {
      {"dtype_float32.npy", "<f4", exact},
      {"dtype_float64.npy", "<f8", exact},
      {"dtype_float16.npy", "<f2", exact},
      {"dtype_int64.npy", "<i8", {0, 1, 3, 4, 6, 7}},
      {"dtype_int32.npy", "<i4", {0, 1, 3, 4, 6, 7}},
      {"dtype_uint8.npy", "|u1", {0, 1, 3, 4, 6, 7}},
      {"dtype_int8.npy", "|i1", {0, 1, 3, 4, 6, 7}},
      {"dtype_bool.npy", "|b1", {0, 1, 1, 1, 1, 1}},
      {"dtype_complex64.npy", "<c8", exact},
  };
  for (const auto& c : cases) {
    const Value value = load(c.file);
    const Array& x = array_at(dict_of(value), "x");
    EXPECT_EQ(x.dtype.descr(), c.descr) << c.file;
    EXPECT_EQ(x.shape, (std::vector<std::size_t>{2, 3})) << c.file;
    EXPECT_EQ(x.to_doubles(), c.values) << c.file;
    if (c.descr == "<c8") {
      EXPECT_EQ(x.complex_at(5), std::complex<double>(7.5, 0.0));
    }
  }
  const Value be = load("dtype_gt_f4_bigendian.npy");
  const Array& x = array_at(dict_of(be), "x");
  EXPECT_EQ(x.dtype.descr(), ">f4");
  EXPECT_EQ(x.to_doubles(), (std::vector<double>{0, 1, 2}));
}

TEST(AlignLoadSamples, ZeroDimEmptyFortranNoncontig) {
  SKIP_WITHOUT_ALIGN_SAMPLES();
  const Value zero = load("zero_dim.npy");
  const Array& loss = array_at(dict_of(zero), "loss");
  EXPECT_TRUE(loss.shape.empty());
  EXPECT_EQ(loss.value_at(0), 0.5);
  const Array& n = array_at(dict_of(zero), "n");
  EXPECT_EQ(n.dtype.descr(), "<i8");
  EXPECT_EQ(n.int_at(0), 7);

  const Value empty = load("empty.npy");
  const Array& e = array_at(dict_of(empty), "e");
  EXPECT_EQ(e.shape, (std::vector<std::size_t>{0, 3}));
  EXPECT_EQ(e.size(), 0u);

  const Value fortran = load("fortran.npy");
  const Array& f = array_at(dict_of(fortran), "f");
  EXPECT_TRUE(f.fortran_order);
  EXPECT_EQ(f.value_at(1), 3.0);  // column-major payload 0 3 1 4 2 5
  EXPECT_EQ(f.to_doubles(), (std::vector<double>{0, 1, 2, 3, 4, 5}));

  const Value strided = load("noncontig.npy");
  const Array& s = array_at(dict_of(strided), "s");
  EXPECT_FALSE(s.fortran_order);
  EXPECT_EQ(s.shape, (std::vector<std::size_t>{3, 2}));
  EXPECT_EQ(s.to_doubles(), (std::vector<double>{0, 2, 4, 6, 8, 10}));
}

TEST(AlignLoadSamples, PythonValuesAndNumpyScalars) {
  SKIP_WITHOUT_ALIGN_SAMPLES();
  const Value value = load("python_values.npy");
  const auto& d = dict_of(value);
  EXPECT_EQ(keys(d),
            (std::vector<std::string>{"pyfloat", "pyint", "pylist", "str", "none", "np_f32_scalar", "np_f64_scalar"}));
  EXPECT_EQ(*d.find("pyfloat")->get<double>(), 0.5);
  EXPECT_EQ(*d.find("pyint")->get<std::int64_t>(), 3);
  const auto& list = *d.find("pylist")->get<Value::List>();
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(*list[1]->get<double>(), 2.0);
  EXPECT_EQ(*d.find("str")->get<std::string>(), "abc");
  EXPECT_TRUE(d.find("none")->is<Value::None>());
  const auto* f32 = d.find("np_f32_scalar")->get<Value::Scalar>();
  ASSERT_NE(f32, nullptr);
  EXPECT_EQ(f32->value.dtype.descr(), "<f4");
  EXPECT_EQ(f32->value.value_at(0), 1.25);
  EXPECT_EQ(d.find("np_f64_scalar")->get<Value::Scalar>()->value.value_at(0), 2.5);

  const Value np2 = load("np2sim_scalar_nested.npy");
  const auto& d2 = dict_of(np2);
  EXPECT_EQ(d2.find("s")->get<Value::Scalar>()->value.value_at(0), 1.25);
  EXPECT_EQ(array_at(dict_of(*d2.find("n")), "z").to_doubles(), (std::vector<double>{0, 0}));
}

TEST(AlignLoadSamples, NestedDicts) {
  SKIP_WITHOUT_ALIGN_SAMPLES();
  const Value value = load("nested.npy");
  const auto& d = dict_of(value);
  EXPECT_EQ(keys(d), (std::vector<std::string>{"outer", "top"}));
  const auto& outer = dict_of(*d.find("outer"));
  EXPECT_EQ(keys(outer), (std::vector<std::string>{"inner_a", "deeper"}));
  EXPECT_EQ(array_at(outer, "inner_a").to_doubles(), (std::vector<double>{1, 1}));
  EXPECT_EQ(array_at(dict_of(*outer.find("deeper")), "z").dtype.descr(), "<f8");
  EXPECT_EQ(array_at(d, "top").to_doubles(), (std::vector<double>{1}));
}

TEST(AlignLoadSamples, AlexNetStyleFiles) {
  SKIP_WITHOUT_ALIGN_SAMPLES();
  const Value top1 = load("alexnet_top1.npy");
  EXPECT_EQ(array_at(dict_of(top1), "top1").to_doubles(), as_f32({0.5655}));

  const Value bp = load("alexnet_bp_align.npy");
  const auto& losses = dict_of(bp);
  ASSERT_EQ(losses.items.size(), 5u);
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(array_at(losses, "loss_" + std::to_string(i)).to_doubles(), as_f32({2.0 + i * 0.1})) << i;
  }

  const Value lr = load("alexnet_lr.npy");
  const auto lrs = array_at(dict_of(lr), "lr").to_doubles();
  ASSERT_EQ(lrs.size(), 90u);
  EXPECT_EQ(lrs[0], 0.1);
  EXPECT_EQ(lrs[30], 0.01);
  EXPECT_EQ(lrs[89], 0.001);
}

TEST(AlignLoadSamples, LargeArrayAndManyKeys) {
  SKIP_WITHOUT_ALIGN_SAMPLES();
  const Value large = load("large_array.npy");
  const auto big = array_at(dict_of(large), "big").to_doubles();
  ASSERT_EQ(big.size(), 1000u);
  EXPECT_EQ(big[999], 999.0);

  const Value many = load("many_keys.npy");
  const auto& d = dict_of(many);
  ASSERT_EQ(d.items.size(), 1005u);  // two SETITEMS batches, LONG_BINPUT
  for (std::size_t i = 0; i < d.items.size(); ++i) {
    std::string key = std::to_string(i);
    key = "k" + std::string(4 - key.size(), '0') + key;
    ASSERT_EQ(d.items[i].first.text, key);
    ASSERT_EQ(d.items[i].second->get<Array>()->to_doubles(), (std::vector<double>{static_cast<double>(i)}));
  }
}

TEST(AlignLoadSamples, PlainArrays) {
  SKIP_WITHOUT_ALIGN_SAMPLES();
  const Value f32 = load("plain_f32.npy");
  const Array* a = f32.get<Array>();
  ASSERT_NE(a, nullptr) << f32.describe();
  EXPECT_EQ(a->describe(), "float32 array of shape (2, 3)");
  EXPECT_TRUE(a->is_mapped());
  EXPECT_EQ(a->to_doubles(), (std::vector<double>{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(load("plain_i64_1.npy").get<Array>()->int_at(0), 0);
  const Value zero = load("plain_0d.npy");
  EXPECT_TRUE(zero.get<Array>()->shape.empty());
  EXPECT_EQ(zero.get<Array>()->value_at(0), 3.0);
}

TEST(AlignLoadSamples, OlderAndNewerProtocols) {
  SKIP_WITHOUT_ALIGN_SAMPLES();
  for (const std::string file : {"proto2_result.npy", "proto5_result.npy"}) {
    const Value value = load(file);
    const Array& x = array_at(dict_of(value), "x");
    EXPECT_EQ(x.dtype.descr(), "<f4") << file;
    EXPECT_EQ(x.to_doubles(), (std::vector<double>{0, 1, 2})) << file;
  }
}

TEST(AlignLoadSamples, CasePairsLoadAsDicts) {
  SKIP_WITHOUT_ALIGN_SAMPLES();
  const Value dtypes = load("cases/dtypes_1.npy");
  const auto& d = dict_of(dtypes);
  EXPECT_EQ(keys(d), (std::vector<std::string>{"f32f64", "i64", "u8", "f16"}));
  EXPECT_EQ(array_at(d, "f16").value_at(0), 0.0999755859375);
  const Value fortran = load("cases/fortran_mean_f32_1.npy");
  const Array& fa = array_at(dict_of(fortran), "w");
  EXPECT_TRUE(fa.fortran_order) << fa.describe();
  EXPECT_EQ(fa.shape, (std::vector<std::size_t>{150, 160}));
}

TEST(AlignLoadErrors, MissingFileAndGarbage) {
  test::TempDir dir;
  auto value = load_values(dir.path().string() + "/none.npy");
  ASSERT_FALSE(value);
  EXPECT_NE(value.error().str().find("none.npy: cannot open"), std::string::npos) << value.error().str();
  value = load_values(dir.write("garbage.npy", "hello world, not numpy"));
  ASSERT_FALSE(value);
  EXPECT_NE(value.error().str().find("garbage.npy: not a .npy file: bad magic"), std::string::npos)
      << value.error().str();
}

TEST(AlignLoadErrors, EvilObjectNpyIsRefusedAndNothingRuns) {
  test::TempDir dir;
  const auto marker = dir.path() / "pwned";
  std::string header = "{'descr': '|O', 'fortran_order': False, 'shape': (), }";
  while ((10 + header.size() + 1) % 64 != 0) header += ' ';
  header += '\n';
  const std::string command = "touch " + marker.string();
  std::string pickle =
      "\x80\x03"
      "cposix\nsystem\nq\x00X";
  for (int i = 0; i < 4; ++i) pickle += static_cast<char>((command.size() >> (8 * i)) & 0xff);
  pickle += command + "\x85R.";
  const std::string bytes =
      std::string("\x93NUMPY\x01\x00", 8) + static_cast<char>(header.size()) + '\0' + header + pickle;
  const auto value = load_values(dir.write("evil.npy", bytes));
  ASSERT_FALSE(value);
  EXPECT_NE(value.error().str().find("evil.npy: pickle offset 2: global 'posix.system' is not allowed"),
            std::string::npos)
      << value.error().str();
  EXPECT_FALSE(fs::exists(marker));
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::align
