// A chain is one entry of configs/chains.yaml (issue 39, item 3): a copy of the shipped
// tables with a chain nobody wrote code for (its header, runner, mode, script keys) lets a
// directory collect its config, check its MODE, trace its runner and give each stage the
// kind the entry's script keys name, with no line of C++ about it.
#include <cstdlib>
#include <filesystem>
#include <map>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/paths.h"
#include "support/run_binary.h"
#include "support/temp_dir.h"
#include "support/text_lines.h"

namespace tipc::cli {
namespace {
namespace TIPC_TEST_FILE {
namespace fs = std::filesystem;

constexpr const char* kToyKeys = R"(  toy:
    convert: [to_toy]
    infer: ["*_client"]

)";

constexpr const char* kToyChain = R"(
  - name: toy_infer
    match: {header: [toy_params]}
    runners: [test_toy.sh]
    modes: [toy_infer]
    script_keys: toy
    status_logs: [results_toy.log]
)";

// A runner in the upstream runners' manner: the config read by line, each script run with
// its output in a log under LOG_PATH.
constexpr const char* kToyRunner = R"(FILENAME=$1
MODE=$2
IFS=$'\n'
lines=($(cat ${FILENAME}))
python=$(echo ${lines[2]} | cut -d: -f2)
convert=$(echo ${lines[3]} | cut -d: -f2)
client=$(echo ${lines[4]} | cut -d: -f2)
LOG_PATH=./test_tipc/output/toy/${MODE}
mkdir -p ${LOG_PATH}
cmd="${python} ${convert} > ${LOG_PATH}/convert.log 2>&1"
eval $cmd
cmd="${python} ${client} > ${LOG_PATH}/client.log 2>&1"
eval $cmd
)";

class NewChain : public ::testing::Test {
 protected:
  void SetUp() override {
    fs::copy(test::source_dir() + "/configs", tables_.path() / "configs", fs::copy_options::recursive);
    std::string chains = test::slurp(tables_.path() / "configs/chains.yaml");
    chains.insert(chains.find("\nchains:\n") + 1, kToyKeys);
    tables_.write("configs/chains.yaml", chains + kToyChain);
    repo_.write("test_tipc/test_toy.sh", kToyRunner);
    repo_.write("test_tipc/configs/toy.txt",
                "===========================toy_params===========================\nmodel_name:toy\n"
                "python:python3\nto_toy:tools/to_toy.py --in=model\nbatch_client:tools/client.py --batch=2\n");
    setenv("TIPC_TRACE_CACHE", cache_.path().c_str(), 1);
  }
  void TearDown() override { unsetenv("TIPC_TRACE_CACHE"); }

  test::RunResult tipc(std::vector<std::string> args) {
    args.insert(args.end(), {"--dialect-dir", (tables_.path() / "configs/dialects").string()});
    return test::run_tipc(repo_.path(), args);
  }

  test::TempDir tables_, repo_, cache_;
};

TEST_F(NewChain, ADirectoryCollectsTracesAndKindsAConfigOfAChainAddedToTheTableAlone) {
  const auto modes = tipc({"modes", "test_tipc/configs"});
  EXPECT_EQ(modes.out, "toy_infer\n") << modes.err;
  const auto r = tipc({"test_tipc/configs", "toy_infer", "--dry-run", "--format", "jsonl"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::map<std::string, std::string> kinds;  // the script each stage runs -> its kind
  for (const auto& line : test::lines_of(r.out)) {
    if (line.empty()) continue;
    const auto stage = nlohmann::json::parse(line);
    if (stage["kind"] != "setup") kinds[stage["argv"].at(1).get<std::string>()] = stage["kind"].get<std::string>();
  }
  EXPECT_EQ(kinds, (std::map<std::string, std::string>{{"tools/to_toy.py", "convert"}, {"tools/client.py", "infer"}}))
      << r.out;
  const auto other_mode = tipc({"test_tipc/configs", "lite_train_lite_infer", "--dry-run"});
  EXPECT_EQ(other_mode.exit_code, 2) << other_mode.err;
  EXPECT_NE(other_mode.err.find("its configs take: toy_infer"), std::string::npos) << other_mode.err;
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::cli
