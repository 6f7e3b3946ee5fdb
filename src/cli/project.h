#pragma once
// Everything a run needs to know about the repository it runs in: its root, its
// tipc-run settings, its dialect and launcher.
#include <optional>
#include <string>

#include "cli/options.h"
#include "config/project_settings.h"
#include "core/error.h"
#include "dialect/dialect.h"

namespace tipc::cli {

struct Project {
  std::string root;  // absolute
  config::ProjectSettings settings;
  dialect::Dialect dialect;
  std::optional<dialect::Launcher> launcher;
};

// --dialect, else the settings' dialect, else detected from the root's markers, else paddleocr.
Result<Project> load_project(const Options& options);

}  // namespace tipc::cli
