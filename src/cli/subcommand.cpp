#include "cli/subcommand.h"

#include "core/error.h"

namespace tipc::cli {

std::optional<int> parse_subcommand(CLI::App& app, const std::vector<std::string>& args, std::ostream& out,
                                    std::ostream& err) {
  std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 consumes from the back
  try {
    app.parse(reversed);
  } catch (const CLI::ParseError& e) {
    return app.exit(e, out, err) == 0 ? kExitPassed : kExitUsage;
  }
  return std::nullopt;
}

}  // namespace tipc::cli
