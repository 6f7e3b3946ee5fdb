// Issue 39's corpus check: each shared corpus repository (its runners and configs laid out
// as a checkout) as CI runs it, `tipc-run . MODES --dry-run` (the whole checkout: its
// sub-projects' test_tipc/ directories too) with every MODE its configs' chains take. Every config file is collected with a chain (the corpus README's
// counts: files and files of each kind; its one empty file is no config), and every (config,
// MODE) pair is either planned or named in an error line with its reason: none is left out
// in silence. The counts of all seven under CTest, and the dry runs of the three small
// repositories; all seven with TIPC_CONFORMANCE_EVERY_RUN=1 (PaddleOCR alone is 742 pairs).
#include <filesystem>
#include <map>
#include <regex>

#include <gtest/gtest.h>

#include "cli/suite.h"
#include "support/corpus_share.h"
#include "support/env_flag.h"
#include "support/run_binary.h"
#include "support/shipped_chains.h"
#include "support/text_lines.h"
#include "support/traced_corpus.h"

namespace tipc::cli {
namespace {
namespace TIPC_TEST_FILE {
namespace fs = std::filesystem;

// The corpus README's table (§3, §9): config files, empty files, and the files of each kind,
// as the README names them by header ("(model-named)": a header that is a model's name).
struct Counted {
  int files = 0, empty = 0;
  std::map<std::string, int> kinds;  // empty: the README gives no kinds
};
const std::map<std::string, Counted> kReadme = {{"PaddleOCR",
                                                 {213,
                                                  1,
                                                  {{"train_params", 106},
                                                   {"serving_params", 40},
                                                   {"cpp_infer_params", 27},
                                                   {"paddle2onnx_params", 14},
                                                   {"lite_params", 12},
                                                   {"kl_quant_params", 8},
                                                   {"infer_params", 1},
                                                   {"(model-named)", 4}}}},
                                                {"PaddleClas",
                                                 {657,
                                                  0,
                                                  {{"train_params", 525},
                                                   {"serving_params", 62},
                                                   {"cpp_infer_params", 31},
                                                   {"paddle2onnx_params", 19},
                                                   {"base_train", 8},
                                                   {"amp_train", 1},
                                                   {"runtime_device", 11}}}},
                                                {"PaddleDetection",
                                                 {174,
                                                  0,
                                                  {{"train_params", 89},
                                                   {"cpp_infer_params", 22},
                                                   {"serving_infer_python_params", 22},
                                                   {"serving_infer_cpp_params", 17},
                                                   {"ptq_params", 11},
                                                   {"paddle2onnx_params", 11},
                                                   {"pipeline_infer_python_params", 2}}}},
                                                {"PaddleSeg",
                                                 {118,
                                                  0,
                                                  {{"train_params", 69},
                                                   {"serving_params", 20},
                                                   {"ptq_params", 9},
                                                   {"paddle2onnx_params", 8},
                                                   {"base_train", 2},
                                                   {"# model load config", 10}}}},
                                                {"PaddleVideo", {37, 0, {}}},
                                                {"PaddleGAN", {17, 0, {}}},
                                                {"models", {12, 0, {}}}};

// The README's kind of a config header: the header, or "(model-named)" for a model's name.
std::string kind_of(const std::string& header) {
  static const std::regex kKindWord(R"(.*_params|base_train|amp_train|runtime_device|# model load config)");
  return std::regex_match(header, kKindWord) ? header : "(model-named)";
}

class SuiteCorpus : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (!fs::exists(test::corpus_dir())) GTEST_SKIP() << "NOT CHECKED: " << test::corpus_dir() << " is missing";
    repo_ = test::shared_checkout(test::corpus_dir(), GetParam());
  }
  std::filesystem::path repo_;
};

TEST_P(SuiteCorpus, EveryConfigIsCollectedAndEveryConfigModePairPlannedOrNamedWithItsReason) {
  const auto selected = plan::select_config_files(repo_.string(), {}, &test::shipped_chains());
  ASSERT_TRUE(selected) << selected.error().str();
  const Counted& readme = kReadme.at(GetParam());
  std::map<std::string, int> kinds, chains;
  for (const auto& file : selected->files) {
    ASSERT_TRUE(file.text) << file.path << ": " << file.text.error().str();
    const dialect::Chain* chain = dialect::chain_of_config(test::shipped_chains(), *file.text, "");
    ASSERT_NE(chain, nullptr) << file.path;
    ++kinds[kind_of(dialect::config_header(file.text->header_line()))];
    ++chains[chain->name];
  }
  EXPECT_EQ(static_cast<int>(selected->files.size()), readme.files - readme.empty);
  if (!readme.kinds.empty()) {
    EXPECT_EQ(kinds, readme.kinds);
  }
  std::cout << "[ suite    ] " << GetParam() << " configs by chain:";
  for (const auto& [name, count] : chains) std::cout << " " << name << " " << count;
  std::cout << "\n";
  const bool small = GetParam() == "PaddleVideo" || GetParam() == "PaddleGAN" || GetParam() == "models";
  if (!small && !test::env_flag("TIPC_CONFORMANCE_EVERY_RUN")) {
    GTEST_SKIP() << "the dry run of every (config, MODE): TIPC_CONFORMANCE_EVERY_RUN=1";
  }

  const std::vector<std::string> env = {"TIPC_TRACE_CACHE=" + test::shared_trace_cache()};
  const auto modes = test::run_tipc(repo_, {"modes", "."}, env);
  ASSERT_EQ(modes.exit_code, 0) << modes.err;
  std::string mode_list;
  for (const auto& mode : test::lines_of(modes.out)) mode_list += (mode_list.empty() ? "" : ",") + mode;
  const auto r = test::run_tipc(repo_, {".", mode_list, "--dry-run"}, env);
  int planned = 0, errors = 0;
  for (const auto& line : test::lines_of(r.out))
    planned += line.starts_with("# ") && line.find(".txt: ") != std::string::npos;
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
