// The `gates:` and `history:` keys of test_tipc/tipc-run.yaml.
#include "config/gate_settings.h"

#include <gtest/gtest.h>

#include "config/project_settings.h"
#include "support/temp_dir.h"

namespace tipc::config {
namespace {
namespace TIPC_TEST_FILE {

std::string error_of(const std::string& yaml) {
  test::TempDir dir;
  auto settings = load_project_settings(dir.write("tipc-run.yaml", yaml));
  return settings ? "no error" : settings.error().str();
}

TEST(GateSettings, FractionsArePercentOrPlain) {
  EXPECT_EQ(fraction_of("5%"), 0.05);
  EXPECT_EQ(fraction_of("0.05"), 0.05);
  EXPECT_EQ(fraction_of("0"), 0.0);
  EXPECT_FALSE(fraction_of("-1%"));
  EXPECT_FALSE(fraction_of("%"));
  EXPECT_FALSE(fraction_of("five"));
  EXPECT_FALSE(fraction_of("5 %"));
}

TEST(GateSettings, RulesInOrderWithTheirLines) {
  test::TempDir dir;
  const std::string path = dir.write("tipc-run.yaml",
                                     "gates:\n"
                                     "  - metric: ips\n    threshold: 3%\n    minimum: 0.5%\n"
                                     "  - metric: \"eval:*\"\n    stage: \"*eval\"\n    better: lower\n"
                                     "    absolute: 0.02\n    severity: warn\n"
                                     "  - metric: \"check:*\"\n    ignore: true\n"
                                     "history: false\n");
  const auto settings = load_project_settings(path);
  ASSERT_TRUE(settings) << settings.error().str();
  ASSERT_EQ(settings->gates.size(), 3u);
  const GateSetting& ips = settings->gates[0];
  EXPECT_EQ(ips.metric, "ips");
  EXPECT_EQ(ips.stage, "*");
  EXPECT_EQ(ips.threshold, 0.03);
  EXPECT_EQ(ips.minimum, 0.005);
  EXPECT_EQ(ips.severity, GateSeverity::kFail);
  EXPECT_EQ(ips.source, path + ":2");
  const GateSetting& eval = settings->gates[1];
  EXPECT_EQ(eval.higher_is_better, false);
  EXPECT_EQ(eval.absolute, 0.02);
  EXPECT_EQ(eval.severity, GateSeverity::kWarn);
  EXPECT_EQ(eval.source, path + ":5");
  EXPECT_TRUE(settings->gates[2].ignore);
  EXPECT_EQ(settings->history, "");
}

TEST(GateSettings, MistakesNameFileLineAndKey) {
  EXPECT_NE(error_of("gates:\n  - metric: ips\n    threshold: lots\n")
                .find("tipc-run.yaml:3: key 'threshold': 'lots' is no fraction: write 5% or 0.05"),
            std::string::npos)
      << error_of("gates:\n  - metric: ips\n    threshold: lots\n");
  EXPECT_NE(error_of("gates:\n  - metric: ips\n    better: faster\n").find(":3: key 'better'"), std::string::npos);
  EXPECT_NE(error_of("gates:\n  - metric: ips\n    severity: fatal\n").find(":3: key 'severity'"), std::string::npos);
  EXPECT_NE(error_of("gates:\n  - metric: ips\n    threshhold: 5%\n").find(":3: key 'threshhold': unknown key"),
            std::string::npos);
  EXPECT_NE(error_of("gates:\n  - stage: train\n").find(":2: key 'metric'"), std::string::npos)
      << error_of("gates:\n  - stage: train\n");
  EXPECT_NE(error_of("gates:\n  - ips\n").find(":2: key 'gates': a gate is a map"), std::string::npos);
  EXPECT_NE(error_of("gates:\n  - metric: ips\n    absolute: -1\n").find(":3: key 'absolute': must not be negative"),
            std::string::npos);
  EXPECT_NE(error_of("history: true\n").find(":1: key 'history': expected a file, or false for no history"),
            std::string::npos);
}

TEST(GateSettings, AHistoryFileIsKeptAsWritten) {
  test::TempDir dir;
  const auto settings = load_project_settings(dir.write("tipc-run.yaml", "history: ci/history.sqlite\n"));
  ASSERT_TRUE(settings);
  EXPECT_EQ(settings->history, "ci/history.sqlite");
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::config
