#include "dialect/template_variables.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>

#include "compat/reference_planning_rules.h"
#include "dialect/dialect.h"
#include "plan/plan_file.h"
#include "plan/plan_json.h"
#include "support/fake_config.h"
#include "support/golden_trace.h"
#include "support/paths.h"
#include "support/run_binary.h"
#include "support/temp_dir.h"
#include "support/text_lines.h"
#include "support/traced_corpus.h"

namespace tipc::dialect {
namespace {
namespace TIPC_TEST_FILE {
namespace fs = std::filesystem;

// Every name dialect files used before the variables were named for what they hold, and its
// current name: dialect files that use them must keep loading (docs/config-format.md).
const std::vector<std::pair<std::string, std::string>> kOldNames = {
    {"LOG", "log_dir"},
    {"ac_kv", "autocast_arg"},
    {"batch", "batch_arg"},
    {"bench", "benchmark_arg"},
    {"cmd", "command"},
    {"data", "infer_data_arg"},
    {"epoch", "epoch_arg"},
    {"eval_extra", "eval_extra_arg"},
    {"eval_w", "eval_weights_arg"},
    {"exp_dir", "save_inference_dir_arg"},
    {"exp_dir_key", "save_inference_dir_key"},
    {"exp_w", "export_weights_arg"},
    {"extra", "train_extra_arg"},
    {"fname", "filename_arg"},
    {"ib", "batch_size_arg"},
    {"iex", "infer_extra_arg"},
    {"iex2", "infer_extra2_arg"},
    {"index", "infer_model_index"},
    {"kl_script", "kl_quant_script"},
    {"launch", "launcher_args"},
    {"log0", "save_log_path_arg"},
    {"mkl", "mkldnn_arg"},
    {"mkl_always", "mkldnn_arg_always"},
    {"model", "model_name"},
    {"model_dir_slot", "infer_model_dir_arg"},
    {"model_exported", "exported_model"},
    {"model_i", "infer_model"},
    {"model_parent", "infer_model_parent"},
    {"model_pp", "model_name_pp_lowered"},
    {"pre", "pretrained_or_norm_weights_arg"},
    {"prec", "precision_arg"},
    {"pretrain", "pretrained_arg"},
    {"py", "python"},
    {"res", "results_dir_arg"},
    {"save", "save_dir_arg"},
    {"set_12", "arg_12"},
    {"thr", "threads_arg"},
    {"trt_slot", "trt_arg"},
    {"ts", "to_static_text"},
    {"ug", "infer_use_gpu"},
    {"ugk", "infer_use_gpu_key"},
    {"use_gpu", "use_gpu_arg"},
    {"wi_weights", "infer_model_weights_arg"},
    {"word", "status_word"},
};

TEST(TemplateVariables, ThePlannersNamesAndLineVariablesAreKnown) {
  for (const char* name :
       {"trainer", "log_dir", "stage_log", "status_word", "infer_model_weights_arg", "key_35", "value_7", "arg_12"}) {
    EXPECT_TRUE(is_planner_variable(name)) << name;
  }
  for (const char* name : {"trainr", "key_", "key_x", "log", "", "set_12"})
    EXPECT_FALSE(is_planner_variable(name)) << name;
}

TEST(TemplateVariables, EveryOldNameHasACurrentNameThatIsNoOldName) {
  for (const auto& [old_name, new_name] : kOldNames) {
    EXPECT_EQ(current_variable_name(old_name), new_name) << old_name;
    EXPECT_FALSE(is_planner_variable(old_name)) << old_name << " is still a name of its own";
    EXPECT_TRUE(is_planner_variable(new_name)) << new_name;
    EXPECT_EQ(current_variable_name(new_name), std::nullopt) << new_name;
  }
  for (const char* name : {"trainer", "amp", "key_12", "set_", "set_x", ""}) {
    EXPECT_EQ(current_variable_name(name), std::nullopt) << name;
  }
}

TEST(TemplateVariables, OldNamesAreWrittenAsCurrentOnesAndTheRestIsKept) {
  const auto [text, renames] = with_current_variable_names("{py} {a} {ugk}={ug} {set_7}{ug} {oops");
  EXPECT_EQ(text, "{python} {a} {infer_use_gpu_key}={infer_use_gpu} {arg_7}{infer_use_gpu} {oops");
  std::vector<std::string> old_names;
  for (const auto& rename : renames) old_names.push_back(rename.old_name + ">" + rename.new_name);
  EXPECT_EQ(old_names, (std::vector<std::string>{"py>python", "ugk>infer_use_gpu_key", "ug>infer_use_gpu",
                                                 "set_7>arg_7", "ug>infer_use_gpu"}));
  EXPECT_EQ(with_current_variable_names("no {slots} here").first, "no {slots} here");
}

TEST(TemplateVariables, NamesAreReadInOrderAndAnUnclosedBraceIsNoList) {
  EXPECT_EQ(template_variable_names("{python} {a}x{b}"), (std::vector<std::string>{"python", "a", "b"}));
  EXPECT_EQ(template_variable_names("no slots"), std::vector<std::string>{});
  EXPECT_EQ(template_variable_names("{python} {oops"), std::nullopt);
}

// The shipped paddleocr dialect with one line replaced.
std::string ocr_dialect_with(const std::string& from, const std::string& to) {
  std::ifstream in(test::dialect_dir() + "/paddleocr.yaml");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return at == std::string::npos ? text : text.replace(at, from.size(), to);
}

std::string load_error(test::TempDir& dir, const std::string& text) {
  const auto loaded = load_dialect_file(dir.write("paddleocr.yaml", text));
  return loaded ? "loaded" : loaded.error().str();
}

TEST(TemplateVariables, EveryShippedDialectLoads) {
  for (const char* name :
       {"paddleocr", "paddleclas", "paddledetection", "paddleseg", "paddlevideo", "paddlegan", "template"}) {
    const auto loaded = load_dialect_file(test::dialect_dir() + "/" + name + ".yaml");
    ASSERT_TRUE(loaded) << name << ": " << loaded.error().str();
    EXPECT_TRUE(loaded->warnings.empty()) << name << ": " << loaded->warnings.front().str();
  }
}

TEST(TemplateVariables, AMisspeltVariableIsRefusedAtLoadWithItsLineAndKey) {
  test::TempDir dir;
  const std::string text = ocr_dialect_with("{export_script} {export_weights_arg}", "{export_script} {exp_weights}");
  const std::string error = load_error(dir, text);
  const int line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + text.find("{exp_weights}"), '\n'));
  EXPECT_NE(error.find("paddleocr.yaml:" + std::to_string(line) + ": key 'command': unknown variable {exp_weights}"),
            std::string::npos)
      << error;
}

TEST(TemplateVariables, SlotsOfTheDialectAreVariablesAndTheirByIsChecked) {
  test::TempDir dir;
  EXPECT_EQ(load_error(dir, ocr_dialect_with("{amp}", "{amp}{amp}")), "loaded");
  EXPECT_NE(
      load_error(dir, ocr_dialect_with("amp: {by: autocast", "amp: {by: autocats")).find("unknown variable {autocats}"),
      std::string::npos);
  const std::string unclosed = load_error(dir, ocr_dialect_with("{mode}\"", "{mode\""));
  EXPECT_NE(unclosed.find("paddleocr.yaml:22: key 'log_dir': a '{' that is not closed"), std::string::npos) << unclosed;
}

TEST(TemplateVariables, AnInferenceLoopMustBeOneThePlannerIterates) {
  test::TempDir dir;
  const std::string error = load_error(dir, ocr_dialect_with("loops: [trt, precision", "loops: [tensorrt, precision"));
  EXPECT_NE(error.find("key 'loops': unknown loop 'tensorrt'"), std::string::npos) << error;
}

// A dialect file in the current names as it was written before they had them: each current
// name that has an old one, between braces, as a slot's `by` and as a slot's name, the old way.
std::string with_old_names(std::string text) {
  for (const auto& [old_name, new_name] : kOldNames) {
    text = std::regex_replace(text, std::regex("\\{" + new_name + "\\}"), "{" + old_name + "}");
    text = std::regex_replace(text, std::regex("(by: )" + new_name + "([,}])"), "$1" + old_name + "$2");
    text = std::regex_replace(text, std::regex("\n( +)" + new_name + ":( *\\{by:)"), "\n$1" + old_name + ":$2");
  }
  return std::regex_replace(text, std::regex("\\{arg_([0-9]+)\\}"), "{set_$1}");
}

const std::vector<std::pair<std::string, std::string>> kDialectOfRepo = {
    {"PaddleOCR", "paddleocr"}, {"PaddleClas", "paddleclas"},   {"PaddleDetection", "paddledetection"},
    {"PaddleSeg", "paddleseg"}, {"PaddleVideo", "paddlevideo"}, {"PaddleGAN", "paddlegan"},
    {"models", "template"}};

// A dialect directory (with the launchers and chains files beside it) whose dialect files are
// the shipped ones as they were written before the variables had their current names.
std::string old_named_dialect_dir(const test::TempDir& dir) {
  for (const auto& [repo, name] : kDialectOfRepo) {
    dir.write("dialects/" + name + ".yaml", with_old_names(test::slurp(test::dialect_dir() + "/" + name + ".yaml")));
  }
  for (const char* file : {"launchers.yaml", "chains.yaml"}) {
    dir.write(file, test::slurp(test::dialect_dir() + "/../" + file));
  }
  return (dir.path() / "dialects").string();
}

TEST(TemplateVariables, AFileWithOldNamesLoadsWithOneWarningNamingEachOldNameAndItsLine) {
  test::TempDir dir;
  const std::string text = with_old_names(test::slurp(test::dialect_dir() + "/paddleocr.yaml"));
  const auto line_of = [&](const std::string& part) {
    return std::to_string(1 + std::count(text.begin(), text.begin() + static_cast<long>(text.find(part)), '\n'));
  };
  const std::string path = dir.write("paddleocr.yaml", text);
  const auto loaded = load_dialect_file(path);
  ASSERT_TRUE(loaded) << loaded.error().str();
  ASSERT_EQ(loaded->warnings.size(), 1u);
  const std::string warning = loaded->warnings.front().str();
  EXPECT_TRUE(warning.starts_with(path + ":22: key 'log_dir': old template variable names, still read: {model} is now "
                                         "{model_name} (line 22), {LOG} is now {log_dir} (line 23), "))
      << warning;
  EXPECT_NE(warning.find("{ugk} is now {infer_use_gpu_key} (line " + line_of("{ugk}") + ")"), std::string::npos)
      << warning;
  EXPECT_NE(warning.find("{iex} is now {infer_extra_arg} (line " + line_of("{iex}") + ")"), std::string::npos)
      << warning;
  EXPECT_EQ(warning.find("{ugk} is now", warning.find("{ugk} is now") + 1), std::string::npos) << "named once";
  const auto shipped = load_dialect_file(test::dialect_dir() + "/paddleocr.yaml").value();
  EXPECT_EQ(loaded->infer_cpu.stage.command, shipped.infer_cpu.stage.command);
  EXPECT_EQ(loaded->status_line, shipped.status_line);
}

TEST(TemplateVariables, ASlotsByAndNameMayBeOldNamesToo) {
  test::TempDir dir;
  const std::string text = ocr_dialect_with("lookup_slots:\n", "lookup_slots:\n  ug: {by: ts, default: \" \"}\n");
  const auto loaded = load_dialect_file(dir.write("paddleocr.yaml", text));
  ASSERT_TRUE(loaded) << loaded.error().str();
  ASSERT_EQ(loaded->lookup_slots.size(), 2u);
  EXPECT_EQ(loaded->lookup_slots[0].first, "infer_use_gpu");
  EXPECT_EQ(loaded->lookup_slots[0].second.by, "to_static_text");
  ASSERT_EQ(loaded->warnings.size(), 1u);
  EXPECT_NE(loaded->warnings[0].str().find(":29: key 'lookup_slots': old template variable names, still read: {ug} is "
                                           "now {infer_use_gpu} (line 29), {ts} is now {to_static_text} (line 29)"),
            std::string::npos)
      << loaded->warnings[0].str();
}

TEST(TemplateVariables, AnUnknownNameAmongOldOnesIsStillAnErrorWithItsLineAndKey) {
  test::TempDir dir;
  std::string text = with_old_names(test::slurp(test::dialect_dir() + "/paddleocr.yaml"));
  const auto at = text.find("{ugk}");
  text.replace(at, 5, "{ugkk}");
  const std::string error = load_error(dir, text);
  const long line = 1 + std::count(text.begin(), text.begin() + static_cast<long>(at), '\n');
  EXPECT_NE(error.find("paddleocr.yaml:" + std::to_string(line) + ": key 'command': unknown variable {ugkk}"),
            std::string::npos)
      << error;
}

// What a template decides in a plan, as text: every stage's JSON, evaluated string, logs and
// status lines; an error's text with the dialect directory left out.
std::string plan_text(const Result<plan::Plan>& plan, const std::string& dialect_dir) {
  if (!plan) return "error: " + test::replace_all(plan.error().str(), dialect_dir, "<dialects>");
  std::string out = plan->output_dir + "\n" + plan->results_log + "\n" + plan->banner + "\n";
  for (const auto& warning : plan->warnings) out += warning.str() + "\n";
  for (const auto& stage : plan->stages) {
    out += plan::stage_json(stage).dump() + "\n" + stage.results_log.shell_text + "\n" + stage.results_log.status_log +
           "\n" + stage.results_log.trainer_log + "\n" + stage.model_dir + "\n";
    for (const bool success : {true, false}) {
      const auto line = plan::render_status_line(*plan, stage, success);
      out += (line ? *line : line.error().str()) + "\n";
    }
  }
  return out;
}

// The first line where `got` differs from `want`, both lines shown; "" when they are equal.
std::string first_difference(const std::string& got, const std::string& want) {
  const auto got_lines = test::lines_of(got), want_lines = test::lines_of(want);
  for (std::size_t k = 0; k < std::max(got_lines.size(), want_lines.size()); ++k) {
    const std::string g = k < got_lines.size() ? got_lines[k] : "<none>";
    const std::string w = k < want_lines.size() ? want_lines[k] : "<none>";
    if (g != w) return "line " + std::to_string(k + 1) + "\n  want: " + w + "\n  got:  " + g;
  }
  return "";
}

// Runs planned per repository, spread over its corpus (PaddleClas has 525, much alike).
constexpr std::size_t kRunsPerRepository = 100;

TEST(TemplateVariables, DialectFilesWithTheOldNamesPlanTheCorpusByteForByte) {
  if (!fs::exists(test::corpus_dir())) GTEST_SKIP() << "NOT CHECKED: " << test::corpus_dir() << " is missing";
  test::TempDir dir;
  const std::string old_dir = old_named_dialect_dir(dir);
  int plans = 0, stages = 0, differences = 0;
  for (const auto& [repo, name] : kDialectOfRepo) {
    const auto shipped = load_dialect(test::dialect_dir(), name).value();
    const auto old = load_dialect(old_dir, name);
    ASSERT_TRUE(old) << old.error().str();
    EXPECT_EQ(old->warnings.size(), 1u) << name;
    const auto runs = test::corpus_runs(repo);
    const std::size_t step = std::max<std::size_t>(1, runs.size() / kRunsPerRepository);
    for (std::size_t k = 0; k < runs.size(); k += step) {
      const auto& run = runs[k];
      const auto text =
          config::read_config_text((test::corpus_dir() / run.corpus()["config_file"].get<std::string>()).string());
      if (!text) continue;
      for (const bool compat : {true, false}) {
        plan::PlanOptions options;
        options.mode = run.corpus()["mode_arg"];
        options.rules = &tipc::compat::planning_rules(compat);
        options.repo_root = "/conformance/repo-root";
        options.run_dir = run.corpus()["run_dir"];
        const auto want = plan::plan_config(*text, shipped, options);
        const auto got = plan::plan_config(*text, *old, options);
        const auto difference = first_difference(plan_text(got, old_dir), plan_text(want, test::dialect_dir()));
        if (!difference.empty() && differences++ < 3) {
          ADD_FAILURE() << run.base << (compat ? " --compat" : "") << ": " << difference;
        }
        ++plans;
        stages += want ? static_cast<int>(want->stages.size()) : 0;
      }
    }
  }
  std::cout << plans - differences << " of " << plans << " plans (" << stages
            << " stages) the same with the old names\n";
  EXPECT_EQ(differences, 0);
  EXPECT_GT(stages, 0);
}

test::RunResult demo_dry_run(const test::TempDir& repo, const std::string& mode, const std::string& dialect_dir) {
  return test::run_tipc(repo.path(), {"test_tipc/configs/alexnet.txt", mode, "--dry-run", "--format", "jsonl",
                                      "--dialect-dir", dialect_dir});
}

// tipc-run itself: the demo's dry run is the same with the old names, and the file's
// warning is printed once.
TEST(TemplateVariables, TheDemosDryRunIsTheSameWithTheOldNamesAndWarnsOnce) {
  test::TempDir dialects, repo;
  const std::string old_dir = old_named_dialect_dir(dialects);
  repo.write(test::kPaddleOcrMarker, "");
  repo.write("test_tipc/configs/alexnet.txt", test::slurp(test::source_dir() + "/test_tipc/configs/alexnet.txt"));
  for (const char* mode : {"lite_train_lite_infer", "whole_infer"}) {
    const auto shipped = demo_dry_run(repo, mode, test::dialect_dir());
    const auto old = demo_dry_run(repo, mode, old_dir);
    ASSERT_EQ(shipped.exit_code, 0) << shipped.err;
    EXPECT_EQ(old.exit_code, 0) << old.err;
    EXPECT_EQ(old.out, shipped.out) << mode;
    EXPECT_EQ(shipped.err.find("old template variable names"), std::string::npos) << shipped.err;
    const std::string warning = "tipc-run: warning: " + old_dir +
                                "/paddleocr.yaml:22: key 'log_dir': old template "
                                "variable names, still read: {model} is now {model_name} (line 22)";
    const auto at = old.err.find(warning);
    EXPECT_NE(at, std::string::npos) << old.err;
    EXPECT_EQ(old.err.find(warning, at + 1), std::string::npos) << "printed once: " << old.err;
  }
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::dialect
