// The first real error line of a log, over log snippets as PaddlePaddle, PyTorch and the shell write them.
#include "report/error_line.h"

#include <gtest/gtest.h>

#include "run/stack_dump.h"

#include "support/temp_dir.h"

namespace tipc::report {
namespace {
namespace TIPC_TEST_FILE {

TEST(ErrorLine, APythonTracebackGivesItsExceptionLine) {
  const std::string log =
      "[2024/05/01 12:00:00] ppcls INFO: epoch 1, loss 2.3\n"
      "Traceback (most recent call last):\n"
      "  File \"tools/train.py\", line 32, in <module>\n"
      "    engine.train()\n"
      "  File \"ppcls/engine/engine.py\", line 410, in train\n"
      "    raise ValueError(\"bad batch size\")\n"
      "ValueError: batch_size must be positive, got 0\n";
  EXPECT_EQ(first_error_line(log), "ValueError: batch_size must be positive, got 0");
}

TEST(ErrorLine, PaddlesCppTracebackGivesItsErrorSummary) {
  const std::string log =
      "W0501 12:00:00.123 gpu_resources.cc:61] Please NOTE: device: 0, GPU Compute Capability: 8.0\n"
      "--------------------------------------\n"
      "C++ Traceback (most recent call last):\n"
      "--------------------------------------\n"
      "0   paddle::framework::OperatorBase::Run(paddle::framework::Scope const&)\n"
      "1   phi::enforce::EnforceNotMet::EnforceNotMet(common::ErrorSummary const&, char const*, int)\n"
      "----------------------\n"
      "Error Message Summary:\n"
      "----------------------\n"
      "InvalidArgumentError: The shape of input[0] and input[1] is expected to be equal. (at conv_op.cc:97)\n";
  EXPECT_EQ(first_error_line(log),
            "InvalidArgumentError: The shape of input[0] and input[1] is expected to be equal. (at conv_op.cc:97)");
}

TEST(ErrorLine, ATorchOutOfMemoryErrorIsAQualifiedException) {
  const std::string log =
      "Traceback (most recent call last):\n"
      "  File \"train.py\", line 9, in <module>\n"
      "    x = torch.empty(1 << 40, device=\"cuda\")\n"
      "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 4.00 TiB (GPU 0; 79.15 GiB total capacity)\n";
  EXPECT_EQ(first_error_line(log).substr(0, 48), "torch.cuda.OutOfMemoryError: CUDA out of memory.");
}

TEST(ErrorLine, AModulesLowerCaseErrorEndsATraceback) {
  const std::string log =
      "Traceback (most recent call last):\n  File \"infer.py\", line 142, in <module>\n    main()\n"
      "cv2.error: OpenCV(4.6.0) onnx_importer.cpp:1031: error: (-2:Unspecified error) in function 'handleNode'\n";
  EXPECT_EQ(first_error_line(log).substr(0, 26), "cv2.error: OpenCV(4.6.0) o");
}

TEST(ErrorLine, ChainedExceptionsGiveTheFirst) {
  const std::string log =
      "Traceback (most recent call last):\n  File \"a.py\", line 1, in <module>\n"
      "KeyError: 'image'\n\nDuring handling of the above exception, another exception occurred:\n\n"
      "Traceback (most recent call last):\n  File \"a.py\", line 3, in <module>\n"
      "RuntimeError: reader failed\n";
  EXPECT_EQ(first_error_line(log), "KeyError: 'image'");
}

TEST(ErrorLine, TheShellsKilledLineAndALinkersErrorAreFound) {
  EXPECT_EQ(first_error_line(
                "epoch 3 loss 0.5\nbash: line 1: 40211 Killed                  python3 tools/train.py -c a.yaml\n"),
            "bash: line 1: 40211 Killed                  python3 tools/train.py -c a.yaml");
  EXPECT_EQ(first_error_line("Killed\n"), "Killed");
  EXPECT_EQ(
      first_error_line("building\ndeploy/cpp/src/main.cc:12:10: fatal error: paddle_inference_api.h: No such file\n"),
      "deploy/cpp/src/main.cc:12:10: fatal error: paddle_inference_api.h: No such file");
  EXPECT_EQ(first_error_line("[ERROR] the model file inference.pdmodel does not exist\nlater\n"),
            "[ERROR] the model file inference.pdmodel does not exist");
  EXPECT_EQ(first_error_line("Error: no such option: --use_tensorrt\n"), "Error: no such option: --use_tensorrt");
}

TEST(ErrorLine, AnExceptionOutsideATracebackAndAnOutOfMemoryLineAreFound) {
  EXPECT_EQ(first_error_line("step 1\nRuntimeError: CUDA error: an illegal memory access was encountered\n"),
            "RuntimeError: CUDA error: an illegal memory access was encountered");
  EXPECT_EQ(first_error_line("W0501 allocator_facade.cc:12] Out of memory error on GPU 0.\nstep\n"),
            "W0501 allocator_facade.cc:12] Out of memory error on GPU 0.");
  EXPECT_EQ(first_error_line("./run.sh: line 4: 77 Segmentation fault (core dumped) ./predict\n"),
            "./run.sh: line 4: 77 Segmentation fault (core dumped) ./predict");
}

TEST(ErrorLine, MetricsThatSayErrorAreNoError) {
  EXPECT_EQ(
      first_error_line("[Eval] top1_error: 0.25, top5_error: 0.1\neval error: 0.01\nmean error: 1.5e-3, max: 2\n"), "");
  EXPECT_EQ(first_error_line("  warnings.warn(\"error handling changed\")\nall good\n"), "");
}

TEST(ErrorLine, ATracebackCutShortLooksOn) {
  const std::string log = "Traceback (most recent call last):\n  File \"a.py\", line 1, in <module>\n";
  EXPECT_EQ(first_error_line(log), "");
  EXPECT_EQ(first_error_line(log + "    more\n"), "");
}

TEST(ErrorLine, ColourCodesAndCarriageReturnsAreDroppedAndLongLinesCut) {
  EXPECT_EQ(first_error_line("\x1b[31mERROR: bad model\x1b[0m\r\n"), "ERROR: bad model");
  const std::string long_line = "ValueError: " + std::string(500, 'x') + "\n";
  const std::string cut = first_error_line(long_line);
  EXPECT_EQ(cut.size(), kErrorLineMaxChars + 3);
  EXPECT_TRUE(cut.ends_with("..."));
  // A cut never splits a UTF-8 character.
  const std::string wide = "ValueError: " + std::string(kErrorLineMaxChars - 13, 'x') + "\xc3\xa9\xc3\xa9\n";
  EXPECT_EQ(first_error_line(wide), "ValueError: " + std::string(kErrorLineMaxChars - 13, 'x') + "...");
}

TEST(ErrorLine, AFilesWindowStartsAtALineStart) {
  test::TempDir dir;
  const std::string path = dir.write("train.log", "xxxxxxxx Error: cut in half\nfine\nValueError: the real one\n");
  EXPECT_EQ(first_error_line_of_file(path, 40), "ValueError: the real one");
  EXPECT_EQ(first_error_line_of_file(path), "xxxxxxxx Error: cut in half");
  EXPECT_EQ(first_error_line_of_file((dir.path() / "missing.log").string()), "");
}

// faulthandler's "Fatal Python error: Aborted" answers the SIGABRT tipc-run sent for the stacks.
TEST(ErrorLine, TheStacksTipcRunWroteIntoATimedOutStagesLogAreNotRead) {
  const std::string dump = std::string(run::kStackDumpMarker) +
                           "\nFatal Python error: Aborted\n\nCurrent thread 0x1 (most recent call first):\n"
                           "  File \"hang.py\", line 5 in spin\n";
  EXPECT_EQ(first_error_line("epoch 1\nstep 3\n" + dump), "");
  EXPECT_EQ(first_error_line("RuntimeError: NCCL timeout\n" + dump), "RuntimeError: NCCL timeout");
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::report
