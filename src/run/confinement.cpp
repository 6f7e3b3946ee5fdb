#include "run/confinement.h"

#include <filesystem>

#include <fmt/format.h>

#include "config/train_infer_config.h"
#include "core/confined_path.h"
#include "run/journal.h"

namespace tipc::run {
namespace {

// The first line keyed model_name, as the traced planner finds it (the native planners read
// line 2, which their layout checks require to be keyed so); its value everything after the
// first colon, a superset of what any runner copy reads there.
std::optional<config::Field> model_name_field(const config::ConfigText& text) {
  const config::TrainInferConfig config = config::split_config(text, config::SplitRules{});
  const config::Field* field = config.field_named("model_name");
  return field ? std::optional(*field) : std::nullopt;
}

}  // namespace

std::optional<Diagnostic> unconfined_model_name(const config::ConfigText& text) {
  const auto field = model_name_field(text);
  if (!field || field->value.empty() || is_confined_relative_path(field->value)) return std::nullopt;
  return Diagnostic{text.path, field->physical_line, "model_name",
                    fmt::format("model_name '{}' names the output directory test_tipc/output/{}/...: it must be a "
                                "relative path without '..' (--compat accepts it)",
                                field->value, field->value)};
}

std::optional<Diagnostic> output_outside_repository(const plan::Plan& plan, const config::ConfigText& text,
                                                    const std::string& repo_root) {
  namespace fs = std::filesystem;
  const fs::path root = fs::path(repo_root).lexically_normal();
  const fs::path output = plan_output_path(repo_root, plan);
  const fs::path relative = output.lexically_relative(root);
  if (!relative.empty() && *relative.begin() != "..") return std::nullopt;
  const auto field = model_name_field(text);
  return Diagnostic{text.path, field ? field->physical_line : 0, field ? "model_name" : "",
                    fmt::format("the plan's output directory {} lies outside the repository {} (--compat accepts it)",
                                output.string(), root.string())};
}

}  // namespace tipc::run
