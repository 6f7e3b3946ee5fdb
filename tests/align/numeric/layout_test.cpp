// Layout transforms: rules from YAML, their axes, and a diff that reads B through them.
#include "align/numeric/layout.h"

#include <gtest/gtest.h>

#include <cstring>
#include <numeric>

#include <yaml-cpp/yaml.h>

#include "align/checks/diff.h"
#include "compat/reprod_log_rules.h"
#include "support/run_binary.h"
#include "support/temp_dir.h"

namespace tipc::align {
namespace {
namespace TIPC_TEST_FILE {

std::vector<LayoutRule> rules_from(const std::string& yaml) {
  auto rules = layout_rules_from_yaml(YAML::Load(yaml), "layout.yaml");
  EXPECT_TRUE(rules.has_value()) << (rules ? "" : rules.error().str());
  return rules ? *rules : std::vector<LayoutRule>{};
}

std::string rule_error(const std::string& yaml) {
  auto rules = layout_rules_from_yaml(YAML::Load(yaml), "layout.yaml");
  return rules ? "no error" : rules.error().str();
}

// A float32 array of `shape` holding values[i] at C-order index i.
Value::Ptr float_array(std::vector<std::size_t> shape, const std::vector<float>& values) {
  Array array{Dtype{DtypeKind::kFloat, 4, ByteOrder::kLittle}, std::move(shape), false,
              SharedBytes::own(std::string_view(reinterpret_cast<const char*>(values.data()), values.size() * 4))};
  return std::make_shared<Value>(Value{std::move(array)});
}

Value dict_of(std::vector<std::pair<Value::Key, Value::Ptr>> items) { return Value{Value::Dict{std::move(items)}}; }

// numpy's x.transpose(axes) of a C-ordered array, as a C-ordered copy.
std::vector<float> transposed(const std::vector<float>& x, const std::vector<std::size_t>& shape,
                              const std::vector<std::size_t>& axes) {
  std::vector<std::size_t> out_shape, strides(shape.size());
  std::size_t step = 1;
  for (std::size_t i = shape.size(); i-- > 0;) {
    strides[i] = step;
    step *= shape[i];
  }
  for (const std::size_t axis : axes) out_shape.push_back(shape[axis]);
  std::vector<float> out(x.size());
  std::vector<std::size_t> index(shape.size(), 0);
  for (std::size_t n = 0; n < out.size(); ++n) {
    std::size_t source = 0;
    for (std::size_t i = 0; i < axes.size(); ++i) source += index[i] * strides[axes[i]];
    out[n] = x[source];
    for (std::size_t i = index.size(); i-- > 0;) {
      if (++index[i] < out_shape[i]) break;
      index[i] = 0;
    }
  }
  return out;
}

std::vector<float> counting(std::size_t n) {
  std::vector<float> values(n);
  std::iota(values.begin(), values.end(), 1.0f);
  return values;
}

TEST(LayoutRules, ReadNamedTransformsAndPermutationsInFileOrder) {
  const auto rules = rules_from("fc.weight: transpose\n'features.*.weight': oihw_to_hwio\nhead: [0, 2, 1]\n");
  ASSERT_EQ(rules.size(), 3u);
  EXPECT_EQ(rules[1].transform, "oihw_to_hwio");
  EXPECT_EQ(rules[2].transform, "[0, 2, 1]");
  EXPECT_EQ(rules[2].source, "layout.yaml:3");
  EXPECT_EQ(find_layout_rule(rules, "features.3.weight"), &rules[1]);
  EXPECT_EQ(find_layout_rule(rules, "fc.weight"), &rules[0]);
  EXPECT_EQ(find_layout_rule(rules, "features.3.bias"), nullptr);
}

TEST(LayoutRules, BadRulesNameFileLineAndKey) {
  EXPECT_NE(rule_error("a: transpose\nconv.weight: nchw\n").find("layout.yaml:2: layout of 'conv.weight'"),
            std::string::npos)
      << rule_error("a: transpose\nconv.weight: nchw\n");
  EXPECT_NE(rule_error("x: [0, 0, 1]\n").find("each axis 0..n-1 exactly once"), std::string::npos);
  EXPECT_NE(rule_error("x: [a, b]\n").find("list of axis numbers"), std::string::npos);
  EXPECT_NE(rule_error("- transpose\n").find("expected a map"), std::string::npos);
}

TEST(LayoutRules, AxesOfNamedTransformsAndRankErrors) {
  const auto rules = rules_from("a: oihw_to_hwio\nb: hwio_to_oihw\nc: transpose\n");
  EXPECT_EQ(*layout_axes(rules[0], 4), (std::vector<std::size_t>{2, 3, 1, 0}));
  EXPECT_EQ(*layout_axes(rules[1], 4), (std::vector<std::size_t>{3, 2, 0, 1}));
  EXPECT_EQ(*layout_axes(rules[2], 3), (std::vector<std::size_t>{2, 1, 0}));
  const auto wrong_rank = layout_axes(rules[0], 2);
  ASSERT_FALSE(wrong_rank.has_value());
  EXPECT_NE(wrong_rank.error().str().find("needs a 4-D array, got 2-D"), std::string::npos);
}

TEST(LayoutCopy, PermutedCopyIsNumpysContiguousTransposeInEitherStorageOrder) {
  const std::vector<std::size_t> shape{2, 3, 4}, axes{2, 0, 1};
  const std::vector<float> values = counting(24);
  const Array c_order = *float_array(shape, values)->get<Array>();
  const Array copy = permuted_copy(c_order, axes);
  EXPECT_EQ(copy.shape, (std::vector<std::size_t>{4, 2, 3}));
  EXPECT_FALSE(copy.fortran_order);
  const std::vector<float> expected = transposed(values, shape, axes);
  EXPECT_EQ(copy.to_doubles(), std::vector<double>(expected.begin(), expected.end()));

  // The same elements stored in Fortran order: the bytes of the (4, 3, 2) C array x.T.
  Array fortran = *float_array({4, 3, 2}, transposed(values, shape, {2, 1, 0}))->get<Array>();
  fortran.shape = shape;
  fortran.fortran_order = true;
  EXPECT_EQ(permuted_copy(fortran, axes).to_doubles(), copy.to_doubles());
}

TEST(LayoutDiff, ConvKernelInAnotherLayoutComparesThroughItsTransform) {
  // A (e.g. TensorFlow) holds HWIO (3, 3, 2, 4); B (PyTorch) holds the same kernel as OIHW (4, 2, 3, 3).
  const std::vector<std::size_t> hwio{3, 3, 2, 4};
  const std::vector<float> kernel = counting(72);
  const auto oihw_values = transposed(kernel, hwio, {3, 2, 0, 1});
  const Value a = dict_of({{"conv.weight", float_array(hwio, kernel)}});
  const Value b = dict_of({{"conv.weight", float_array({4, 2, 3, 3}, oihw_values)}});

  DiffOptions options;
  // Without a rule reprod_log's auto-transpose (a.T, all axes reversed) makes the shapes
  // agree but reads H and W swapped: a false failure.
  const auto auto_transposed = compare_values(a, b, options, "a.npy", "b.npy");
  ASSERT_TRUE(auto_transposed.has_value());
  EXPECT_EQ(auto_transposed->compare_lines, std::vector<std::string>{"transpose sub_data1"});
  EXPECT_FALSE(auto_transposed->passed);
  options.layout = rules_from("conv.weight: oihw_to_hwio\n");
  const auto aligned = compare_values(a, b, options, "a.npy", "b.npy");
  ASSERT_TRUE(aligned.has_value()) << aligned.error().str();
  EXPECT_TRUE(aligned->passed);
  EXPECT_EQ(aligned->entries[0].diff.stats.max.text(), "0.0");
  // The inverse transform gives B the shape (3, 3, 4, 2), which does not broadcast with A's.
  options.layout = rules_from("conv.weight: hwio_to_oihw\n");
  EXPECT_FALSE(compare_values(a, b, options, "a.npy", "b.npy").has_value()) << "(3, 3, 4, 2) vs (3, 3, 2, 4)";
}

TEST(LayoutDiff, SquareLinearWeightNeedsTheExplicitTranspose) {
  // Square weights defeat reprod_log's shape-based auto-transpose: only the rule finds them equal.
  const std::vector<float> weight = counting(9);
  const Value a = dict_of({{"fc.weight", float_array({3, 3}, weight)}});
  const Value b = dict_of({{"fc.weight", float_array({3, 3}, transposed(weight, {3, 3}, {1, 0}))}});
  DiffOptions options;
  const auto plain = compare_values(a, b, options, "a.npy", "b.npy");
  ASSERT_TRUE(plain.has_value());
  EXPECT_FALSE(plain->passed);
  options.layout = rules_from("'*.weight': transpose\n");
  const auto aligned = compare_values(a, b, options, "a.npy", "b.npy");
  ASSERT_TRUE(aligned.has_value());
  EXPECT_TRUE(aligned->passed);
  EXPECT_TRUE(aligned->compare_lines.empty()) << "no auto-transpose after the explicit one";
}

TEST(LayoutDiff, RuleForTheWrongRankFailsNamingKeyAndRule) {
  const Value a = dict_of({{"fc.weight", float_array({2, 3}, counting(6))}});
  const Value b = dict_of({{"fc.weight", float_array({2, 3}, counting(6))}});
  DiffOptions options;
  options.layout = rules_from("fc.weight: oihw_to_hwio\n");
  const auto result = compare_values(a, b, options, "a.npy", "b.npy");
  ASSERT_FALSE(result.has_value());
  EXPECT_NE(result.error().str().find("key 'fc.weight' of b.npy"), std::string::npos) << result.error().str();
  EXPECT_NE(result.error().str().find("layout.yaml:1"), std::string::npos);
}

TEST(LayoutDiff, RuleMatchingNoKeyIsAWarningInStrictModeOnly) {
  const Value a = dict_of({{"fc.weight", float_array({2}, counting(2))}});
  DiffOptions options;
  options.layout = rules_from("fc.wieght: transpose\n");
  const auto strict = compare_values(a, a, options, "a.npy", "b.npy");
  ASSERT_TRUE(strict.has_value());
  ASSERT_EQ(strict->warnings.size(), 1u);
  EXPECT_NE(strict->warnings[0].find("'fc.wieght: transpose' (layout.yaml:1) matched no key"), std::string::npos);
  options.rules = compat::reprod_log_diff_rules();
  EXPECT_TRUE(compare_values(a, a, options, "a.npy", "b.npy")->warnings.empty());
}

TEST(LayoutCommand, DiffReadsTheLayoutFile) {
  test::TempDir dir;
  const std::string make = R"(import numpy as np
k = np.arange(72, dtype=np.float32).reshape(3, 3, 2, 4)
np.save("tf.npy", {"conv.weight": k})
np.save("torch.npy", {"conv.weight": k.transpose(3, 2, 0, 1).copy()})
)";
  dir.write("make.py", make);
  ASSERT_EQ(std::system(("cd " + test::shell_quote(dir.path()) + " && /usr/bin/python3 make.py").c_str()), 0);
  dir.write("layout.yaml", "layout:\n  conv.weight: oihw_to_hwio\n");
  dir.write("bad_layout.yaml", "layout:\n  conv.weight: oihw_to_hwoi\n");
  EXPECT_EQ(test::run_tipc(dir.path(), {"diff", "tf.npy", "torch.npy"}).exit_code, 1);
  const auto aligned = test::run_tipc(dir.path(), {"diff", "tf.npy", "torch.npy", "--layout", "layout.yaml"});
  EXPECT_EQ(aligned.exit_code, 0) << aligned.err;
  EXPECT_NE(aligned.out.find("diff check passed"), std::string::npos);
  const auto bad = test::run_tipc(dir.path(), {"diff", "tf.npy", "torch.npy", "--layout", "bad_layout.yaml"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("bad_layout.yaml:2: layout of 'conv.weight'"), std::string::npos) << bad.err;
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::align
