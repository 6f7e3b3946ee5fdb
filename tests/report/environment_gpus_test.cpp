// The environment's GPUs where nvidia-smi named none but the run was given GPUs (--gpus):
// the reports name the GPUs given, never "none" (issue 38, minor).
#include <map>
#include <string>

#include <gtest/gtest.h>

#include "report/html_report.h"
#include "report/markdown_report.h"
#include "report/report_text.h"
#include "support/sample_report.h"

namespace tipc::report {
namespace {
namespace TIPC_TEST_FILE {

RunReport given_two_gpus_without_nvidia_smi() {
  RunReport run = test::sample_run_report();
  run.gpus = {"0", "1"};
  run.resources_source = "--gpus";
  run.environment->gpus.clear();
  return run;
}

TEST(EnvironmentGpus, TheGpusGivenAreNamedWhereNvidiaSmiNamedNone) {
  const RunReport run = given_two_gpus_without_nvidia_smi();
  std::map<std::string, std::string> facts;
  for (const auto& [label, text] : environment_facts(*run.environment, given_gpus(run))) facts[label] = text;
  EXPECT_EQ(facts["GPUs"], "0, 1 (--gpus); models unknown (no nvidia-smi)");
  EXPECT_NE(render_markdown_report(run).find("- **GPUs**: 0, 1 (--gpus); models unknown (no nvidia-smi)\n"),
            std::string::npos);
  EXPECT_NE(render_html_report(run).find("<dt>GPUs</dt><dd>0, 1 (--gpus); models unknown (no nvidia-smi)</dd>"),
            std::string::npos);
}

TEST(EnvironmentGpus, NoGpusAndNoNvidiaSmiIsNone) {
  RunReport run = given_two_gpus_without_nvidia_smi();
  run.gpus.clear();
  EXPECT_NE(render_markdown_report(run).find("- **GPUs**: none (no nvidia-smi)\n"), std::string::npos);
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::report
