// `tipc-run init-check`, run as a user would, on .npy files written by the test (plain
// arrays) or by numpy (reprod_log dicts and .npz, which need a pickle or a zip).
#include <gtest/gtest.h>

#include <cstdlib>
#include <nlohmann/json.hpp>
#include <numeric>
#include <random>

#include "support/npy_file.h"
#include "support/run_binary.h"
#include "support/temp_dir.h"

namespace tipc::test {
namespace {
namespace TIPC_TEST_FILE {

std::vector<float> normal_sample(double stddev, unsigned seed, std::size_t n = 5000) {
  std::mt19937 engine(seed);
  std::normal_distribution<double> distribution(0, stddev);
  std::vector<float> values(n);
  for (auto& v : values) v = static_cast<float>(distribution(engine));
  return values;
}

bool python_has_numpy() { return std::system("/usr/bin/python3 -c 'import numpy' >/dev/null 2>&1") == 0; }

#define SKIP_WITHOUT_NUMPY()                                                                                     \
  if (!python_has_numpy()) {                                                                                     \
    if (std::getenv("CI")) FAIL() << "CI must run this test: /usr/bin/python3 lacks numpy";                      \
    GTEST_SKIP() << "INIT-CHECK DICT FILES NOT CHECKED: /usr/bin/python3 lacks numpy (scripts/install-deps.sh)"; \
  }

// reprod_log dicts (np.save of a dict, with a Python int among the arrays) and .npz files.
// The seeds are chosen so that the same-distribution pairs (conv.weight, the .npz's w) are
// well inside the KS critical value (about a third of it); fc.bias has very different scales.
void write_dict_files(const TempDir& dir) {
  const std::string script = dir.write("make.py", R"(import numpy as np
a, b = np.random.default_rng(1), np.random.default_rng(2)
np.save('a.npy', {'conv': {'weight': a.normal(0, 0.02, 4000).astype('float32')},
                  'fc.bias': a.normal(0, 1, 500).astype('float32'), 'only_a': np.zeros(3, 'float32'), 'epoch': 3})
np.save('b.npy', {'conv': {'weight': b.normal(0, 0.02, 4000).astype('float32')},
                  'fc.bias': b.normal(0, 0.01, 500).astype('float32'), 'only_b': np.ones(3, 'float32'), 'epoch': 3})
np.savez('c.npz', w=np.random.default_rng(4).normal(0, 0.02, 4000))
np.savez('d.npz', w=np.random.default_rng(14).normal(0, 0.02, 4000))
)");
  ASSERT_EQ(std::system(("cd " + shell_quote(dir.path().string()) + " && /usr/bin/python3 make.py").c_str()), 0);
}

TEST(InitCheckCommand, TwoDrawsOfTheSameInitialiserPass) {
  TempDir dir;
  dir.write("a.npy", npy_float32(normal_sample(0.02, 1)));
  dir.write("b.npy", npy_float32(normal_sample(0.02, 2)));
  const auto result = run_tipc(dir.path().string(), {"init-check", "a.npy", "b.npy"});
  EXPECT_EQ(result.exit_code, 0) << result.out << result.err;
  EXPECT_NE(result.out.find("KS limit: the two-sample critical value at alpha = 0.01"), std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("mean A      mean B       std A       std B"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("(array)"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find(" PASS\n"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("tipc-run init-check: 1 passed, 0 failed\n"), std::string::npos) << result.out;
}

TEST(InitCheckCommand, AWrongScaleFails) {
  TempDir dir;
  dir.write("a.npy", npy_float32(normal_sample(0.02, 1)));
  dir.write("b.npy", npy_float32(normal_sample(0.01, 2)));
  const auto result = run_tipc(dir.path().string(), {"init-check", "a.npy", "b.npy"});
  EXPECT_EQ(result.exit_code, 1) << result.out << result.err;
  EXPECT_NE(result.out.find(" FAIL\n"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("0 passed, 1 failed"), std::string::npos) << result.out;
}

TEST(InitCheckCommand, JsonHoldsStatisticsAndBothHistograms) {
  TempDir dir;
  dir.write("a.npy", npy_float32(normal_sample(0.02, 1)));
  dir.write("b.npy", npy_float32(normal_sample(0.02, 2, 3000)));
  auto result = run_tipc(dir.path().string(), {"init-check", "a.npy", "b.npy", "--bins", "10", "--json", "out/i.json"});
  ASSERT_EQ(result.exit_code, 0) << result.out << result.err;
  auto json = nlohmann::json::parse(slurp((dir.path() / "out/i.json").string()));
  EXPECT_EQ(json["bins"], 10);
  EXPECT_EQ(json["ks_limit"], "critical_value");
  EXPECT_EQ(json["threshold"], nullptr);
  EXPECT_EQ(json["passed"], 1);
  ASSERT_EQ(json["keys"].size(), 1u);
  const auto& key = json["keys"][0];
  EXPECT_EQ(key["key"], "");
  EXPECT_EQ(key["status"], "PASS");
  EXPECT_EQ(key["a"]["count"], 5000);
  EXPECT_EQ(key["b"]["count"], 3000);
  EXPECT_NEAR(key["a"]["std"].get<double>(), 0.02, 0.002);
  EXPECT_EQ(key["histogram"]["bin_edges"].size(), 11u);
  const auto a_counts = key["histogram"]["a_counts"].get<std::vector<std::size_t>>();
  const auto b_counts = key["histogram"]["b_counts"].get<std::vector<std::size_t>>();
  EXPECT_EQ(std::accumulate(a_counts.begin(), a_counts.end(), std::size_t{0}), 5000u);
  EXPECT_EQ(std::accumulate(b_counts.begin(), b_counts.end(), std::size_t{0}), 3000u);
  EXPECT_GT(key["histogram_overlap"].get<double>(), 0.9);

  result =
      run_tipc(dir.path().string(), {"init-check", "a.npy", "b.npy", "--threshold", "1e-9", "--json", "out/i.json"});
  EXPECT_EQ(result.exit_code, 1) << result.out;
  EXPECT_NE(result.out.find("KS limit: the fixed --threshold 1e-09"), std::string::npos) << result.out;
  json = nlohmann::json::parse(slurp((dir.path() / "out/i.json").string()));
  EXPECT_EQ(json["ks_limit"], "threshold");
  EXPECT_EQ(json["threshold"], 1e-9);
  EXPECT_EQ(json["keys"][0]["ks_limit"], 1e-9);
  EXPECT_EQ(json["keys"][0]["status"], "FAIL");
}

TEST(InitCheckCommand, DictsCompareEveryCommonKeyAndListTheOthers) {
  SKIP_WITHOUT_NUMPY();
  TempDir dir;
  write_dict_files(dir);
  const auto result = run_tipc(dir.path().string(), {"init-check", "a.npy", "b.npy"});
  EXPECT_EQ(result.exit_code, 1) << result.out << result.err;
  EXPECT_NE(result.out.find("\nconv.weight "), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("\nfc.bias "), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("only in A (a.npy): only_a\n"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("only in B (b.npy): only_b\n"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("not compared (not arrays): epoch\n"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("1 passed, 1 failed"), std::string::npos) << result.out;

  const auto npz = run_tipc(dir.path().string(), {"init-check", "c.npz", "d.npz"});
  EXPECT_EQ(npz.exit_code, 0) << npz.out << npz.err;
  EXPECT_NE(npz.out.find("\nw "), std::string::npos) << npz.out;
}

TEST(InitCheckCommand, KeysSelectRowsAndAMissingKeyNamesTheFile) {
  SKIP_WITHOUT_NUMPY();
  TempDir dir;
  write_dict_files(dir);
  auto result = run_tipc(dir.path().string(), {"init-check", "a.npy", "b.npy", "--key", "conv.weight"});
  EXPECT_EQ(result.exit_code, 0) << result.out << result.err;
  EXPECT_EQ(result.out.find("fc.bias"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("1 passed, 0 failed"), std::string::npos) << result.out;

  result = run_tipc(dir.path().string(), {"init-check", "a.npy", "b.npy", "--key", "conv.weight", "--key", "only_a"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("tipc-run init-check: error: b.npy: key 'only_a' is not in the file"), std::string::npos)
      << result.err;
  result = run_tipc(dir.path().string(), {"init-check", "a.npy", "b.npy", "--key", "conv"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("a.npy: key 'conv' is not in the file"), std::string::npos) << result.err;
  result = run_tipc(dir.path().string(), {"init-check", "a.npy", "b.npy", "--key", "epoch"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("a.npy: key 'epoch' is not an array (int)"), std::string::npos) << result.err;

  dir.write("plain.npy", npy_float32(normal_sample(0.02, 1)));
  result = run_tipc(dir.path().string(), {"init-check", "plain.npy", "a.npy"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("plain.npy is a plain array and a.npy a dict of arrays"), std::string::npos) << result.err;
}

TEST(InitCheckCommand, BadInputIsExitTwo) {
  TempDir dir;
  dir.write("a.npy", npy_float32(normal_sample(0.02, 1)));
  dir.write("empty.npy", npy_float32({}));
  auto result = run_tipc(dir.path().string(), {"init-check", "a.npy", "missing.npy"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("missing.npy: cannot open"), std::string::npos) << result.err;
  result = run_tipc(dir.path().string(), {"init-check", "a.npy", "empty.npy"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("a.npy vs empty.npy: the second tensor is empty"), std::string::npos) << result.err;
  result = run_tipc(dir.path().string(), {"init-check", "a.npy", "a.npy", "--key", "w"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("--key needs dict files; a.npy is a plain array"), std::string::npos) << result.err;
  result = run_tipc(dir.path().string(), {"init-check", "a.npy", "a.npy", "--bins", "0"});
  EXPECT_EQ(result.exit_code, 2);
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::test
