#pragma once
// Parsing the words after a subcommand (`tipc-run diff ...`) with CLI11.
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace tipc::cli {

// nullopt when parsing succeeded; otherwise the exit code to return (0 after --help,
// 2 for a usage error), with CLI11's text written to out or err.
std::optional<int> parse_subcommand(CLI::App& app, const std::vector<std::string>& args, std::ostream& out,
                                    std::ostream& err);

}  // namespace tipc::cli
