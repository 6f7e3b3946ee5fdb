// Issue 39's corpus check: each shared corpus repository (its runners and configs laid out
// as a checkout) as CI runs it, `tipc-run . MODES --dry-run` (the whole checkout: its
// sub-projects' test_tipc/ directories too) with every MODE its configs' chains take. Every config file is collected with a chain (the corpus README's
// counts: files, train_params headers; its one empty file is no config), and every (config,
// MODE) pair is either planned or named in an error line with its reason: none is left out
// in silence. The three small repositories under CTest; all seven with
// TIPC_CONFORMANCE_EVERY_RUN=1 (PaddleOCR alone is 700 pairs).
#include <filesystem>
#include <map>
#include <regex>

#include <gtest/gtest.h>

#include "cli/suite.h"
#include "support/env_flag.h"
#include "support/run_binary.h"
#include "support/shipped_chains.h"
#include "support/temp_dir.h"
#include "support/text_lines.h"
#include "support/traced_corpus.h"

namespace tipc::cli {
namespace {
namespace TIPC_TEST_FILE {
namespace fs = std::filesystem;

// The corpus README's table (§3, §9): config files, those with a train_params header, empty files.
struct Counted {
  int files = 0, train_params = 0, empty = 0;
};
const std::map<std::string, Counted> kReadme = {
    {"PaddleOCR", {213, 106, 1}}, {"PaddleClas", {657, 525, 0}}, {"PaddleDetection", {174, 89, 0}},
    {"PaddleSeg", {118, 69, 0}},  {"PaddleVideo", {37, -1, 0}},  {"PaddleGAN", {17, -1, 0}},
    {"models", {12, -1, 0}}};

class SuiteCorpus : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (!fs::exists(test::corpus_dir())) GTEST_SKIP() << "NOT CHECKED: " << test::corpus_dir() << " is missing";
    const bool small = GetParam() == "PaddleVideo" || GetParam() == "PaddleGAN" || GetParam() == "models";
    if (!small && !test::env_flag("TIPC_CONFORMANCE_EVERY_RUN")) GTEST_SKIP() << "TIPC_CONFORMANCE_EVERY_RUN=1 runs it";
    test::lay_out_checkout(GetParam(), repo_.path());
  }
  test::TempDir repo_, cache_;
};

TEST_P(SuiteCorpus, EveryConfigIsCollectedAndEveryConfigModePairPlannedOrNamedWithItsReason) {
  const auto selected = select_config_files(repo_.path().string(), {}, &test::shipped_chains());
  ASSERT_TRUE(selected) << selected.error().str();
  const Counted readme = kReadme.at(GetParam());
  int train_params = 0;
  for (const auto& file : selected->files) {
    ASSERT_TRUE(file.text) << file.path << ": " << file.text.error().str();
    ASSERT_NE(dialect::chain_of_config(test::shipped_chains(), *file.text, ""), nullptr) << file.path;
    train_params += dialect::config_header(file.text->header_line()) == "train_params";
  }
  EXPECT_EQ(static_cast<int>(selected->files.size()), readme.files - readme.empty);
  if (readme.train_params >= 0) {
    EXPECT_EQ(train_params, readme.train_params);
  }

  const std::vector<std::string> env = {"TIPC_TRACE_CACHE=" + cache_.path().string()};
  const auto modes = test::run_tipc(repo_.path(), {"modes", "."}, env);
  ASSERT_EQ(modes.exit_code, 0) << modes.err;
  std::string mode_list;
  for (const auto& mode : test::lines_of(modes.out)) mode_list += (mode_list.empty() ? "" : ",") + mode;
  const auto r = test::run_tipc(repo_.path(), {".", mode_list, "--dry-run"}, env);
  int planned = 0, errors = 0;
  for (const auto& line : test::lines_of(r.out)) planned += line.starts_with("# ") && line.find(".txt: ") != std::string::npos;
  for (const auto& line : test::lines_of(r.err)) errors += line.starts_with("tipc-run: error: ");
  std::smatch invalid;
  const std::regex kInvalid(R"(tipc-run: (\d+) of (\d+) configs invalid, left out)");
  const bool some_invalid = std::regex_search(r.err, invalid, kInvalid);
  const int pairs = some_invalid ? std::stoi(invalid[2]) : planned;
  const int left_out = some_invalid ? std::stoi(invalid[1]) : 0;
  EXPECT_EQ(r.exit_code, left_out > 0 ? 2 : 0) << r.err;
  EXPECT_EQ(planned + left_out, pairs) << "every (config, MODE) pair planned or left out by name\n" << r.err;
  EXPECT_GE(errors, left_out) << "each left out with an error line naming its config\n" << r.err;
  std::cout << "[ suite    ] " << GetParam() << ": " << selected->files.size() << " configs, " << pairs
            << " (config, MODE) pairs in " << mode_list << ": " << planned << " planned, " << left_out
            << " left out with their reasons\n";
}

INSTANTIATE_TEST_SUITE_P(Repositories, SuiteCorpus,
                         ::testing::Values("PaddleOCR", "PaddleClas", "PaddleDetection", "PaddleSeg", "PaddleVideo",
                                           "PaddleGAN", "models"));

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::cli
