#include "cli/options.h"

#include <sstream>

#include <CLI/CLI.hpp>

namespace tipc::cli {

Result<Options> parse_options(int argc, const char* const* argv) {
  Options o;
  CLI::App app{"tipc-run: runs TIPC train/inference chains and checks their results"};
  app.set_version_flag("--version", std::string("tipc-run ") + TIPC_VERSION);
  app.add_option("config", o.config, "TIPC config (train_infer_python.txt format)")->required();
  app.add_option("mode", o.mode, "lite_train_lite_infer, lite_train_whole_infer, whole_train_whole_infer, whole_infer, ...")
      ->required();
  app.add_flag("--dry-run", o.dry_run, "print the plan and run nothing");
  app.add_option("--format", o.format, "dry-run output format")->check(CLI::IsMember({"text", "jsonl"}));
  app.add_flag("--compat", o.compat, "reproduce the reference runner exactly, quirks included");
  app.add_option("--dialect", o.dialect, "paddleocr, paddleclas, paddledetection, paddleseg, ... (default: detected)");
  app.add_option("--python", o.python, "interpreter to use instead of the config's python: line");
  app.add_option("--dialect-dir", o.dialect_dir, "directory of dialect YAML files");
  app.add_option("--repo-root", o.repo_root, "repository root (default: the directory holding test_tipc/)");
  app.add_option("--launcher", o.launcher, "launcher of distributed trains (configs/launchers.yaml), e.g. rank-env");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    std::ostringstream out, err;
    const int code = app.exit(e, out, err);
    Error error = Error::plain(out.str().empty() ? err.str() : out.str());
    error.exit_code = code == 0 ? kExitPassed : kExitUsage;
    return fail(error);
  }
  return o;
}

}  // namespace tipc::cli
