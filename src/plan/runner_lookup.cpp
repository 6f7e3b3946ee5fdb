#include "plan/runner_lookup.h"

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace tipc::plan {
namespace fs = std::filesystem;
namespace {

// `path` relative to `root` when it lies inside it.
std::optional<std::string> inside(const fs::path& path, const fs::path& root) {
  const fs::path relative = path.lexically_relative(root);
  if (relative.empty() || *relative.begin() == "..") return std::nullopt;
  return relative.string();
}

// The nearest test_tipc/ directory above the config, within the repository; "" when none.
fs::path test_tipc_above(const fs::path& config, const fs::path& root) {
  for (fs::path dir = config.parent_path(); !dir.empty(); dir = dir.parent_path()) {
    if (dir.filename() == "test_tipc") return dir;
    if (dir == root || dir == dir.root_path()) break;
  }
  return {};
}

// The first of `names` that exists in `dir`; "" when none does.
fs::path first_runner_in(const fs::path& dir, const std::vector<std::string>& names) {
  std::error_code ec;
  for (const auto& name : names) {
    if (!dir.empty() && fs::is_regular_file(dir / name, ec)) return dir / name;
  }
  return {};
}

// Without a file of the chain's runner names, the script of `dir` that fits the chain's
// signature (dialect/runner_signature.h); "" when none fits; an error naming them when
// several do, since choosing among them would be a guess.
Result<fs::path> recognised_runner(const fs::path& config, const fs::path& dir, const dialect::Chain& chain,
                                   const RunnerChoice& choice) {
  if (dir.empty() || chain.signature.empty()) return fs::path{};
  dialect::RunnerScripts unshared;
  dialect::RunnerScripts& scripts = choice.scripts ? *choice.scripts : unshared;
  const auto fitting = dialect::fitting_runners(*choice.chains, chain, scripts.in(dir.string()));
  if (fitting.size() == 1) return dir / fitting.front();
  if (fitting.empty()) return fs::path{};
  std::vector<std::string> paths;
  for (const auto& name : fitting) paths.push_back((dir / name).string());
  return fail(Error::at(config.string(), 1, "",
                        fmt::format("chain {}: {} scripts fit the signature of its runner ({}:{}): {}; give --runner "
                                    "PATH to choose one",
                                    chain.name, fitting.size(), chain.file, chain.line, fmt::join(paths, " and "))));
}

// The first of the chain's runner files in `dir`, else the one script there that fits its
// signature; "" when none.
Result<fs::path> runner_of_chain(const fs::path& config, const fs::path& dir, const dialect::Chain& chain,
                                 const RunnerChoice& choice) {
  fs::path runner = first_runner_in(dir, chain.runners);
  if (runner.empty()) runner = TRY(recognised_runner(config, dir, chain, choice));
  return runner;
}

// A traced config takes the modes of its chains (what `tipc-run modes CONFIG` lists); an
// error names them and the runner.
Result<void> check_runner_mode(const fs::path& config, const std::string& header, const fs::path& runner,
                               const dialect::Chain& chain, const RunnerChoice& choice) {
  const auto modes = dialect::chain_modes(*choice.chains, header, config.filename().string());
  if (modes.empty() || std::find(modes.begin(), modes.end(), choice.mode) != modes.end()) return {};
  return fail(Error::at(config.string(), 0, "",
                        fmt::format("unknown mode '{}' for its runner {} (chain {}): it takes {} (tipc-run modes "
                                    "CONFIG lists them)",
                                    choice.mode, runner.string(), chain.name, fmt::join(modes, ", "))));
}

// The runner of the config's chain next to it; "" when its chain has none there but a
// planner (the dialects, or its native planner); an error saying why for any other config
// without one. `chosen` is the chain whose runner it is.
Result<fs::path> chain_runner(const fs::path& config, const std::string& header, const fs::path& root,
                              const RunnerChoice& choice, const dialect::Chain*& chosen) {
  const fs::path dir = test_tipc_above(config, root);
  if (!choice.chains) return fs::path{};
  const dialect::Chain* chain =
      header.empty() ? dialect::dialect_chain(*choice.chains)
                     : dialect::choose_chain(*choice.chains, header, config.filename().string(), choice.mode);
  if (!chain) {
    return fail(Error::at(config.string(), 1, "",
                          fmt::format("no chain of chains.yaml matches this config (header "
                                      "'{}'); give --runner PATH",
                                      header)));
  }
  chosen = chain;
  if (!chain->unsupported.empty()) {
    return fail(Error::at(
        config.string(), 1, "",
        fmt::format("UNSUPPORTED: chain {} ({}:{}): {}", chain->name, chain->file, chain->line, chain->unsupported)));
  }
  fs::path runner = TRY(runner_of_chain(config, dir, *chain, choice));
  // A chain chosen for its MODE alone (benchmark_train) without its runner here: the
  // config's own runner takes that MODE, as the upstream benchmark_train.sh starts it.
  const dialect::Chain* general = dialect::choose_chain(*choice.chains, header, config.filename().string(), "");
  if (runner.empty() && !chain->when_modes.empty() && general && general->unsupported.empty()) {
    runner = TRY(runner_of_chain(config, dir, *general, choice));
    if (!runner.empty()) chosen = general;
  }
  // Without its runner, a config the dialects describe goes to them, and one of a chain with
  // a native planner to that planner (chains.yaml's planner:).
  if (!runner.empty() || dialect::dialect_describes(*choice.chains, header) ||
      chain->planner == dialect::ChainPlanner::kNative) {
    return runner;
  }
  return fail(Error::at(config.string(), 1, "",
                        fmt::format("chain {}: no runner ({}) in {}", chain->name, fmt::join(chain->runners, ", "),
                                    dir.empty() ? "a test_tipc/ directory above the config" : dir.string())));
}

}  // namespace

Result<std::optional<RunnerCall>> find_runner(const config::ConfigText& text, const std::string& repo_root,
                                              const RunnerChoice& choice) {
  std::error_code ec;
  const std::string& config_file = text.path;
  const fs::path root = fs::path(repo_root).lexically_normal();
  const fs::path config = fs::absolute(config_file, ec).lexically_normal();
  const std::string header = dialect::config_header(text.header_line());
  fs::path runner;
  const dialect::Chain* chain = nullptr;
  if (choice.runner_option) {
    runner = fs::absolute(*choice.runner_option, ec).lexically_normal();
    if (!fs::is_regular_file(runner, ec)) {
      return fail(Error::at(*choice.runner_option, 0, "", "--runner: no such file: " + errno_text(ENOENT)));
    }
    if (choice.chains) chain = dialect::chain_of_config(*choice.chains, text, choice.mode);
  } else {
    runner = TRY(chain_runner(config, header, root, choice, chain));
    if (runner.empty()) return std::optional<RunnerCall>{};
    if (chain) TRY(check_runner_mode(config, header, runner.lexically_relative(root), *chain, choice));
  }
  const auto runner_in_repo = inside(runner, root);
  if (!runner_in_repo)
    return fail(Error::at(runner.string(), 0, "", "the runner lies outside the repository " + repo_root));
  if (!inside(config, root))
    return fail(Error::at(config_file, 0, "", "the config lies outside the repository " + repo_root));
  const fs::path run_dir = runner.parent_path().parent_path();
  const auto run_dir_in_repo = inside(run_dir, root);
  return RunnerCall{*runner_in_repo, run_dir_in_repo.value_or("."), config.lexically_relative(run_dir).string(), chain,
                    choice.chains && dialect::dialect_describes(*choice.chains, header)};
}

const dialect::Chain* native_chain(const config::ConfigText& text, const RunnerChoice& choice) {
  if (!choice.chains) return nullptr;
  const auto* chain = dialect::chain_of_config(*choice.chains, text, choice.mode);
  return chain && chain->planner == dialect::ChainPlanner::kNative ? chain : nullptr;
}

}  // namespace tipc::plan
