// Dialect detection: the marker that decides, a package marker over the runner every
// copied test_tipc/ has, and no guess where no marker or two decide.
#include "dialect/dialect_detection.h"

#include <gtest/gtest.h>

#include "support/paths.h"
#include "support/temp_dir.h"

namespace tipc::dialect {
namespace {
namespace TIPC_TEST_FILE {

TEST(DialectDetection, DetectionNamesTheMarkerThatDecided) {
  test::TempDir det;
  det.write("ppdet/__init__.py", "");
  const auto found = detect_dialect(test::dialect_dir(), det.path().string());
  ASSERT_TRUE(found) << found.error().str();
  EXPECT_EQ(found->name, "paddledetection");
  EXPECT_EQ(found->source, "marker ppdet/ found in " + det.path().string());
  EXPECT_EQ(found->doubt, "");
  test::TempDir ocr;
  ocr.write("tools/infer/predict_det.py", "");
  EXPECT_EQ(detect_dialect(test::dialect_dir(), ocr.path().string())->source,
            "marker tools/infer/predict_det.py found in " + ocr.path().string());
}

TEST(DialectDetection, WithoutAMarkerDetectionStopsNamingEveryCandidate) {
  test::TempDir repo;
  repo.write("test_tipc/configs/a.txt", "");
  const auto none = detect_dialect(test::dialect_dir(), repo.path().string());
  ASSERT_FALSE(none);
  const std::string text = none.error().str();
  EXPECT_EQ(none.error().exit_code, 2);
  EXPECT_NE(text.find(repo.path().string() + ": no dialect marker found"), std::string::npos) << text;
  EXPECT_NE(text.find("\n  paddleclas       ppcls\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\n  paddleocr        ppocr, tools/infer/predict_det.py\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\n  template         test_tipc/test_train_inference_python.sh\n"), std::string::npos) << text;
  EXPECT_NE(text.find("--dialect NAME, or with `dialect: NAME` in test_tipc/tipc-run.yaml"), std::string::npos) << text;
}

TEST(DialectDetection, APackageMarkerOutranksTheRunnerEveryTestTipcHas) {
  test::TempDir repo;
  repo.write("test_tipc/test_train_inference_python.sh", "");
  const auto runner_only = detect_dialect(test::dialect_dir(), repo.path().string());
  ASSERT_TRUE(runner_only) << runner_only.error().str();
  EXPECT_EQ(runner_only->name, "template");
  EXPECT_NE(runner_only->doubt.find("rests on test_tipc/test_train_inference_python.sh alone"), std::string::npos)
      << runner_only->doubt;
  repo.write("ppcls/__init__.py", "");
  const auto clas = detect_dialect(test::dialect_dir(), repo.path().string());
  ASSERT_TRUE(clas) << clas.error().str();
  EXPECT_EQ(clas->name, "paddleclas");
  EXPECT_EQ(clas->doubt, "");
  EXPECT_NE(clas->source.find("marker ppcls/ found in " + repo.path().string() +
                              "; template (test_tipc/test_train_inference_python.sh) matched too"),
            std::string::npos)
      << clas->source;
}

TEST(DialectDetection, TwoPackageMarkersAreAnErrorNotAGuess) {
  test::TempDir repo;
  repo.write("ppcls/__init__.py", "");
  repo.write("ppocr/__init__.py", "");
  const auto both = detect_dialect(test::dialect_dir(), repo.path().string());
  ASSERT_FALSE(both);
  EXPECT_NE(both.error().str().find("markers of several dialects found: paddleclas (ppcls/), paddleocr (ppocr/)"),
            std::string::npos)
      << both.error().str();
}

TEST(DialectDetection, ADialectDirectoryThatCannotBeListedIsAnErrorNamingIt) {
  test::TempDir repo;
  repo.write("ppcls/__init__.py", "");
  const std::string missing = (repo.path() / "no-dialects").string();
  const auto found = detect_dialect(missing, repo.path().string());
  ASSERT_FALSE(found);
  EXPECT_NE(found.error().str().find("cannot list dialect directory " + missing), std::string::npos)
      << found.error().str();
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::dialect
