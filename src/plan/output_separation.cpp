#include "plan/output_separation.h"

#include <algorithm>
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
  for (std::string* text :
       {&stage.log, &fields.command, &fields.shell_text, &fields.status_log, &fields.trainer_log, &stage.model_dir}) {
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

// The config's file name without its extension, made unique among `taken` (name -> the
// config that has it): the same config in another MODE into the same directory (a runner
// whose output path names no MODE) adds the MODE; another config of that name is numbered.
std::string directory_name(const Plan& plan, std::map<std::string, std::string>& taken) {
  const std::string stem = fs::path(plan.config_path).stem().string();
  const auto first = taken.find(stem);
  std::string name = first != taken.end() && first->second == plan.config_path ? stem + "_" + plan.mode : stem;
  for (int n = 2; !taken.emplace(name, plan.config_path).second; ++n) name = stem + "-" + std::to_string(n);
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
    std::map<std::string, std::string> taken;
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

// The first stage that names `log` in its command: a reader that a new name would leave behind.
const Stage* reader_of(const Plan& plan, const std::string& log) {
  const std::string name = fs::path(log).filename().string();
  for (const auto& stage : plan.stages) {
    for (const auto& arg : stage.argv) {
      if (arg.find(name) != std::string::npos) return &stage;
    }
  }
  return nullptr;
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
    if (first || reader_of(plan, stage.log)) continue;
    const fs::path old_log = stage.log;
    std::string name = first_part(stage.id) + "_" + old_log.filename().string();
    for (int n = 2; writer.count((old_log.parent_path() / name).lexically_normal().string()); ++n) {
      name = first_part(stage.id) + "_" + std::to_string(n) + "_" + old_log.filename().string();
    }
    stage.log = (old_log.parent_path() / name).string();
    // A trainer log that is the stage's own log (`> train.log`, then `cat train.log >>`) is renamed with it.
    if (fs::path(stage.results_log.trainer_log).lexically_normal() == old_log.lexically_normal()) {
      stage.results_log.trainer_log = stage.log;
    }
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

// A path a stage names, as the repository root sees it: "./exp/default/" -> "exp/default".
std::string repository_path(const Plan& plan, const std::string& path) {
  std::string normal = (fs::path(plan.run_dir) / path).lexically_normal().string();
  while (normal.size() > 1 && normal.back() == '/') normal.pop_back();
  return normal;
}

// The files a stage writes, each once: a stage whose model directory or trainer log is its own
// log names one file twice, and never clashes with itself.
std::vector<std::string> written_files(const Plan& plan, const Stage& stage) {
  std::vector<std::string> files;
  const auto add = [&](const std::string& path) {
    if (path.empty()) return;
    std::string file = repository_path(plan, path);
    if (std::find(files.begin(), files.end(), file) == files.end()) files.push_back(std::move(file));
  };
  add(stage.log);
  add(stage.results_log.trainer_log);
  if (stage.check) add(stage.check->result_file);
  if (stage.kind == StageKind::kTrain) add(stage.model_dir);
  return files;
}

// Each file the plan's stages write, with its writers in plan order.
std::map<std::string, std::vector<std::size_t>> writers_of(const Plan& plan) {
  std::map<std::string, std::vector<std::size_t>> writers;
  for (std::size_t i = 0; i < plan.stages.size(); ++i) {
    for (const auto& file : written_files(plan, plan.stages[i])) writers[file].push_back(i);
  }
  return writers;
}

bool is_a_stage_log(const Plan& plan, const std::string& file) {
  return std::any_of(plan.stages.begin(), plan.stages.end(), [&](const Stage& stage) {
    return !stage.log.empty() && repository_path(plan, stage.log) == file;
  });
}

// Whether stage `from` starts only after stage `to` has ended: through its deps and its
// after, transitively.
bool waits_for(const Plan& plan, const std::map<std::string, std::size_t>& index, std::size_t from, std::size_t to) {
  std::vector<std::size_t> pending = {from};
  std::set<std::size_t> seen;
  while (!pending.empty()) {
    const std::size_t at = pending.back();
    pending.pop_back();
    if (at == to && at != from) return true;
    if (!seen.insert(at).second) continue;
    for (const auto* ids : {&plan.stages[at].deps, &plan.stages[at].after}) {
      for (const auto& id : *ids) {
        if (const auto it = index.find(id); it != index.end()) pending.push_back(it->second);
      }
    }
  }
  return false;
}

// `later` overwrites what `earlier` wrote: it starts once `earlier` has ended, and with it
// every stage between them that waits for `earlier` (what reads its output), as the runner
// ran them, unless it waits for them already.
void order_after(Plan& plan, const std::map<std::string, std::size_t>& index, std::size_t earlier, std::size_t later) {
  for (std::size_t between = earlier; between < later; ++between) {
    if (between != earlier && !waits_for(plan, index, between, earlier)) continue;
    if (waits_for(plan, index, later, between)) continue;
    plan.stages[later].after.push_back(plan.stages[between].id);
  }
}

// "exp/default is written by a/train, then b/train, whose output stays"
std::string shared_output_text(const Plan& plan, const std::string& file, const std::vector<std::size_t>& writers) {
  std::vector<std::string> ids;
  for (const std::size_t i : writers) ids.push_back(plan.stages[i].id);
  return fmt::format("{} is written by {}, whose output stays", file, fmt::join(ids, ", then "));
}

}  // namespace

std::size_t order_shared_outputs(Plan& plan) {
  std::map<std::string, std::size_t> index;  // stage id -> its position
  for (std::size_t i = 0; i < plan.stages.size(); ++i) index.emplace(plan.stages[i].id, i);
  std::vector<std::string> shared;
  for (const auto& [file, writers] : writers_of(plan)) {
    if (writers.size() < 2 || is_a_stage_log(plan, file)) continue;
    for (std::size_t w = 1; w < writers.size(); ++w) order_after(plan, index, writers[w - 1], writers[w]);
    shared.push_back(shared_output_text(plan, file, writers));
  }
  const std::size_t count = shared.size();
  if (count == 0) return 0;
  constexpr std::size_t kNamed = 3;  // a warning stays one readable line
  if (count > kNamed) {
    shared.resize(kNamed);
    shared.push_back(fmt::format("and {} more outputs", count - kNamed));
  }
  plan.warnings.push_back({plan.config_path, 0, "",
                           fmt::format("{}: stages that write one output run one at a time in the runner's order, "
                                       "each with its own log, as the runner runs them",
                                       fmt::join(shared, "; "))});
  return count;
}

namespace {

constexpr const char* kSuiteClashReason =
    "the configs of a suite run side by side, and the runner gives them no order: run this config by itself";

// Why two stages of one plan cannot write one log: each stage's output goes to a log of its own.
std::string log_clash_reason(const Stage* reader) {
  if (!reader) return "each stage writes a log of its own";
  return fmt::format(
      "each stage writes a log of its own, and stage {} reads this one by its name, so neither can be "
      "given another",
      reader->id);
}

}  // namespace

std::vector<OutputClash> find_output_clashes(const std::vector<Plan>& plans) {
  std::map<std::string, std::pair<std::size_t, std::size_t>> writer;  // file -> its first plan and stage
  std::vector<OutputClash> clashes;
  for (std::size_t p = 0; p < plans.size(); ++p) {
    for (std::size_t s = 0; s < plans[p].stages.size(); ++s) {
      for (const auto& file : written_files(plans[p], plans[p].stages[s])) {
        const auto [it, first] = writer.emplace(file, std::pair{p, s});
        if (first) continue;
        const auto [first_plan, first_stage] = it->second;
        const bool within = first_plan == p;
        if (within && !is_a_stage_log(plans[p], file)) continue;  // order_shared_outputs runs them in turn
        const Stage* reader = within ? reader_of(plans[p], file) : nullptr;
        clashes.push_back({first_plan, p, plans[first_plan].stages[first_stage].id, plans[p].stages[s].id, file,
                           within ? log_clash_reason(reader) : kSuiteClashReason});
      }
    }
  }
  return clashes;
}

}  // namespace tipc::plan
