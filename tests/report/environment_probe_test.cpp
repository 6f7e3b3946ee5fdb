// Gathering the environment: a fake nvidia-smi on PATH, fake interpreters that answer, fail
// or hang, and scratch git repositories, clean and dirty.
#include "report/environment_probe.h"

#include <sys/stat.h>

#include <cstdlib>

#include <gtest/gtest.h>

#include "core/version.h"
#include "support/run_binary.h"
#include "support/temp_dir.h"

namespace tipc::report {
namespace {
namespace TIPC_TEST_FILE {

// An executable script in `dir`.
std::string script(const test::TempDir& dir, const std::string& name, const std::string& body) {
  const std::string path = dir.write(name, "#!/bin/sh\n" + body);
  chmod(path.c_str(), 0755);
  return path;
}

// `dir` first on PATH while it lives.
class PathPrefix {
 public:
  explicit PathPrefix(const std::string& dir) : old_(std::getenv("PATH") ? std::getenv("PATH") : "") {
    setenv("PATH", (dir + ":" + old_).c_str(), 1);
  }
  ~PathPrefix() { setenv("PATH", old_.c_str(), 1); }
  PathPrefix(const PathPrefix&) = delete;
  PathPrefix& operator=(const PathPrefix&) = delete;

 private:
  std::string old_;
};

void git(const test::TempDir& repo, const std::string& args) {
  const std::string command = "cd " + test::shell_quote(repo.path().string()) +
                              " && git -c user.name=t -c user.email=t@t -c init.defaultBranch=main " + args +
                              " >/dev/null 2>&1";
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
}

TEST(EnvironmentProbe, ReadsTheGpusFromNvidiaSmi) {
  test::TempDir bin;
  script(bin, "nvidia-smi",
         "[ \"$1\" = --query-gpu=name,driver_version ] && [ \"$2\" = --format=csv,noheader ] || exit 9\n"
         "echo 'NVIDIA H100 80GB HBM3, 550.54.15'\necho 'NVIDIA H100 80GB HBM3, 550.54.15'\n");
  PathPrefix path(bin.path().string());
  const Environment environment = probe_environment({bin.path().string(), "", "", {"tipc-run", "a.txt"}});
  ASSERT_EQ(environment.gpus.size(), 2u);
  EXPECT_EQ(environment.gpus[0].name, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(environment.gpus[0].driver, "550.54.15");
  EXPECT_EQ(environment.command_line, (std::vector<std::string>{"tipc-run", "a.txt"}));
  EXPECT_EQ(environment.tool_version, kToolVersion);
  EXPECT_FALSE(environment.interpreter);  // none named
}

TEST(EnvironmentProbe, AFailingNvidiaSmiMeansNoGpus) {
  test::TempDir bin;
  script(bin, "nvidia-smi", "echo 'NVIDIA-SMI has failed because it could not communicate with the driver'\nexit 9\n");
  PathPrefix path(bin.path().string());
  EXPECT_TRUE(probe_environment({bin.path().string(), "", "", {}}).gpus.empty());
}

TEST(EnvironmentProbe, DescribesTheMachine) {
  test::TempDir dir;
  const Environment environment = probe_environment({dir.path().string(), "", "", {}});
  EXPECT_FALSE(environment.host.empty());
  EXPECT_NE(environment.os.find("Linux"), std::string::npos) << environment.os;
  EXPECT_GT(environment.cpu_cores, 0);
  EXPECT_GT(environment.memory_bytes, 0u);
  EXPECT_FALSE(environment.repository);  // a scratch directory is no git repository
}

TEST(EnvironmentProbe, AsksTheInterpreterForItsVersions) {
  test::TempDir bin;
  const std::string python = script(bin, "python3.99",
                                    "[ \"$1\" = -c ] || exit 9\necho 'python 3.99.1'\necho 'paddle 2.6.1'\n"
                                    "echo 'torch 2.1.2'\necho 'ignored line'\n");
  const InterpreterInfo info = probe_interpreter(python, bin.path().string());
  EXPECT_EQ(info.command, python);
  EXPECT_EQ(info.python_version, "3.99.1");
  EXPECT_EQ(info.frameworks, (std::map<std::string, std::string>{{"paddle", "2.6.1"}, {"torch", "2.1.2"}}));
}

TEST(EnvironmentProbe, AnInterpreterThatFailsOrIsMissingIsUnknown) {
  test::TempDir bin;
  const std::string stub = script(bin, "stub-python", "echo 'python 3.11.0'\nexit 1\n");
  EXPECT_EQ(probe_interpreter(stub, bin.path().string()).python_version, "unknown");
  const auto missing = probe_interpreter("no-such-python-3.99", bin.path().string());
  EXPECT_EQ(missing.python_version, "unknown");
  EXPECT_TRUE(missing.frameworks.empty());
}

TEST(EnvironmentProbe, AnInterpreterThatHangsIsUnknownAfterItsTime) {
  test::TempDir bin;
  const std::string hanging = script(bin, "hanging-python", "echo 'python 3.11.0'\nexec sleep 30\n");
  EXPECT_EQ(probe_interpreter(hanging, bin.path().string(), 0.3).python_version, "unknown");
}

TEST(EnvironmentProbe, ARealPythonAnswers) {
  if (std::system("python3 -c '' >/dev/null 2>&1") != 0) GTEST_SKIP() << "no python3";
  const InterpreterInfo info = probe_interpreter("python3", ".");
  EXPECT_TRUE(info.python_version.starts_with("3.")) << info.python_version;
}

TEST(EnvironmentProbe, ReadsTheCommitBranchAndWhetherTheTreeIsDirty) {
  test::TempDir repo;
  git(repo, "init");
  repo.write("a.txt", "one\n");
  git(repo, "add a.txt");
  git(repo, "commit -m first");
  repo.write("untracked.log", "output\n");  // a run's output: not a change of the repository
  auto clean = probe_environment({repo.path().string(), "", "", {}}).repository;
  ASSERT_TRUE(clean);
  EXPECT_EQ(clean->commit.size(), 40u);
  EXPECT_EQ(clean->branch, "main");
  EXPECT_FALSE(clean->dirty);

  repo.write("a.txt", "two\n");
  auto dirty = probe_environment({repo.path().string(), "", "", {}}).repository;
  ASSERT_TRUE(dirty);
  EXPECT_EQ(dirty->commit, clean->commit);
  EXPECT_TRUE(dirty->dirty);
}

TEST(EnvironmentProbe, TheInterpreterIsPythonElseTheFirstTrainStagesProgram) {
  plan::Plan plan;
  plan::Stage other;
  other.kind = plan::StageKind::kOther;
  other.argv = {"bash", "prepare.sh"};
  plan::Stage train;
  train.kind = plan::StageKind::kTrain;
  train.argv = {"python3.10", "tools/train.py"};
  train.cwd = "PaddleClas";
  plan.stages = {other, train};
  const EnvironmentInputs planned = environment_inputs("/repo", {plan}, std::nullopt);
  EXPECT_EQ(planned.interpreter, "python3.10");
  EXPECT_EQ(planned.interpreter_cwd, "/repo/PaddleClas");
  EXPECT_EQ(environment_inputs("/repo", {plan}, std::string("/opt/py/bin/python")).interpreter, "/opt/py/bin/python");
  EXPECT_EQ(environment_inputs("/repo", {}, std::nullopt).interpreter, "");
  EXPECT_FALSE(planned.command_line.empty());  // this test binary's own
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::report
