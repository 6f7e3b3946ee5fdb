// Names from the runner's own words (issue 38, item 4): a traced stage's log and id follow
// the file the runner wrote its output to, however it wrote it (`> LOG`, `| tee LOG`,
// `2>&1 | tee -a LOG`, a `| tee` outside the evaluated string), and a log named by a
// status line carries none of the message's punctuation (`- LOG!`).
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "plan/traced_status.h"
#include "support/run_binary.h"
#include "support/temp_dir.h"
#include "support/text_lines.h"

namespace tipc::cli {
namespace {
namespace TIPC_TEST_FILE {
using nlohmann::json;

constexpr const char* kConfig =
    "===========================train_params===========================\n"
    "model_name:MyModel\npython:python3.7\ngpu_list:0\ntrainer:norm_train\nnorm_train:tools/train.py\n##\n"
    "===========================infer_params===========================\ninference:tools/infer.py\n";

// The template's status_check, which writes its line through `| tee -a` as the runners do.
constexpr const char* kRunnerHead = R"(LOG_PATH=./test_tipc/output/MyModel
mkdir -p ${LOG_PATH}
status_log="${LOG_PATH}/results_python.log"
status_check(){
  if [ $1 -eq 0 ]; then echo -e "\033[33m Run successfully with command - $2!  \033[0m" | tee -a $3
  else echo -e "\033[33m Run failed with command - $2!  \033[0m" | tee -a $3; fi
}
)";

// The dry run's stages of a repository with this runner: id -> log.
std::map<std::string, std::string> traced_logs(const std::string& runner_body) {
  test::TempDir repo;
  repo.write("test_tipc/configs/m/train_infer_python.txt", kConfig);
  repo.write("test_tipc/test_train_inference_python.sh", kRunnerHead + runner_body);
  const auto r = test::run_tipc(
      repo.path(),
      {"test_tipc/configs/m/train_infer_python.txt", "lite_train_lite_infer", "--dry-run", "--format", "jsonl"},
      {"TIPC_TRACE_CACHE="});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::map<std::string, std::string> logs;
  for (const auto& line : test::lines_of(r.out)) {
    if (!line.empty()) logs[json::parse(line)["id"]] = json::parse(line)["log"];
  }
  return logs;
}

TEST(TracedLogNames, AStagePipedIntoTeeHasTheFileTeeWritesAsItsLogAndName) {
  const auto logs = traced_logs(R"(save_log="${LOG_PATH}/norm_train_gpus_0_nodes_1.log"
cmd="python3.7 tools/train.py -o Global.save_model_dir=${LOG_PATH}/norm_train 2>&1 | tee ${save_log}"
eval $cmd
status_check $? "${cmd}" "${status_log}"
_save_log_path="${LOG_PATH}/python_infer_cpu_usemkldnn_True_threads_6_precision_fp32_batchsize_1.log"
command="python3.7 tools/infer.py --use_gpu=False --model_dir=${LOG_PATH}/norm_train"
eval $command 2>&1 | tee -a ${_save_log_path}
status_check $? "${command}" "${status_log}"
)");
  const std::map<std::string, std::string> expected = {
      {"norm_train_gpus_0_nodes_1/train", "test_tipc/output/MyModel/norm_train_gpus_0_nodes_1.log"},
      {"norm_train_gpus_0_nodes_1/infer/python_infer_cpu_usemkldnn_True_threads_6_precision_fp32_batchsize_1",
       "test_tipc/output/MyModel/python_infer_cpu_usemkldnn_True_threads_6_precision_fp32_batchsize_1.log"}};
  EXPECT_EQ(logs, expected);
}

// The runner's train writes to its own stdout; only its status line names the log, and
// the message ends in `!` right after the name.
TEST(TracedLogNames, ALogNamedByAStatusLineLeavesTheMessagesPunctuationOut) {
  const auto logs = traced_logs(R"(save_log="${LOG_PATH}/norm_train_gpus_0_nodes_1.log"
cmd="python3.7 tools/train.py -o Global.save_model_dir=${LOG_PATH}/norm_train"
eval $cmd
echo -e "\033[33m Run successfully with command - MyModel - ${cmd} - ${save_log}!  \033[0m" | tee -a ${status_log}
)");
  const std::map<std::string, std::string> expected = {
      {"norm_train_gpus_0_nodes_1/train", "./test_tipc/output/MyModel/norm_train_gpus_0_nodes_1.log"}};
  EXPECT_EQ(logs, expected);
}

TEST(TracedLogNames, TheStatusLinesLogNameEndsBeforeTrailingPunctuation) {
  EXPECT_EQ(plan::status_line_log(" Run successfully with command - m - python x.py - out/a.log!  "), "out/a.log");
  EXPECT_EQ(plan::status_line_log(" Run successfully with command - m - python x.py - out/a.log !"), "out/a.log");
  EXPECT_EQ(plan::status_line_log(" Run failed with command - m - python x.py - out/a.log.\x1b[0m"), "out/a.log");
  EXPECT_EQ(plan::status_line_log(" Run failed with command - m - python x.py - !"), "");
  EXPECT_EQ(plan::status_line_log(" Run failed with command - python x.py --a b!"), "") << "a command, not a log";
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::cli
