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
namespace TIPC_TEST_FILE {

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

TEST(AnchorCheck, TheDemoConfigIsSound) {
  const auto findings = check_anchors(parse(demo_config()), ocr().anchors);
  EXPECT_TRUE(findings.errors.empty());
  EXPECT_TRUE(findings.notes.empty());
}

std::string renamed(std::string text, const std::string& from, const std::string& to) {
  return text.replace(text.find(from), from.size(), to);
}

// The runner reads the pact and norm slots by position: another key name there is a note.
TEST(AnchorCheck, ARenamedKeyInASoundLayoutIsOnlyANote) {
  const std::string text =
      renamed(renamed(demo_config(), "\npact_train:", "\nslim_train:"), "\nnorm_train:", "\nfp32_train:");
  const auto findings = check_anchors(parse(text), ocr().anchors);
  EXPECT_TRUE(findings.errors.empty()) << findings.errors[0].str();
  ASSERT_EQ(findings.notes.size(), 2u);
  EXPECT_EQ(findings.notes[1].str(),
            "alexnet.txt:17: expected key 'pact_train' (or 'quant_train', 'quant_export'), "
            "found 'slim_train'; the runner reads this line by position and never compares "
            "its key, so it is accepted");
}

TEST(AnchorCheck, AKeyLineWhereAHeaderBelongsIsAnError) {
  const std::string text =
      renamed(demo_config(), "===========================eval_params===========================", "eval_params:x");
  const auto findings = check_anchors(parse(text), ocr().anchors);
  ASSERT_FALSE(findings.errors.empty());
  EXPECT_EQ(findings.errors[0].str(), "alexnet.txt:23: expected a ===...eval_params...=== header, found 'eval_params'");
}

// The layout errors of the config: its one finding, or how many there are.
std::string only_error(const std::string& text) {
  const auto errors = check_anchors(parse(text), ocr().anchors).errors;
  return errors.size() == 1 ? errors[0].str() : std::to_string(errors.size()) + " errors";
}

std::string inserted(std::string text, const std::string& before, const std::string& line) {
  return text.insert(text.find(before), line + "\n");
}

// One deleted line is one finding, at the gap, not one per anchor below it.
TEST(AnchorCheck, ADeletedLineIsOneFindingAtTheGap) {
  EXPECT_EQ(only_error(without_line(demo_config(), 17)),
            "alexnet.txt:17: line 17 seems to be missing: expected key 'pact_train' (or 'quant_train', 'quant_export') "
            "here, found 'fpgm_train', which belongs on the next line; every later line is shifted up by one (add the "
            "missing line above this line)");
  EXPECT_EQ(check_anchors(parse(without_line(demo_config(), 17)), ocr().anchors).errors.at(0).key, "pact_train");
}

TEST(AnchorCheck, AnExtraLineIsOneFindingAtTheGap) {
  EXPECT_EQ(only_error(inserted(demo_config(), "trainer:", "extra:line")),
            "alexnet.txt:15: line 15 seems to be extra: found 'extra' where key 'trainer' belongs; every later line is "
            "shifted down by one (delete this line)");
}

// Between two anchors six lines apart the lines name no anchor: the finding gives the range.
TEST(AnchorCheck, ALineMissingBetweenDistantAnchorsIsNamedWithTheRange) {
  EXPECT_EQ(only_error(without_line(demo_config(), 5)),
            "alexnet.txt:5: a line seems to be missing between line 4 and line 10: key 'train_model_name' is on line "
            "10, one line above its place, and every later line is shifted up by one (add the missing line between "
            "them)");
  EXPECT_EQ(only_error(inserted(demo_config(), "--amp:", "--seed:42")),
            "alexnet.txt:5: an extra line seems to be between line 4 and line 12: key 'train_model_name' is on line "
            "12, one line below its place, and every later line is shifted down by one (delete the extra line)");
}

// Below the last header only keys are anchors: a missing line there was taken for renamed
// keys (a note) before; the keys one line up show the shift.
TEST(AnchorCheck, AMissingLineBelowTheLastHeaderIsAnErrorNotARename) {
  EXPECT_NE(only_error(without_line(demo_config(), 37)).find("seems to be missing"), std::string::npos);
}

// A renamed key above the gap stays in place; the gap below it is still found.
TEST(AnchorCheck, ARenamedKeyAboveAGapDoesNotHideIt) {
  const std::string text = renamed(demo_config(), "\nnorm_train:", "\nfp32_train:");
  EXPECT_EQ(only_error(without_line(text, 30))
                .find("alexnet.txt:30: line 30 seems to be missing: expected key "
                      "'norm_export'"),
            0u);
}

// Two gaps are no single shift: every mismatch is reported, as before.
TEST(AnchorCheck, TwoGapsFallBackToEveryMismatch) {
  const auto problems = check_anchors(parse(without_line(without_line(demo_config(), 30), 17)), ocr().anchors).errors;
  ASSERT_GT(problems.size(), 2u);
  EXPECT_EQ(problems[0].message.find("seems to be"), std::string::npos) << problems[0].str();
}

// A line of blanks counts, as in the reference: it is the extra line.
TEST(AnchorCheck, ALineOfBlanksIsNamedAsSuch) {
  EXPECT_EQ(only_error(inserted(demo_config(), "pact_train:", "  \t")),
            "alexnet.txt:17: line 17 seems to be extra: found a line of blanks only (it counts as a line) where key "
            "'pact_train' (or 'quant_train', 'quant_export') belongs; every later line is shifted down by one (delete "
            "this line)");
}

TEST(AnchorCheck, ATruncatedFileIsNamed) {
  std::string text = demo_config();
  text = text.substr(0, text.find("===========================eval_params"));
  const auto problems = check_anchors(parse(text), ocr().anchors).errors;
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0].str(),
            "alexnet.txt:22: the file ends after 22 non-empty lines; expected a "
            "===...eval_params...=== header at non-empty line 23 (is the file truncated?)");
}

// Default mode must accept every config the reference plans normally: every clean
// train_params config of the corpus passes its dialect's anchors, renamed keys included
// (PaddleGAN's amp configs name the norm slot amp_train), and must reject every
// misaligned, truncated or foreign layout.
TEST(AnchorCheck, EveryCleanCorpusConfigIsSound) {
  namespace fs = std::filesystem;
  const fs::path corpus = fs::path(test::shared_dir()) / "tipc-corpus";
  if (!fs::exists(corpus)) GTEST_SKIP() << "corpus missing: " << corpus;
  const std::map<std::string, std::string> dialects = {{"PaddleOCR", "paddleocr"},
                                                       {"PaddleClas", "paddleclas"},
                                                       {"PaddleDetection", "paddledetection"},
                                                       {"PaddleSeg", "paddleseg"},
                                                       {"PaddleVideo", "paddlevideo"},
                                                       {"PaddleGAN", "paddlegan"},
                                                       {"models@tutorials/mobilenetv3_prod/Step6", "template"}};
  int checked = 0, rejected_misaligned = 0, noted = 0;
  for (const auto& entry : fs::recursive_directory_iterator(corpus / "golden")) {
    if (!entry.path().string().ends_with(".meta.json")) continue;
    const auto meta = nlohmann::json::parse(test::slurp(entry.path().string()))["corpus"];
    if (meta["dialect"].is_null() || !dialects.count(meta["dialect"])) continue;
    const auto flags = meta["flags"].get<std::vector<std::string>>();
    auto has = [&](const char* f) { return std::find(flags.begin(), flags.end(), f) != flags.end(); };
    const auto d = load_dialect(test::dialect_dir(), dialects.at(meta["dialect"])).value();
    const auto config = parse(test::slurp((corpus / meta["config_file"].get<std::string>()).string()));
    const auto findings = check_anchors(config, d.anchors);
    const auto& problems = findings.errors;
    noted += findings.notes.empty() ? 0 : 1;
    // PaddleGAN's edvr amp config is truncated too; the corpus flags it by the reference's shell errors.
    if (has("misaligned-config") || has("truncated-config") || has("other-layout") || has("reference-shell-errors")) {
      EXPECT_FALSE(problems.empty()) << meta["config_file"];
      ++rejected_misaligned;
    } else {
      EXPECT_TRUE(problems.empty()) << meta["config_file"] << ": " << problems[0].str();
      ++checked;
    }
  }
  EXPECT_GT(checked, 750);
  EXPECT_GT(rejected_misaligned, 10);
  EXPECT_GE(noted, 1);  // PaddleGAN msvsr amp: amp_train in the norm_train slot
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::dialect
