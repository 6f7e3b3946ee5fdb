// `tipc-run help [SUBCOMMAND]`: help asked for as a word.
#include "cli/help_command.h"

#include <gtest/gtest.h>

#include "cli/subcommand.h"
#include "support/run_binary.h"

namespace tipc::cli {
namespace {
namespace TIPC_TEST_FILE {

TEST(HelpCommand, AloneItPrintsTheHelpOfAChainRun) {
  const auto help = test::run_tipc(test::source_dir(), {"help"});
  EXPECT_EQ(help.exit_code, 0) << help.err;
  EXPECT_NE(help.out.find("--fail-fast"), std::string::npos) << help.out;
  EXPECT_NE(help.out.find("Subcommands"), std::string::npos) << help.out;
  EXPECT_EQ(help.err.find("required"), std::string::npos) << help.err;
  const auto option = test::run_tipc(test::source_dir(), {"--help"});
  EXPECT_EQ(help.out.substr(help.out.find("Options:")), option.out.substr(option.out.find("Options:")));
}

TEST(HelpCommand, WithASubcommandItPrintsThatSubcommandsHelp) {
  for (const Subcommand& s : subcommands()) {
    const std::string name(s.name);
    const auto help = test::run_tipc(test::source_dir(), {"help", name});
    const auto option = test::run_tipc(test::source_dir(), {name, "--help"});
    EXPECT_EQ(help.exit_code, 0) << name << ": " << help.err;
    EXPECT_NE(help.out.find("tipc-run " + name), std::string::npos) << name << ":\n" << help.out;
    EXPECT_EQ(help.out, option.out) << name;
  }
}

TEST(HelpCommand, AnUnknownSubcommandIsAUsageErrorListingTheSubcommands) {
  const auto help = test::run_tipc(test::source_dir(), {"help", "dif"});
  EXPECT_EQ(help.exit_code, kExitUsage);
  EXPECT_EQ(help.out, "");
  EXPECT_NE(help.err.find("tipc-run help: error: no subcommand 'dif'; the subcommands: report, diff,"),
            std::string::npos)
      << help.err;
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::cli
