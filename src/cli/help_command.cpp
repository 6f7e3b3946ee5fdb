#include "cli/help_command.h"

#include <iostream>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <CLI/CLI.hpp>

#include "cli/options.h"
#include "cli/subcommand.h"

namespace tipc::cli {

int help_main(const std::vector<std::string>& args) {
  std::string name;
  CLI::App app{"Print the help of a chain run, or of a subcommand", "tipc-run help"};
  app.add_option("SUBCOMMAND", name, "the subcommand whose help to print (default: a chain run's)");
  if (const auto code = parse_subcommand(app, args, std::cout, std::cerr)) return *code;
  if (name.empty()) {
    const char* const help_option[] = {"tipc-run", "--help"};
    const auto help = parse_options(2, help_option);  // --help "fails" with the text and exit 0
    (help.error().exit_code == kExitPassed ? std::cout : std::cerr) << help.error().str();
    return help.error().exit_code;
  }
  if (const Subcommand* subcommand = find_subcommand(name)) return subcommand->main({"--help"});
  std::vector<std::string_view> names;
  for (const Subcommand& s : subcommands()) names.push_back(s.name);
  return subcommand_error(
      "help", Error::plain(fmt::format("no subcommand '{}'; the subcommands: {}", name, fmt::join(names, ", "))),
      std::cerr);
}

}  // namespace tipc::cli
