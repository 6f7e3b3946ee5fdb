#include "cli/project.h"

#include <filesystem>

#include <fmt/format.h>

#include "cli/trace_environment.h"
#include "core/locations.h"

namespace tipc::cli {
namespace fs = std::filesystem;
namespace {

// The settings file as a person finds it: relative to the repository when inside it.
std::string shown_path(const std::string& path, const std::string& root) {
  std::error_code ec;
  const fs::path relative = fs::absolute(path, ec).lexically_normal().lexically_relative(root);
  return relative.empty() || *relative.begin() == ".." ? path : relative.string();
}

Result<dialect::DialectChoice> choose_dialect(const ProjectRequest& request, const Project& project,
                                              const std::string& dialect_dir) {
  if (request.dialect) return dialect::DialectChoice{*request.dialect, "given by --dialect", ""};
  if (const auto& declared = project.settings.dialect) {
    return dialect::DialectChoice{*declared,
                                  fmt::format("declared in {}:{}", shown_path(project.settings.path, project.root),
                                              project.settings.dialect_line),
                                  ""};
  }
  return dialect::detect_dialect(dialect_dir, project.root);
}

Result<Project> with_launcher(Project project, const ProjectRequest& request, const std::string& dialect_dir) {
  if (const auto launcher = request.launcher ? request.launcher : project.settings.launcher) {
    project.launcher = TRY(dialect::load_launcher(dialect::launchers_file(dialect_dir), *launcher));
  }
  return project;
}

}  // namespace

Result<std::optional<dialect::Chains>> load_chains_for(const std::optional<std::string>& dialect_dir) {
  std::error_code ec;
  std::string file = dialect::chains_file(dialect_dir.value_or(dialect::default_dialect_directory()));
  if (!fs::exists(file, ec)) file = dialect::chains_file(dialect::default_dialect_directory());
  if (!fs::exists(file, ec)) return std::optional<dialect::Chains>{};
  return std::optional<dialect::Chains>{TRY(dialect::load_chains(file))};
}

Result<Project> load_project(const ProjectRequest& request) {
  Project project;
  std::error_code ec;
  project.root = fs::absolute(request.repo_root.value_or(repository_root(request.config)), ec).lexically_normal();
  if (project.root.size() > 1 && project.root.back() == '/') project.root.pop_back();

  const std::string default_settings = default_settings_path(project.root);
  if (request.settings || fs::exists(default_settings)) {
    project.settings = TRY(config::load_project_settings(request.settings.value_or(default_settings)));
  }
  project.trace_env = TRY(trace_environment(project.settings, request.trace_env));
  project.chains = TRY(load_chains_for(request.dialect_dir));

  const std::string dialect_dir = request.dialect_dir.value_or(dialect::default_dialect_directory());
  auto choice = choose_dialect(request, project, dialect_dir);
  if (!choice && !request.dialect_required) {
    project.dialect_error = choice.error();
    project.dialect_choice = {"none", "no marker decides; configs are planned from their runners", ""};
    return with_launcher(std::move(project), request, dialect_dir);
  }
  project.dialect_choice = TRY(std::move(choice));
  auto dialect = dialect::load_dialect(dialect_dir, project.dialect_choice.name);
  if (!dialect) {
    Error error = dialect.error();
    error.diagnostics.back().message +=
        " (" + project.dialect_choice.source + ")";  // which --dialect or settings line to fix
    return fail(error);
  }
  project.dialect = *dialect;
  return with_launcher(std::move(project), request, dialect_dir);
}

void print_dialect_choice(const dialect::DialectChoice& choice, std::ostream& out, std::ostream& warnings) {
  out << fmt::format("tipc-run: dialect {} ({})\n", choice.name, choice.source);
  if (!choice.doubt.empty()) warnings << "tipc-run: warning: " << choice.doubt << '\n';
}

}  // namespace tipc::cli
