// Which runners take the MODE as their second argument (issue 25).
#include "trace/runner_arguments.h"

#include <gtest/gtest.h>

namespace tipc::trace {
namespace {
namespace TIPC_TEST_FILE {

TEST(RunnerArguments, ARunnerThatReadsModeFromItsSecondArgumentTakesIt) {
  EXPECT_TRUE(takes_mode_argument("#!/bin/bash\nFILENAME=$1\nMODE=$2\n"));
  EXPECT_TRUE(takes_mode_argument("FILENAME=$1\n# MODE can be ...\nMODE=\"${2}\"\n"));
  // One that never reads $2 outside its functions loses nothing by getting it.
  EXPECT_TRUE(takes_mode_argument("func_set() {\n    key=$1\n    value=$2\n}\necho hi\n"));
}

// PaddleDetection's C++ runner: MODE fixed, $2 the inference library's link (inside an
// `if` at the top level), $2 of its functions their own. PaddleOCR's: $2 the GPU id.
TEST(RunnerArguments, ARunnerWhoseSecondArgumentIsSomethingElseDoesNotTakeIt) {
  const char* const detection =
      "FILENAME=$1\nMODE=\"cpp_infer\"\nfunction func_cpp_inference(){\n    IFS='|'\n    _script=$1\n"
      "    _model_dir=$2\n    for x in ${list[*]}; do\n        echo ${x}\n    done\n}\n"
      "if [ -z $PADDLE_INFER_DIR ]; then\n    Paddle_Infer_Link=$2\n    wget -nc $Paddle_Infer_Link\nfi\n";
  EXPECT_FALSE(takes_mode_argument(detection));
  const char* const ocr = "FILENAME=$1\nfunc_cpp_inference()\n{\n    _model_dir=$2\n}\nGPUID=$2\n";
  EXPECT_FALSE(takes_mode_argument(ocr));
  EXPECT_TRUE(takes_mode_argument(std::string(ocr) + "MODE=$2\n"));
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::trace
