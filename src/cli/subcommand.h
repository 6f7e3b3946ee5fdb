#pragma once
// The subcommands (`tipc-run diff ...`): their table, which main() dispatches on and --help
// lists, and parsing the words after one with CLI11.
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"

namespace CLI {
class App;
}  // namespace CLI

namespace tipc::cli {

struct Subcommand {
  using Main = int (*)(const std::vector<std::string>& args);  // args: the words after the name
  std::string_view name;
  std::string_view summary;  // one line for --help
  Main main;
  bool listed = true;  // false: left out of --help (a tool's command; docs/cli.md describes it)
};

// In the order --help lists them, the unlisted ones last.
std::span<const Subcommand> subcommands();

// The subcommand called `name`, or nullptr.
const Subcommand* find_subcommand(std::string_view name);

// The --help section that lists the listed subcommands, one line each.
std::string subcommands_help();

// nullopt when parsing succeeded; otherwise the exit code to return (0 after --help,
// 2 for a usage error), with CLI11's text written to out or err.
std::optional<int> parse_subcommand(CLI::App& app, const std::vector<std::string>& args, std::ostream& out,
                                    std::ostream& err);

// How every subcommand stops on an error: "tipc-run NAME: error: FILE:LINE: ..." on err, and
// the error's own exit code (2 for unusable input, 1 for a check that found a mismatch).
int subcommand_error(std::string_view name, const Error& error, std::ostream& err);

}  // namespace tipc::cli
