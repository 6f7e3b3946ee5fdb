#include "align/checks/acceptance_report.h"

#include <gtest/gtest.h>

namespace tipc::align {
namespace {
namespace TIPC_TEST_FILE {

AcceptanceReport sample_report() {
  auto checks = default_acceptance_checks();
  CheckOutcome forward{checks[0], Verdict::kFail, PairPaths{"/r/forward_paddle.npy", "/r/diff/forward_torch.npy"},
                       0.25,      std::nullopt,   "logits: mean 0.25 > 1e-06",
                       {}};
  CheckOutcome loss{checks[2],    Verdict::kMissing,    std::nullopt, std::nullopt,
                    std::nullopt, "no loss_paddle.npy", {"a warning"}};
  return {{forward, loss}};
}

TEST(AcceptanceReport, OneRowPerCheckWithFilesRelativeToTheFolder) {
  const std::string table = render_acceptance_table("/r", sample_report());
  EXPECT_TRUE(table.starts_with("check        files")) << table;
  EXPECT_NE(table.find("forward      forward_paddle.npy vs diff/forward_torch.npy mean   1e-06      0.25"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find(" FAIL\n"), std::string::npos) << table;
  EXPECT_NE(table.find(" MISSING\n"), std::string::npos) << table;
}

TEST(AcceptanceReport, FindingsSayWhyAndWarn) {
  EXPECT_EQ(acceptance_findings(sample_report()),
            (std::vector<std::string>{"forward FAIL: logits: mean 0.25 > 1e-06", "warning: loss: a warning",
                                      "loss MISSING: no loss_paddle.npy"}));
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::align
