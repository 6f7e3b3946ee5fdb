#include "dialect/dialect.h"

#include <gtest/gtest.h>

#include "support/paths.h"
#include "support/run_binary.h"
#include "support/temp_dir.h"

namespace tipc::dialect {
namespace {
namespace TIPC_TEST_FILE {

TEST(Dialect, EveryShippedDialectLoads) {
  for (const char* name :
       {"paddleocr", "paddleclas", "paddledetection", "paddleseg", "paddlevideo", "paddlegan", "template"}) {
    const auto d = load_dialect(test::dialect_dir(), name);
    ASSERT_TRUE(d) << name << ": " << d.error().str();
    EXPECT_EQ(d->name, name);
    EXPECT_FALSE(d->anchors.empty()) << name;
  }
}

TEST(Dialect, UnknownNameListsTheKnownOnes) {
  const auto d = load_dialect(test::dialect_dir(), "paddlefoo");
  ASSERT_FALSE(d);
  EXPECT_NE(d.error().str().find("unknown dialect 'paddlefoo' (known: paddleclas, paddledetection"), std::string::npos)
      << d.error().str();
}

TEST(Dialect, ErrorsNameFileLineAndKey) {
  test::TempDir dir;
  const auto path = dir.write("bad.yaml", "name: bad\nlog_dir: x\nepoch_batch: sometimes\n");
  const auto d = load_dialect_file(path);
  ASSERT_FALSE(d);
  EXPECT_NE(d.error().str().find(path + ":3: key 'epoch_batch': 'sometimes' is not one of: mode_select, clas, plain"),
            std::string::npos)
      << d.error().str();
  const auto broken = dir.write("broken.yaml", "name: [unclosed\n");
  EXPECT_NE(load_dialect_file(broken).error().str().find(broken + ":"), std::string::npos);
  const auto typo = dir.write("typo.yaml", "name: t\nlog_dri: x\n");
  EXPECT_NE(load_dialect_file(typo).error().str().find(typo + ":2: key 'log_dri': unknown key in the dialect"),
            std::string::npos);
  std::string ocr = test::slurp(test::dialect_dir() + "/paddleocr.yaml");
  ocr.replace(ocr.find("cpu_no_mkldnn_fp16"), 18, "cpu_fast_path");
  const auto rules = load_dialect_file(dir.write("rules.yaml", ocr));
  EXPECT_NE(rules.error().str().find("key 'skip': unknown skip rule 'cpu_fast_path'"), std::string::npos)
      << rules.error().str();
  const auto missing = dir.write("missing.yaml", "name: m\n");
  EXPECT_NE(load_dialect_file(missing).error().str().find("key 'log_dir': missing"), std::string::npos);
}

// The settings with a closed set of words are read into their enums once, when the file
// loads; an unknown word names the file, its line, the key and the known words.
TEST(Dialect, ClosedSettingsAreReadIntoTheirWordsOrNamedWithTheKnownOnes) {
  const auto clas = load_dialect(test::dialect_dir(), "paddleclas");
  ASSERT_TRUE(clas) << clas.error().str();
  EXPECT_EQ(clas->epoch_batch, EpochBatch::kClas);
  EXPECT_EQ(clas->whole_infer.style, WholeInferStyle::kKlQuant);
  EXPECT_EQ(clas->infer_gpu.skip, std::vector<SkipRule>{SkipRule::kGpuPrecisionTrueNeedsTrt});
  const auto ocr = load_dialect(test::dialect_dir(), "paddleocr");
  ASSERT_TRUE(ocr) << ocr.error().str();
  EXPECT_EQ(ocr->use_gpu_pairing, UseGpuPairing::kPerPosition);
  ASSERT_FALSE(ocr->infer_cpu.loops.empty());
  EXPECT_STREQ(to_string(ocr->infer_cpu.loops.front()), "mkldnn");  // also the variable that holds its value

  test::TempDir dir;
  std::string text = test::slurp(test::dialect_dir() + "/paddleocr.yaml");
  text.replace(text.find("style: export_list"), 18, "style: export_all");
  text.replace(text.find("cpu_no_mkldnn_fp16"), 18, "cpu_fast_path");
  const auto path = dir.write("words.yaml", text);
  const auto d = load_dialect_file(path);
  ASSERT_FALSE(d);
  const std::string error = d.error().str();
  EXPECT_NE(error.find("key 'style': 'export_all' is not one of: export_list, kl_quant, mode_list, none"),
            std::string::npos)
      << error;
  EXPECT_NE(error.find("key 'skip': unknown skip rule 'cpu_fast_path' (known: cpu_no_mkldnn_fp16, "), std::string::npos)
      << error;
  for (const auto& problem : d.error().diagnostics) {
    EXPECT_EQ(problem.file, path);
    EXPECT_GT(problem.line, 0) << problem.message;
  }
}

// All of a file's problems in one run, in file order, each once: a misspelt key (which
// would fall back to a default in silence) wherever it sits, and a bad value.
TEST(Dialect, EveryProblemOfAFileIsReportedAtOnce) {
  test::TempDir dir;
  std::string text = test::slurp(test::dialect_dir() + "/paddleocr.yaml");
  text.replace(text.find("epoch_batch:"), 12, "epoch_bacth:");
  text.replace(text.find("apply_before_infer:"), 19, "apply_befor_infer:");
  text.replace(text.find("use_gpu_pairing: ") + 17, 0, "sometimes_");
  const auto path = dir.write("three.yaml", text);
  const auto d = load_dialect_file(path);
  ASSERT_FALSE(d);
  const auto& problems = d.error().diagnostics;
  ASSERT_EQ(problems.size(), 3u) << d.error().str();
  EXPECT_TRUE(
      std::is_sorted(problems.begin(), problems.end(), [](const auto& a, const auto& b) { return a.line < b.line; }));
  EXPECT_NE(d.error().str().find("key 'epoch_bacth': unknown key in the dialect"), std::string::npos);
  EXPECT_NE(d.error().str().find("key 'apply_befor_infer': unknown key in devices"), std::string::npos);
  EXPECT_NE(d.error().str().find("key 'use_gpu_pairing': 'sometimes_"), std::string::npos);
  for (const auto& p : problems) EXPECT_GT(p.line, 0) << p.message;
}

TEST(Dialect, TheNameMustMatchTheFileName) {
  test::TempDir dir;  // dialects/ and the launchers.yaml beside it, as configs/ holds them
  const std::string text = test::slurp(test::dialect_dir() + "/paddleocr.yaml");
  dir.write("dialects/ocr.yaml", text);
  dir.write("launchers.yaml", test::slurp(test::dialect_dir() + "/../launchers.yaml"));
  const auto d = load_dialect((dir.path() / "dialects").string(), "ocr");
  ASSERT_FALSE(d);
  EXPECT_NE(d.error().str().find("'paddleocr' differs from the file name 'ocr'"), std::string::npos) << d.error().str();
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::dialect
