// Issue 25: what a traced runner prepares is replayed before its stages. A C++-style runner
// downloads a library (curl, a file:// URL), unpacks it, makes a fresh build directory, builds
// in it with make and runs what it built; tipc-run traces it and runs it for real: the setup
// stage first, the build inside the directory the setup made. A failed download fails the
// setup stage and skips what follows it; --offline refuses a download the cache lacks; a
// runner that removes something outside the repository is refused.
#include <filesystem>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/run_binary.h"
#include "support/temp_dir.h"

namespace tipc::cli {
namespace {
namespace TIPC_TEST_FILE {
namespace fs = std::filesystem;
using Json = nlohmann::json;

const char* const kRunner = R"(#!/bin/bash
# A C++ chain's runner, as the corpus's are shaped: housekeeping, a build, an inference.
FILENAME=$1
url=$(sed -n 2p "$FILENAME" | cut -d: -f2-)
LOG_PATH=./test_tipc/output/m/cpp_infer
mkdir -p ${LOG_PATH}
status_log="${LOG_PATH}/results_cpp.log"
cd deploy
curl -sSL -o lib.tgz "$url"
tar zxf lib.tgz
REMOVE_OUTSIDE_
rm -rf build
mkdir -p build
cd build
make -f ../Makefile
cd ../..
eval "./deploy/build/main > ${LOG_PATH}/infer.log 2>&1"
status=$?
if [ $status -eq 0 ]; then echo "Run successfully with command - m - ./deploy/build/main!" >> $status_log
else echo "Run failed with command - m - ./deploy/build/main!" >> $status_log; fi
)";

// Writes build/main, which prints the unpacked library's text (it runs from the root).
const char* const kMakefile = "main:\n\tprintf '#!/bin/sh\\ncat deploy/lib/version.txt\\n' > main\n\tchmod +x main\n";

class SetupReplay : public ::testing::Test {
 protected:
  void SetUp() override {
    const fs::path lib = scratch_.path() / "pack/lib";
    fs::create_directories(lib);
    scratch_.write("pack/lib/version.txt", "library 1.0\n");
    const std::string pack = "tar czf " + test::shell_quote((scratch_.path() / "lib.tgz").string()) + " -C " +
                             test::shell_quote((scratch_.path() / "pack").string()) + " lib";
    ASSERT_EQ(std::system(pack.c_str()), 0);
    write_runner("");
    repo_.write("deploy/Makefile", kMakefile);
    set_url("file://" + (scratch_.path() / "lib.tgz").string());
  }

  void write_runner(const std::string& remove_outside) {
    std::string runner = kRunner;
    runner.replace(runner.find("REMOVE_OUTSIDE_"), 15, remove_outside);
    repo_.write("test_tipc/test_inference_cpp.sh", runner);
  }
  void set_url(const std::string& url) {
    repo_.write(
        "test_tipc/configs/m_cpp.txt",
        "===========================cpp_infer_params===========================\nlib_url:" + url + "\nmodel_name:m\n");
  }
  test::RunResult run(std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {"test_tipc/configs/m_cpp.txt", "cpp_infer", "-j", "1"};
    args.insert(args.end(), extra.begin(), extra.end());
    return test::run_tipc(repo_.path().string(), args,
                          {"TIPC_DOWNLOAD_CACHE=" + (scratch_.path() / "cache").string(),
                           "TIPC_TRACE_CACHE=" + (scratch_.path() / "traces").string()});
  }
  // Result and reason of each stage, by kind ("setup", "other", "infer").
  std::map<std::string, std::pair<std::string, std::string>> results() const {
    const Json report = Json::parse(test::slurp((repo_.path() / "test_tipc/output/m/cpp_infer/report.json").string()));
    std::map<std::string, std::pair<std::string, std::string>> out;
    for (const auto& stage : report["plans"][0]["stages"]) {
      out[stage["kind"]] = {stage["result"], stage.value("reason", "")};
    }
    return out;
  }

  test::TempDir repo_, scratch_;
};

TEST_F(SetupReplay, TheDownloadUnpackAndBuildDirectoryAreReplayedBeforeTheBuildRunsInIt) {
  const auto first = run();
  ASSERT_EQ(first.exit_code, 0) << first.out << first.err;
  auto stages = results();
  EXPECT_EQ(stages["setup"].first, "PASS");
  EXPECT_EQ(stages["other"].first, "PASS") << "make ran in deploy/build, which the replayed mkdir made";
  EXPECT_EQ(stages["infer"].first, "PASS");
  EXPECT_TRUE(fs::exists(repo_.path() / "deploy/build/main"));
  EXPECT_FALSE(fs::exists(repo_.path() / "main")) << "nothing was built in the repository root";
  EXPECT_EQ(test::slurp((repo_.path() / "test_tipc/output/m/cpp_infer/infer.log").string()), "library 1.0\n");
  // Again, from the cache, with the library's source gone: the download is not repeated.
  fs::remove(scratch_.path() / "lib.tgz");
  const auto again = run();
  EXPECT_EQ(again.exit_code, 0) << again.out << again.err;
  const std::string setup_log = test::slurp((repo_.path() / "test_tipc/output/m/cpp_infer/setup_1.log").string());
  EXPECT_NE(setup_log.find("already unpacked"), std::string::npos) << setup_log;
}

TEST_F(SetupReplay, AFailedDownloadFailsTheSetupAndSkipsWhatFollows) {
  set_url("file://" + (scratch_.path() / "missing.tgz").string());
  const auto r = run();
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  auto stages = results();
  EXPECT_EQ(stages["setup"].first, "FAIL");
  EXPECT_EQ(stages["other"].first, "SKIPPED");
  EXPECT_NE(stages["other"].second.find("setup"), std::string::npos) << stages["other"].second;
  EXPECT_EQ(stages["infer"].first, "SKIPPED");
  EXPECT_FALSE(fs::exists(repo_.path() / "deploy/build/main"));
}

TEST_F(SetupReplay, OfflineRefusesADownloadTheCacheLacksAndTheStagesAfterIt) {
  const auto r = run({"--offline"});
  EXPECT_NE(r.exit_code, 0) << r.out << r.err;
  auto stages = results();
  EXPECT_EQ(stages["setup"].first, "UNSUPPORTED");
  EXPECT_NE(stages["setup"].second.find("--offline: the download of file://"), std::string::npos)
      << stages["setup"].second;
  EXPECT_EQ(stages["other"].first, "UNSUPPORTED");
  EXPECT_EQ(stages["infer"].first, "UNSUPPORTED");
  // Once the cache holds it, --offline runs.
  ASSERT_EQ(run().exit_code, 0);
  const auto cached = run({"--offline"});
  EXPECT_EQ(cached.exit_code, 0) << cached.out << cached.err;
}

TEST_F(SetupReplay, HousekeepingOutsideTheRepositoryIsRefused) {
  // A path that does not exist: without bubblewrap the trace itself would run the rm.
  write_runner("rm -rf /nonexistent-tipc-run-test/x");
  const auto r = run();
  EXPECT_NE(r.exit_code, 0) << r.out << r.err;
  auto stages = results();
  EXPECT_EQ(stages["setup"].first, "UNSUPPORTED");
  EXPECT_NE(stages["setup"].second.find("outside the repository"), std::string::npos) << stages["setup"].second;
  EXPECT_EQ(stages["other"].first, "UNSUPPORTED");
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::cli
