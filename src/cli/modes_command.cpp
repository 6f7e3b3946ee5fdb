#include "cli/modes_command.h"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <optional>
#include <variant>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "cli/subcommand.h"
#include "cli/suite.h"
#include "dialect/dialect.h"

namespace tipc::cli {
namespace {

struct ModesArgs {
  std::string config;
  std::optional<std::string> dialect_dir;
};

// Returns the parsed arguments, or the exit code (0 after --help).
std::variant<ModesArgs, int> parse_modes_args(const std::vector<std::string>& args, std::ostream& out,
                                              std::ostream& err) {
  ModesArgs parsed;
  CLI::App app{"Print the modes of a config's chain (configs/chains.yaml), one a line; the bash completion asks it",
               "tipc-run modes"};
  app.add_option("CONFIG", parsed.config, "a TIPC config, or a directory of them (a suite)")->required();
  app.add_option("--dialect-dir", parsed.dialect_dir,
                 "the dialect directory whose chains.yaml to read (as for a run; default: the shipped one)");
  if (const auto code = parse_subcommand(app, args, out, err)) return *code;
  return parsed;
}

void add_new(std::vector<std::string>& to, const std::string& mode) {
  if (std::find(to.begin(), to.end(), mode) == to.end()) to.push_back(mode);
}

// The modes of every config the argument names that has a chain, each once; the first
// problem when none has.
Result<std::vector<std::string>> modes_of_configs(const std::string& argument, const dialect::Chains& chains,
                                                  const std::string& chains_path) {
  const auto files = TRY(plan::config_files(argument, chains));
  std::vector<std::string> modes;
  std::optional<Error> first_problem;
  for (const plan::ConfigFile& file : files) {
    if (!file.text) {
      first_problem = first_problem.value_or(file.text.error());
      continue;
    }
    const std::string header = dialect::config_header(file.text->header_line());
    const auto found = dialect::chain_modes(chains, header, std::filesystem::path(file.path).filename().string());
    if (found.empty() && !first_problem) {
      first_problem = Error::at(file.path, 1, "",
                                fmt::format("no chain of {} matches this config (header '{}')", chains_path, header));
    }
    for (const auto& mode : found) add_new(modes, mode);
  }
  if (modes.empty()) return fail(*first_problem);
  return modes;
}

}  // namespace

int modes_main(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  auto parsed = parse_modes_args(args, out, err);
  if (const int* code = std::get_if<int>(&parsed)) return *code;
  const ModesArgs& modes_args = std::get<ModesArgs>(parsed);
  const std::string chains_path =
      dialect::chains_file(modes_args.dialect_dir.value_or(dialect::default_dialect_directory()));
  const auto chains = dialect::load_chains(chains_path);
  if (!chains) return subcommand_error("modes", chains.error(), err);
  const auto modes = modes_of_configs(modes_args.config, *chains, chains_path);
  if (!modes) return subcommand_error("modes", modes.error(), err);
  for (const auto& mode : *modes) out << mode << '\n';
  return kExitPassed;
}

int modes_main(const std::vector<std::string>& args) { return modes_main(args, std::cout, std::cerr); }

}  // namespace tipc::cli
