// The subcommand table: what --help lists is what main() dispatches.
#include "cli/subcommand.h"

#include <sstream>

#include <gtest/gtest.h>

#include "support/run_binary.h"
#include "support/temp_dir.h"

namespace tipc::cli {
namespace {
namespace TIPC_TEST_FILE {

TEST(Subcommand, HelpListsEveryListedSubcommandWithItsSummary) {
  const auto r = test::run_tipc(test::source_dir(), {"--help"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  ASSERT_EQ(subcommands().size(), 11u);
  for (const Subcommand& s : subcommands()) {
    const std::string line = "  " + std::string(s.name) + std::string(17 - s.name.size(), ' ') + std::string(s.summary);
    EXPECT_EQ(r.out.find(line + "\n") != std::string::npos, s.listed) << s.name << ":\n" << r.out;
  }
  EXPECT_FALSE(find_subcommand("modes")->listed) << "a tool's command, described in docs/cli.md";
  EXPECT_FALSE(find_subcommand("setup")->listed) << "a plan's command, described in docs/cli.md";
}

TEST(Subcommand, AnErrorStopsWithItsOwnExitCode) {
  std::ostringstream err;
  EXPECT_EQ(subcommand_error("report", Error::plain("unreadable"), err), kExitUsage);
  Error mismatch = Error::at("a.npy", 0, "logits", "shapes differ");
  mismatch.exit_code = kExitFailed;
  EXPECT_EQ(subcommand_error("compare-results", mismatch, err), kExitFailed);
  EXPECT_NE(err.str().find("tipc-run compare-results: error: "), std::string::npos) << err.str();
}

TEST(Subcommand, EveryNameRunsItsOwnCommand) {
  for (const char* name : {"report", "compare", "history", "diff", "acceptance", "padiff", "init-check",
                           "compare-results", "help", "modes", "setup"}) {
    ASSERT_NE(find_subcommand(name), nullptr) << name;
    const auto r = test::run_tipc(test::source_dir(), {name, "--help"});
    EXPECT_EQ(r.exit_code, 0) << name << ": " << r.err;
    EXPECT_NE(r.out.find("tipc-run " + std::string(name)), std::string::npos) << name << ":\n" << r.out;
  }
}

TEST(Subcommand, AnUnknownNameIsNoSubcommand) {
  EXPECT_EQ(find_subcommand("dif"), nullptr);
  EXPECT_EQ(find_subcommand(""), nullptr);
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::cli
