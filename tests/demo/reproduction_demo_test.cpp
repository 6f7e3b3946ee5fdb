// The reproduction flow end to end, as the README runs it (scripts/run-reproduction.sh): the
// demo AlexNet and its port (models/alexnet_port/) write what a reproducer hands in, and
// init-check, padiff and acceptance judge it. The aligned port passes everything (also
// without PyTorch's vector kernels); each planted misalignment fails on its check, which names
// the layer or the step. Verdicts only: the numbers depend on the CPU.
#include <cstdlib>
#include <filesystem>
#include <set>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "support/paths.h"
#include "support/run_binary.h"
#include "support/tar_file.h"
#include "support/temp_dir.h"

namespace tipc::demo {
namespace {
namespace TIPC_TEST_FILE {
namespace fs = std::filesystem;

// Skips where /usr/bin/python3 lacks torch and numpy; CI must run the flow, so fails there.
void require_torch() {
  if (std::system("/usr/bin/python3 -c 'import torch, numpy' >/dev/null 2>&1") == 0) return;
  if (std::getenv("CI")) FAIL() << "CI must run the reproduction flow: /usr/bin/python3 lacks torch or numpy";
  GTEST_SKIP() << "the reproduction flow NOT RUN: /usr/bin/python3 lacks torch or numpy";
}

struct Flow {
  int exit_code = -1;
  std::string console;  // stdout and stderr together
  fs::path out;

  std::string file(const std::string& name) const { return test::slurp((out / name).string()); }
};

// Runs scripts/run-reproduction.sh into a scratch folder; `misalign` empty for the aligned port.
Flow run_flow(const test::TempDir& scratch, const std::string& misalign, const std::string& env = "") {
  Flow flow;
  flow.out = scratch.path() / "out";
  const std::string console = (scratch.path() / "console.txt").string();
  std::string command = "env PYTHONDONTWRITEBYTECODE=1 TIPC_RUN=" + test::shell_quote(test::tipc_run_binary()) + " " +
                        env + " " + test::shell_quote(test::source_dir() + "/scripts/run-reproduction.sh");
  if (!misalign.empty()) command += " --misalign " + misalign;
  command += " " + test::shell_quote(flow.out.string()) + " >" + test::shell_quote(console) + " 2>&1 </dev/null";
  const int status = std::system(command.c_str());
  flow.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  flow.console = test::slurp(console);
  return flow;
}

// The line of `text` that starts with `start` ("" when none).
std::string line_starting(const std::string& text, const std::string& start) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind(start, 0) == 0) return line;
  }
  return "";
}

bool ends_with(const std::string& text, const std::string& end) {
  return text.size() >= end.size() && text.compare(text.size() - end.size(), end.size(), end) == 0;
}

// The acceptance table's row of `check` ends with `verdict`.
void expect_row(const Flow& flow, const std::string& check, const std::string& verdict) {
  const std::string row = line_starting(flow.file("acceptance.txt"), check + " ");
  EXPECT_TRUE(ends_with(row, verdict)) << check << ": " << row << "\n" << flow.console;
}

void expect_aligned(const Flow& flow) {
  EXPECT_EQ(flow.exit_code, 0) << flow.console;
  for (const char* check : {"forward", "metric", "loss", "bp_align", "train_align"}) expect_row(flow, check, "PASS");
  EXPECT_NE(flow.file("init_check.txt").find(" 0 failed"), std::string::npos) << flow.file("init_check.txt");
  EXPECT_TRUE(ends_with(flow.file("padiff.txt"), "PASS: no divergence\n")) << flow.file("padiff.txt");
}

// Each test runs the flow once, in a scratch folder of its own; where torch is missing, none runs.
class ReproductionDemo : public ::testing::Test {
 protected:
  void SetUp() override { require_torch(); }

  Flow run(const std::string& misalign, const std::string& env = "") const { return run_flow(scratch_, misalign, env); }

 private:
  test::TempDir scratch_;
};

TEST_F(ReproductionDemo, TheAlignedPortPassesEveryCheckAndTheBundleHoldsWhatAReviewerNeeds) {
  const Flow flow = run("");
  expect_aligned(flow);
  for (const char* verdict : {"  init-check PASS", "  padiff PASS", "  acceptance PASS"})
    EXPECT_NE(line_starting(flow.console, verdict), "") << flow.console;
  std::set<std::string> members;
  for (const auto& [name, contents] : test::read_tar_gz((flow.out / "acceptance.tar.gz").string())) {
    EXPECT_FALSE(contents.empty()) << name;
    members.insert(name);
  }
  EXPECT_EQ(members, (std::set<std::string>{"forward_diff.log", "metric_diff.log", "loss_diff.log", "bp_align_diff.log",
                                            "train_align_diff.log", "init_check.txt", "init_check.json", "padiff.txt",
                                            "train_align_curves.svg", "layer_map.yaml", "layout.yaml"}));

  // The port's Linear weights are the reference's, transposed (and the first one's rows
  // permuted): at PaDiff's own tolerances (atol 0, rtol 1e-7) they are no divergence, nor is
  // any forward output.
  const fs::path padiff = flow.out / "padiff";
  const auto forward = test::run_tipc(
      flow.out.string(), {"padiff", "padiff/reference", "padiff/port", "--phase", "forward", "--layer-map",
                          (padiff / "layer_map.yaml").string(), "--layout", (padiff / "layout.yaml").string()});
  EXPECT_EQ(forward.exit_code, 0) << forward.out << forward.err;
}

TEST_F(ReproductionDemo, TheThresholdsHoldWithoutPyTorchsVectorKernels) {
  expect_aligned(run("", "ATEN_CPU_CAPABILITY=default"));
}

TEST_F(ReproductionDemo, ThePortsOwnInitialisationFailsInitCheckNamingTheLayers) {
  const Flow flow = run("own-init");
  EXPECT_EQ(flow.exit_code, 1) << flow.console;
  EXPECT_NE(line_starting(flow.console, "  init-check FAIL (exit 1)"), "") << flow.console;
  // Zero biases against the reference's uniform ones: far apart for any seed and CPU.
  for (const char* layer : {"classifier.1.bias", "classifier.4.bias", "features.3.bias"}) {
    EXPECT_TRUE(ends_with(line_starting(flow.file("init_check.txt"), std::string(layer) + " "), "FAIL"))
        << layer << "\n"
        << flow.file("init_check.txt");
  }
}

TEST_F(ReproductionDemo, ADroppedBiasFailsForwardAndPadiffNamesItsLayerFirst) {
  const Flow flow = run("drop-bias");
  EXPECT_EQ(flow.exit_code, 1) << flow.console;
  expect_row(flow, "forward", "FAIL");
  const std::string padiff = flow.file("padiff.txt");
  EXPECT_NE(line_starting(padiff, "first divergence: forward"), "") << padiff;
  const auto first = padiff.find("first divergence:");
  const auto route = padiff.find("          PortNet.backbone.stage2.conv\n", first);
  EXPECT_LT(route, padiff.find("divergences (", first)) << padiff;  // in the first divergence's block
}

TEST_F(ReproductionDemo, AnotherLearningRateScheduleFailsBackwardAlignmentAtTheStepWhereTheyPart) {
  const Flow flow = run("lr-schedule");
  EXPECT_EQ(flow.exit_code, 1) << flow.console;
  expect_row(flow, "forward", "PASS");
  expect_row(flow, "bp_align", "FAIL");
  // The reference decays at step 3, the port at step 4: lr_3 is the first key that fails.
  const std::string finding = line_starting(flow.console, "tipc-run acceptance: bp_align FAIL: ");
  EXPECT_NE(finding.find("FAIL: lr_3: mean diff"), std::string::npos) << flow.console;
  for (const char* aligned : {"lr_2:", "loss_3:", "grad_3."}) EXPECT_EQ(finding.find(aligned), std::string::npos);
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::demo
