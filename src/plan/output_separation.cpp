#include "plan/output_separation.h"

#include <filesystem>
#include <map>
#include <set>

#include <fmt/format.h>

namespace tipc::plan {
namespace fs = std::filesystem;
namespace {

bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-'; }

// "./test_tipc/output/m" -> "test_tipc/output/m": commands name a directory either way.
std::string without_dot_slash(std::string path) {
  while (path.starts_with("./")) path.erase(0, 2);
  return path;
}

// Replaces each `from` that is a whole path or a path's leading directories: not preceded by
// a name character (so "x/test_tipc/..." and "'test_tipc/..." move, "mytest_tipc/..." does
// not) and followed by the end, a '/' or anything that is not part of a file name.
void move_paths(std::string& text, const std::string& from, const std::string& to) {
  if (from.empty()) return;
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at)) {
    const std::size_t end = at + from.size();
    const bool starts = at == 0 || !is_name_char(text[at - 1]);
    const bool ends = end == text.size() || (!is_name_char(text[end]) && text[end] != '.');
    if (starts && ends) {
      text.replace(at, from.size(), to);
      at += to.size();
    } else {
      at = end;
    }
  }
}

void move_stage_paths(Stage& stage, const std::string& from, const std::string& to) {
  const auto move = [&](std::string& text) { move_paths(text, from, to); };
  for (auto& arg : stage.argv) move(arg);
  for (auto& [name, value] : stage.env) {
    if (value) move(*value);
  }
  ResultsLogFields& fields = stage.results_log;
  for (std::string* text : {&stage.log, &fields.command, &fields.shell_text, &fields.status_log, &fields.trainer_log,
                            &stage.model_dir}) {
    move(*text);
  }
  if (fields.traced_status) {
    move(fields.traced_status->before);
    move(fields.traced_status->after);
  }
  for (auto& trailing : fields.trailing_status_lines) move(trailing);
  if (stage.check) move(stage.check->result_file);
}

// A runner may write a log beside its output directory (PaddleOCR's whole_infer export log,
// test_tipc/output/MODEL/whole_infer_export_0.log), which the configs sharing that directory
// share too: it moves into the plan's own directory, under its own name.
void move_outside_logs_in(Plan& plan) {
  const fs::path dir = fs::path(without_dot_slash(plan.output_dir)).lexically_normal();
  for (auto& stage : plan.stages) {
    const fs::path log = fs::path(without_dot_slash(stage.log)).lexically_normal();
    if (stage.log.empty() || !log.lexically_relative(dir).string().starts_with("..")) continue;
    stage.log = (fs::path(plan.output_dir) / log.filename()).string();
  }
}

std::string output_key(const Plan& plan) {
  return (fs::path(plan.run_dir) / plan.output_dir).lexically_normal().string();
}

// The config's file name without its extension, made unique among `taken`.
std::string directory_name(const Plan& plan, std::set<std::string>& taken) {
  const std::string stem = fs::path(plan.config_path).stem().string();
  std::string name = stem;
  for (int n = 2; !taken.insert(name).second; ++n) name = stem + "-" + std::to_string(n);
  return name;
}

}  // namespace

void relocate_output(Plan& plan, const std::string& from, const std::string& to) {
  const std::string old_dir = without_dot_slash(from);
  const std::string new_dir = without_dot_slash(to);
  for (auto& stage : plan.stages) move_stage_paths(stage, old_dir, new_dir);
  for (auto& line : plan.leading_status_lines) move_paths(line, old_dir, new_dir);
  move_paths(plan.results_log, old_dir, new_dir);
  move_paths(plan.output_dir, old_dir, new_dir);
}

std::size_t separate_shared_outputs(std::vector<Plan>& plans) {
  std::map<std::string, std::vector<Plan*>> by_directory;
  for (auto& plan : plans) by_directory[output_key(plan)].push_back(&plan);
  std::size_t moved = 0;
  for (auto& [directory, sharing] : by_directory) {
    if (sharing.size() < 2) continue;
    std::set<std::string> taken;
    for (Plan* plan : sharing) {
      const std::string from = plan->output_dir;
      relocate_output(*plan, from, (fs::path(from) / directory_name(*plan, taken)).string());
      move_outside_logs_in(*plan);
      ++moved;
    }
  }
  return moved;
}

namespace {

// Whether any stage names `log` in its command: a reader that a new name would leave behind.
bool read_by_a_stage(const Plan& plan, const std::string& log) {
  const std::string name = fs::path(log).filename().string();
  for (const auto& stage : plan.stages) {
    for (const auto& arg : stage.argv) {
      if (arg.find(name) != std::string::npos) return true;
    }
  }
  return false;
}

// "norm_train_gpus_0_autocast_amp/infer/x" -> "norm_train_gpus_0_autocast_amp"
std::string first_part(const std::string& id) { return id.substr(0, id.find('/')); }

}  // namespace

std::size_t separate_shared_logs(Plan& plan) {
  std::map<std::string, const Stage*> writer;  // normalised log path -> its first stage
  std::size_t renamed = 0;
  std::string example;
  for (auto& stage : plan.stages) {
    if (stage.log.empty()) continue;
    const auto [it, first] = writer.emplace(fs::path(stage.log).lexically_normal().string(), &stage);
    if (first || read_by_a_stage(plan, stage.log)) continue;
    const fs::path old_log = stage.log;
    std::string name = first_part(stage.id) + "_" + old_log.filename().string();
    for (int n = 2; writer.count((old_log.parent_path() / name).lexically_normal().string()); ++n) {
      name = first_part(stage.id) + "_" + std::to_string(n) + "_" + old_log.filename().string();
    }
    stage.log = (old_log.parent_path() / name).string();
    writer.emplace(fs::path(stage.log).lexically_normal().string(), &stage);
    if (example.empty()) {
      example = fmt::format("{} and {} both write {}", it->second->id, stage.id, old_log.string());
    }
    ++renamed;
  }
  if (renamed > 0) {
    plan.warnings.push_back(
        {plan.config_path, 0, "",
         fmt::format("{} stage{} write{} a log of an earlier stage's name, which the reference overwrites ({}): each "
                     "later one is written as <the first part of its id>_<name>",
                     renamed, renamed == 1 ? "" : "s", renamed == 1 ? "s" : "", example)});
  }
  return renamed;
}

namespace {

// The files a stage writes, as the repository root sees them.
std::vector<std::string> written_files(const Plan& plan, const Stage& stage) {
  std::vector<std::string> files;
  const auto add = [&](const std::string& path) {
    if (!path.empty()) files.push_back((fs::path(plan.run_dir) / path).lexically_normal().string());
  };
  add(stage.log);
  if (stage.results_log.trainer_log != stage.log) add(stage.results_log.trainer_log);
  if (stage.check) add(stage.check->result_file);
  if (stage.kind == StageKind::kTrain) add(stage.model_dir);
  return files;
}

}  // namespace

std::vector<OutputClash> find_output_clashes(const std::vector<Plan>& plans) {
  std::map<std::string, std::pair<std::size_t, const Stage*>> writer;
  std::vector<OutputClash> clashes;
  for (std::size_t p = 0; p < plans.size(); ++p) {
    for (const auto& stage : plans[p].stages) {
      for (const auto& file : written_files(plans[p], stage)) {
        const auto [it, first] = writer.emplace(file, std::pair{p, &stage});
        if (!first) clashes.push_back({it->second.first, p, it->second.second->id, stage.id, file});
      }
    }
  }
  return clashes;
}

}  // namespace tipc::plan
