// summary.md: pinned by a golden file; tables stay tables whatever the text holds.
#include "report/markdown_report.h"

#include <gtest/gtest.h>

#include "report/gpu_sample_run.h"
#include "support/golden.h"
#include "support/sample_report.h"

namespace tipc::report {
namespace {
namespace TIPC_TEST_FILE {

TEST(MarkdownReport, MatchesTheGoldenFile) {
  test::expect_golden("summary.md", render_markdown_report(test::sample_run_report()));
}

TEST(MarkdownReport, AFlakyStageHasAColumnOfItsOwnAndARowAmongThoseThatDidNotPass) {
  const std::string md = render_markdown_report(test::sample_run_report_with_retries());
  EXPECT_NE(md.find("| UNRESOLVED | FLAKY |"), std::string::npos) << md;
  EXPECT_NE(md.find("| 🔁 FLAKY | `alexnet.txt lite_train_lite_infer: norm_train/gpus_-1/train` | passed on attempt 3 "
                    "of 3; attempt 1: FAIL "
                    "exit code 1 |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("stages failed; 1 flaky)"), std::string::npos) << md;
  // Without a FLAKY stage there is no FLAKY column.
  EXPECT_EQ(render_markdown_report(test::sample_run_report()).find("FLAKY"), std::string::npos);
}

TEST(MarkdownReport, APassingRunIsOneLineOfVerdictAndTheCounts) {
  RunReport run = test::sample_run_report();
  run.plans.erase(run.plans.begin());
  run.plans[0].stages[0].result = run::Status::kPass;
  const std::string md = render_markdown_report(run);
  EXPECT_TRUE(md.starts_with("## ✅ tipc-run: PASS\n\n1 stage of 1 config in 30.5 s")) << md;
  EXPECT_EQ(md.find("### Stages that did not pass"), std::string::npos);
}

TEST(MarkdownReport, AnInterruptedRunCountsTheStagesThatNeverStarted) {
  RunReport run = test::sample_run_report();
  run.interrupted = true;
  const std::string md = render_markdown_report(run);
  EXPECT_TRUE(md.starts_with("## ⚠️ tipc-run: INTERRUPTED")) << md;
  EXPECT_NE(md.find("1 stage never started."), std::string::npos) << md;
}

TEST(MarkdownReport, CellsKeepOneLineAndEscapePipesAndTags) {
  RunReport run = test::sample_run_report();
  run.plans[0].stages[1].reason = "a|b\nc <script>";
  run.plans[0].stages[1].error_line = "ValueError: x|y <z>";
  const std::string md = render_markdown_report(run);
  EXPECT_NE(md.find("| a\\|b c &lt;script&gt; · first error: `ValueError: x\\|y <z>` |"), std::string::npos) << md;
}

TEST(MarkdownReport, APassingCheckShowsItsValueNearestTheLimit) {
  RunReport run = test::sample_run_report();
  auto& check = *run.plans[0].stages[7].check;
  check.values = {{"a", 0.1, 1, true}, {"b", 0.9, 1, true}, {"c", 0.5, 1, true}};
  const std::string md = render_markdown_report(run);
  EXPECT_NE(md.find("| b | 0.9 | 1 | ✅ |\n| `alexnet.txt lite_train_lite_infer: "
                    "norm_train/gpus_-1/infer/cpu_bs1/check/truth` | … 2 more"),
            std::string::npos)
      << md;
}

TEST(MarkdownReport, ACheckThatFailsLikeAnEarlierOneRefersToItInsteadOfRepeatingItsValues) {
  RunReport run = test::sample_run_report();
  for (const std::string id : {"check/bs1", "check/bs4", "check/bs8"}) {
    StageReport check = test::sample_stage(id, "check", "FAIL", "exit code 1");
    const double value = id == "check/bs8" ? 0.5 : 0.0219;  // bs8 fails otherwise: its own values
    check.check =
        CheckDetails{CheckKind::kCompareResults, false, {{"circle_001.ppm", value, 0.0018, false}}, {}, {}, {}, {}};
    run.plans[0].stages.push_back(check);
  }
  const std::string md = render_markdown_report(run);
  EXPECT_NE(md.find("| `alexnet.txt lite_train_lite_infer: check/bs1` | circle_001.ppm | 0.0219 | 0.0018 | ❌ |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| `alexnet.txt lite_train_lite_infer: check/bs4` | same failures as check "
                    "`alexnet.txt lite_train_lite_infer: check/bs1` | | | ❌ |"),
            std::string::npos)
      << md;
  EXPECT_EQ(md.find("| `alexnet.txt lite_train_lite_infer: check/bs4` | circle_001.ppm"), std::string::npos) << md;
  EXPECT_NE(md.find("| `alexnet.txt lite_train_lite_infer: check/bs8` | circle_001.ppm | 0.5 | 0.0018 | ❌ |"),
            std::string::npos)
      << md;
}

TEST(MarkdownReport, StagesNotRunForTheSameReasonShareOneRowFailuresKeepTheirOwn) {
  RunReport run = test::sample_run_report();
  run.plans.erase(run.plans.begin());
  auto& stages = run.plans[0].stages;
  stages.clear();
  for (int i = 0; i < 5; ++i)
    stages.push_back(test::sample_stage("gpu" + std::to_string(i), "infer", "UNSUPPORTED", "needs 1 GPU"));
  stages.push_back(test::sample_stage("two", "train", "UNSUPPORTED", "needs 2 GPUs"));
  for (int i = 0; i < 2; ++i)
    stages.push_back(test::sample_stage("bad" + std::to_string(i), "eval", "FAIL", "exit code 1"));
  const std::string md = render_markdown_report(run);
  EXPECT_NE(md.find("| Reason |\n|---|---|---|\n"
                    "| ❌ FAIL | `bad0` | exit code 1 |\n"
                    "| ❌ FAIL | `bad1` | exit code 1 |\n"
                    "| ⚠️ UNSUPPORTED | `gpu0`, `gpu1`, `gpu2` and 2 more | needs 1 GPU |\n"
                    "| ⚠️ UNSUPPORTED | `two` | needs 2 GPUs |\n"),
            std::string::npos)
      << md;
}

TEST(MarkdownReport, LongTablesAreCut) {
  RunReport run = test::sample_run_report();
  auto& stages = run.plans[0].stages;
  for (int i = 0; i < 60; ++i) stages.push_back(test::sample_stage("s" + std::to_string(i), "infer", "FAIL", "x"));
  auto& check = *stages[6].check;
  for (int i = 0; i < 20; ++i) check.values.push_back({"k" + std::to_string(i), 1, 2, true});
  const std::string md = render_markdown_report(run);
  EXPECT_NE(md.find("… and 15 more rows (see report.json)."), std::string::npos) << md;
  EXPECT_NE(md.find("| … 21 more | | | |"), std::string::npos) << md;
  EXPECT_NE(md.find("logits: max | 2.5e-05 | 1e-06 | ❌"), std::string::npos);  // the failing value
}

TEST(MarkdownReport, NamesTheGpusTheirWarningsAndEachStagesFigures) {
  const std::string md = render_markdown_report(test::sample_gpu_run());
  EXPECT_NE(md.find(" · GPUs GPU 0 NVIDIA H100 80GB HBM3 (GPU-9f8e…) (--gpus) · "), std::string::npos) << md;
  EXPECT_NE(md.find("\n### ⚠️ GPU warnings\n\n- " + test::kForeignProcessWarning +
                    " (`alexnet.txt lite_train_lite_infer: norm_train/gpus_-1/train`)\n"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("\n### GPU figures\n\n| Stage | GPUs | While it ran |\n|---|---|---|\n"
                    "| `alexnet.txt lite_train_lite_infer: norm_train/gpus_-1/train` | 0 | peak 10.2 GiB · util 87 % "
                    "(peak 100 %) · 250 W (peak 301 W) · throttled: sw_power_cap |\n"),
            std::string::npos)
      << md;
  const std::string plain = render_markdown_report(test::sample_run_report());
  EXPECT_EQ(plain.find("### GPU"), std::string::npos);
  EXPECT_EQ(plain.find("### ⚠️ GPU"), std::string::npos);
}

TEST(MarkdownReport, ATimeoutsRowSaysWhereItHung) {
  const std::string md = render_markdown_report(test::sample_gpu_run());
  EXPECT_NE(md.find("| timed out after 5 s · hung in `hang.py:5 in spin` ← `hang.py:9 in <module>` |"),
            std::string::npos)
      << md;
}

TEST(MarkdownReport, HostileStacksAndGpuWarningsStayInTheirCellOrItem) {
  RunReport run = test::sample_gpu_run();
  run.plans[0].stages[0].gpu_warnings = {test::kHostileText + "\nsecond line"};
  run.plans[0].stages[2].stack = {test::kHostileText};
  const std::string md = render_markdown_report(run);
  EXPECT_EQ(md.find("<script"), std::string::npos);
  EXPECT_EQ(md.find('\x1b'), std::string::npos);
  EXPECT_EQ(md.find('\x07'), std::string::npos);
  EXPECT_NE(md.find("- &lt;script&gt;alert(1)&lt;/script&gt;\\|`x` [2J  second line (`"), std::string::npos) << md;
  // Not a code span: the frame holds a backtick.
  EXPECT_NE(md.find("· hung in &lt;script&gt;alert(1)&lt;/script&gt;\\|`x`"), std::string::npos) << md;
}

// A process that held the GPU all run long is one warning naming the stages it was seen by.
TEST(MarkdownReport, AGpuWarningSeveralStagesHadIsOneItem) {
  RunReport run = test::sample_gpu_run();
  run.plans[0].stages[1].gpu_warnings = {test::kForeignProcessWarning};
  const std::string md = render_markdown_report(run);
  EXPECT_NE(md.find("- " + test::kForeignProcessWarning +
                    " (`alexnet.txt lite_train_lite_infer: norm_train/gpus_-1/train`, "
                    "`alexnet.txt lite_train_lite_infer: norm_train/gpus_-1/eval`)\n"),
            std::string::npos)
      << md;
  EXPECT_EQ(md.find(test::kForeignProcessWarning), md.rfind(test::kForeignProcessWarning));
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::report
