#include "dialect/anchor_check.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/paths.h"
#include "support/run_binary.h"

namespace tipc::dialect {
namespace {

config::TrainInferConfig parse(const std::string& bytes, const std::string& name = "alexnet.txt") {
  return config::split_config(config::parse_config_text(bytes, name, {}).value(), {});
}

std::string demo_config() { return test::slurp(test::source_dir() + "/test_tipc/configs/alexnet.txt"); }

std::string without_line(const std::string& text, int physical) {
  std::istringstream in(text);
  std::string out, line;
  for (int n = 1; std::getline(in, line); ++n) {
    if (n != physical) out += line + "\n";
  }
  return out;
}

const Dialect& ocr() {
  static const Dialect d = load_dialect(test::dialect_dir(), "paddleocr").value();
  return d;
}

TEST(AnchorCheck, TheDemoConfigIsSound) { EXPECT_TRUE(check_anchors(parse(demo_config()), ocr().anchors).empty()); }

TEST(AnchorCheck, ADeletedLineIsNamedWithItsPhysicalLine) {
  const auto problems = check_anchors(parse(without_line(demo_config(), 17)), ocr().anchors);
  ASSERT_FALSE(problems.empty());
  EXPECT_EQ(problems[0].str(), "alexnet.txt:17: expected key 'pact_train' (or 'quant_train', 'quant_export'), "
                               "found 'fpgm_train' (is a line missing above?)");
}

TEST(AnchorCheck, AnExtraLineIsNamed) {
  std::string text = demo_config();
  text.insert(text.find("trainer:"), "extra:line\n");
  const auto problems = check_anchors(parse(text), ocr().anchors);
  ASSERT_FALSE(problems.empty());
  EXPECT_EQ(problems[0].str(), "alexnet.txt:15: expected key 'trainer', found 'extra' "
                               "(is there an extra line above?)");
}

TEST(AnchorCheck, ATruncatedFileIsNamed) {
  std::string text = demo_config();
  text = text.substr(0, text.find("===========================eval_params"));
  const auto problems = check_anchors(parse(text), ocr().anchors);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0].str(), "alexnet.txt:22: the file ends after 22 non-empty lines; expected a "
                               "===...eval_params...=== header at non-empty line 23 (is the file truncated?)");
}

// Default mode must accept every config the reference plans normally: every clean
// train_params config of the corpus passes its dialect's anchors.
TEST(AnchorCheck, EveryCleanCorpusConfigIsSound) {
  namespace fs = std::filesystem;
  const fs::path corpus = fs::path(test::shared_dir()) / "tipc-corpus";
  if (!fs::exists(corpus)) GTEST_SKIP() << "corpus missing: " << corpus;
  const std::map<std::string, std::string> dialects = {{"PaddleOCR", "paddleocr"},
                                                       {"PaddleClas", "paddleclas"},
                                                       {"PaddleDetection", "paddledetection"},
                                                       {"PaddleSeg", "paddleseg"}};
  int checked = 0, rejected_misaligned = 0;
  for (const auto& entry : fs::recursive_directory_iterator(corpus / "golden")) {
    if (!entry.path().string().ends_with(".meta.json")) continue;
    const auto meta = nlohmann::json::parse(test::slurp(entry.path().string()))["corpus"];
    if (meta["dialect"].is_null() || !dialects.count(meta["dialect"])) continue;
    const auto flags = meta["flags"].get<std::vector<std::string>>();
    auto has = [&](const char* f) { return std::find(flags.begin(), flags.end(), f) != flags.end(); };
    const auto d = load_dialect(test::dialect_dir(), dialects.at(meta["dialect"])).value();
    const auto config = parse(test::slurp((corpus / meta["config_file"].get<std::string>()).string()));
    const auto problems = check_anchors(config, d.anchors);
    if (has("misaligned-config") || has("truncated-config") || has("other-layout")) {
      EXPECT_FALSE(problems.empty()) << meta["config_file"];
      ++rejected_misaligned;
    } else {
      EXPECT_TRUE(problems.empty()) << meta["config_file"] << ": " << problems[0].str();
      ++checked;
    }
  }
  EXPECT_GT(checked, 700);
  EXPECT_GT(rejected_misaligned, 10);
}

}  // namespace
}  // namespace tipc::dialect
