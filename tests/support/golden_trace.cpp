#include "support/golden_trace.h"

#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "plan/shell_words.h"

namespace tipc::test {
namespace {

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The stdout file of an evaluated string, relative to the repository root as the tracer
// reports it (the runner's paths are relative to its run directory).
std::string redirect_target(const std::string& eval, const std::string& run_dir, const std::string& repo_root) {
  auto words = plan::split_shell_words(eval, {.pipe_is_space = true});
  if (!words || !words->stdout_file) return "";
  std::string path = *words->stdout_file;
  if (path.starts_with(repo_root + "/")) return path.substr(repo_root.size() + 1);
  if (path.starts_with("/")) return path;
  if (path.starts_with("./")) path = path.substr(2);
  return run_dir == "." ? path : run_dir + "/" + path;
}

}  // namespace

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

std::vector<std::string> non_empty_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) lines.push_back(line);
  }
  return lines;
}

trace::Trace golden_trace(const std::string& base, const std::string& repo_root) {
  const auto meta = nlohmann::json::parse(read_all(base + ".meta.json"));
  const auto& corpus = meta["corpus"];
  trace::Trace trace;
  trace.runner = meta.value("runner", "");
  trace.run_dir = corpus["run_dir"];
  trace.config_arg = corpus["config_arg"];
  trace.mode = corpus["mode_arg"];
  trace.exit_code = meta["exit_code"].is_null() ? 0 : meta["exit_code"].get<int>();
  for (const auto& line : non_empty_lines(read_all(base + ".raw.cmds"))) {
    trace.evals.push_back(replace_all(line, "<REPO_ROOT>", repo_root));
  }
  std::size_t next_eval = 0;
  for (const auto& line : non_empty_lines(read_all(base + ".argv.jsonl"))) {
    const auto record = nlohmann::json::parse(replace_all(line, "<REPO_ROOT>", repo_root));
    trace::TracedCall call;
    call.program = record["argv0"];
    call.args = record["argv"].get<std::vector<std::string>>();
    call.cwd = record["cwd"];
    if (!record["cuda_visible_devices"].is_null()) call.env["CUDA_VISIBLE_DEVICES"] = record["cuda_visible_devices"];
    const bool pre_step = !call.args.empty() && call.args[0] == "setup_ms_deformable_attn_op.py";
    if (!pre_step && next_eval < trace.evals.size()) {
      call.eval_index = next_eval++;
      call.stdout_path = redirect_target(trace.evals[call.eval_index], trace.run_dir, repo_root);
      call.stderr_path = call.stdout_path;
    }
    trace.calls.push_back(std::move(call));
  }
  const std::string results = read_all(base + ".results_python.log");
  if (!results.empty()) {
    trace::StatusLog log;
    const std::size_t header_end = results.find('\n');
    log.path = results.substr(4, header_end - 4);
    if (trace.run_dir != ".") log.path = trace.run_dir + "/" + log.path;
    log.text = replace_all(results.substr(header_end + 1), "<REPO_ROOT>", repo_root);
    trace.status_logs.push_back(std::move(log));
  }
  return trace;
}

}  // namespace tipc::test
