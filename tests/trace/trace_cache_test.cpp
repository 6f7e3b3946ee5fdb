// The trace cache through the command line: a dry run traces once and reads the trace back
// after, and a trace made by another build of tipc-run (other bytes) is made again.
#include "trace/trace_cache.h"

#include <algorithm>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "support/run_binary.h"
#include "support/temp_dir.h"
#include "trace/stand_ins.h"

namespace tipc::trace {
namespace {
namespace TIPC_TEST_FILE {
namespace fs = std::filesystem;

long traces_in(const fs::path& cache) {
  return std::count_if(fs::directory_iterator(cache), fs::directory_iterator(),
                       [](const fs::directory_entry& entry) { return entry.path().extension() == ".json"; });
}

TEST(TraceCache, ATraceMadeByAnotherBuildOfTipcRunIsMadeAgain) {
  test::TempDir repo, cache, other_build;
  repo.write("test_tipc/configs/m/train_infer_python.txt",
             "===========================train_params===========================\nmodel_name:MyModel\n"
             "python:python3.7\ngpu_list:0\ntrainer:norm_train\nnorm_train:tools/train.py\n");
  repo.write("test_tipc/test_train_inference_python.sh", "python3.7 tools/train.py > train.log 2>&1\n");
  const std::vector<std::string> args = {"test_tipc/configs/m/train_infer_python.txt", "lite_train_lite_infer",
                                         "--dry-run"};
  const std::vector<std::string> env = {"TIPC_TRACE_CACHE=" + cache.path().string(),
                                        "TIPC_STAND_IN=" + stand_in_binary()};
  for (int run = 0; run < 2; ++run) {
    const auto r = test::run_tipc(repo.path(), args, env);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(traces_in(cache.path()), 1) << "run " << run << ": the same build reads its trace back";
  }
  // The same program with one byte more (ELF ignores what follows its sections): another build.
  const fs::path other = other_build.path() / "tipc-run";
  fs::copy_file(test::tipc_run_binary(), other);
  std::ofstream(other, std::ios::binary | std::ios::app) << '\n';
  const auto r = test::run_tipc(repo.path(), args, env, other.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(traces_in(cache.path()), 2) << "another build's trace was read back";
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::trace
