#include "cli/project.h"

#include <filesystem>

#include "cli/repo_root.h"

namespace tipc::cli {
namespace fs = std::filesystem;

Result<Project> load_project(const Options& options) {
  Project project;
  std::error_code ec;
  project.root = fs::absolute(options.repo_root.value_or(find_repo_root(options.config)), ec).lexically_normal();
  if (project.root.size() > 1 && project.root.back() == '/') project.root.pop_back();

  const std::string default_settings = project.root + "/test_tipc/tipc-run.yaml";
  if (options.settings || fs::exists(default_settings)) {
    auto settings = config::load_project_settings(options.settings.value_or(default_settings));
    if (!settings) return fail(settings.error());
    project.settings = *settings;
  }

  const std::string dialect_dir = options.dialect_dir.value_or(dialect::default_dialect_directory());
  std::string name = options.dialect.value_or(project.settings.dialect.value_or(""));
  if (name.empty()) {
    auto detected = dialect::detect_dialect(dialect_dir, project.root);
    if (!detected) return fail(detected.error());
    name = detected->empty() ? "paddleocr" : *detected;
  }
  auto dialect = dialect::load_dialect(dialect_dir, name);
  if (!dialect) return fail(dialect.error());
  project.dialect = *dialect;

  if (const auto launcher = options.launcher ? options.launcher : project.settings.launcher) {
    auto loaded = dialect::load_launcher(dialect::launchers_file(dialect_dir), *launcher);
    if (!loaded) return fail(loaded.error());
    project.launcher = *loaded;
  }
  return project;
}

}  // namespace tipc::cli
