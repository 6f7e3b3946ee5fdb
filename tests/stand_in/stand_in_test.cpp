// tipc-trace-stand-in (src/stand_in/) as a traced runner meets it: started under the names
// the scratch tree links it by, from bash, with the tracer's environment. What it records,
// what it does as tee and cat (and what it hands to the system's programs), the no-ops, the
// status probe, and that on x86-64 it starts without the C library.
#include <elf.h>
#include <sys/wait.h>

#include <gtest/gtest.h>
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "support/run_binary.h"
#include "support/temp_dir.h"
#include "trace/stand_ins.h"
#include "trace/trace_log.h"

namespace tipc::trace {
namespace {
namespace TIPC_TEST_FILE {
namespace fs = std::filesystem;

class StandIn : public ::testing::Test {
 protected:
  void SetUp() override {
    fs::create_directories(dir_.path() / "bin");
    for (const char* name : {"python3", "tee", "cat", "sleep", "nvidia-smi", "mkdir"}) {
      fs::create_symlink(stand_in_binary(), dir_.path() / "bin" / name);
    }
  }

  // Runs `script` with bash in the directory, the stand-ins first on PATH and the tracer's
  // variables set (plus `env`), `input` on standard input.
  test::RunResult run(const std::string& script, const std::string& input = "",
                      const std::vector<std::string>& env = {}) const {
    const fs::path& d = dir_.path();
    dir_.write("script.sh", script);
    dir_.write("input", input);
    std::string command = "cd " + test::shell_quote(d.string()) + " && env -i PATH=" + (d / "bin").string() +
                          ":/usr/bin:/bin TIPC_TRACE_ACTIONS=" + test::shell_quote(stand_in_actions());
    if (with_trace_) command += " TIPC_TRACE_CALLS=" + (d / "calls").string();
    for (const auto& assignment : env) command += " " + test::shell_quote(assignment);
    command += " bash script.sh <input >out 2>err";
    const int status = std::system(command.c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, test::slurp((d / "out").string()),
            test::slurp((d / "err").string())};
  }

  std::vector<RawCall> calls() const {
    auto read = read_calls((dir_.path() / "calls").string());
    EXPECT_TRUE(read) << read.error().str();
    return read ? *read : std::vector<RawCall>{};
  }

  std::string file(const std::string& name) const { return test::slurp((dir_.path() / name).string()); }

  test::TempDir dir_;
  bool with_trace_ = true;
};

TEST_F(StandIn, TheInterpretersCallIsRecordedAndMakesTheTrainLogsItsRunnerReadsNext) {
  fs::create_directories(dir_.path() / "sub");
  const auto r = run("cd sub && python3 tools/train.py -o \"Global.output_dir=$PWD/../test_tipc/output/m\"; echo rc=$?",
                     "", {"TIPC_TRACE_MODEL=ResNet50", "TIPC_TRACE_EVAL=7:1"});
  EXPECT_EQ(r.out, "tipc-run trace stand-in: python3 (recorded, not run)\nrc=0\n") << r.err;
  const auto recorded = calls();
  ASSERT_EQ(recorded.size(), 1u);
  EXPECT_FALSE(recorded[0].housekeeping);
  EXPECT_EQ(recorded[0].program, "python3");
  EXPECT_EQ(fs::path(recorded[0].cwd), fs::canonical(dir_.path() / "sub"));
  EXPECT_EQ(recorded[0].eval_token, "7:1");
  ASSERT_EQ(recorded[0].args.size(), 3u);
  EXPECT_EQ(recorded[0].args[2], "Global.output_dir=" + (dir_.path() / "sub/../test_tipc/output/m").string());
  EXPECT_EQ(recorded[0].stdin_target, (dir_.path() / "input").string());
  EXPECT_NE(std::find(recorded[0].environment.begin(), recorded[0].environment.end(), "TIPC_TRACE_MODEL=ResNet50"),
            recorded[0].environment.end());
  EXPECT_TRUE(fs::exists(dir_.path() / "test_tipc/output/m/train.log"));
  EXPECT_TRUE(fs::exists(dir_.path() / "test_tipc/output/m/ResNet50/train.log"));
}

TEST_F(StandIn, AMegabyteEnvironmentAndConcurrentCallsEachMakeOneWholeRecord) {
  const auto r = run(R"(for i in $(seq 10); do export BIG$i=$(head -c 100000 /dev/zero | tr '\0' x); done
for i in $(seq 20); do python3 call-$i >/dev/null & done
wait)");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto recorded = calls();
  ASSERT_EQ(recorded.size(), 20u);
  std::vector<std::string> seen;
  for (const auto& call : recorded) {
    ASSERT_EQ(call.args.size(), 1u);
    seen.push_back(call.args[0]);
    for (int i = 1; i <= 10; ++i) {
      const std::string big = "BIG" + std::to_string(i) + "=" + std::string(100000, 'x');
      EXPECT_NE(std::find(call.environment.begin(), call.environment.end(), big), call.environment.end()) << i;
    }
  }
  std::sort(seen.begin(), seen.end());
  EXPECT_EQ(std::unique(seen.begin(), seen.end()), seen.end()) << "every call once";
}

TEST_F(StandIn, TeeCopiesToItsOutputAndItsFilesAndItsRecordNamesThePipeItReadFrom) {
  const auto r = run(R"(echo hello | tee a b
echo more | tee -a a
echo last | tee b --append)");
  EXPECT_EQ(r.out, "hello\nmore\nlast\n") << r.err;
  EXPECT_EQ(file("a"), "hello\nmore\n");
  EXPECT_EQ(file("b"), "hello\nlast\n") << "an option after the file still appends";
  const auto recorded = calls();
  ASSERT_EQ(recorded.size(), 3u);
  for (const auto& call : recorded) {
    EXPECT_TRUE(call.housekeeping);
    EXPECT_EQ(call.program, "tee");
    EXPECT_TRUE(call.stdin_target.starts_with("pipe:")) << call.stdin_target;
  }
}

TEST_F(StandIn, TeeHandsWhatItDoesNotDoToTheSystemsTee) {
  const auto r = run(R"(echo x | tee -i c
echo y | tee missing/f ok; echo rc=$?)");
  EXPECT_EQ(r.out, "x\ny\nrc=1\n");
  EXPECT_EQ(file("c"), "x\n");
  EXPECT_EQ(file("ok"), "y\n") << "the other file is still written";
  EXPECT_NE(r.err.find("tee: missing/f: No such file or directory"), std::string::npos) << r.err;
}

TEST_F(StandIn, CatConcatenatesItsFilesAndStandardInputWithoutARecord) {
  dir_.write("a", "A\n");
  dir_.write("b", std::string(200000, 'b'));  // more than one read
  const auto r = run("cat a - b\necho rc=$?", "in\n");
  EXPECT_EQ(r.out, "A\nin\n" + std::string(200000, 'b') + "rc=0\n") << r.err;
  EXPECT_TRUE(calls().empty());
}

TEST_F(StandIn, CatHandsWhatItDoesNotDoToTheSystemsCat) {
  dir_.write("a", "A\n");
  const auto r = run(R"(cat -n a
cat missing a; echo rc=$?
cat a >> a; echo rc=$?)");
  EXPECT_EQ(r.out, "     1\tA\nA\nrc=1\nrc=1\n");
  EXPECT_NE(r.err.find("cat: missing: No such file or directory"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("input file is output file"), std::string::npos) << r.err;
  EXPECT_EQ(file("a"), "A\n");
}

TEST_F(StandIn, NoOpsSucceedAtOnceWithoutARecordAndHousekeepingRunsAfterItsRecord) {
  const auto r = run("sleep 100000 && nvidia-smi && mkdir -p d/e && echo done");
  EXPECT_EQ(r.out, "done\n") << r.err;
  EXPECT_TRUE(fs::is_directory(dir_.path() / "d/e"));
  const auto recorded = calls();
  ASSERT_EQ(recorded.size(), 1u);
  EXPECT_TRUE(recorded[0].housekeeping);
  EXPECT_EQ(recorded[0].args, (std::vector<std::string>{"-p", "d/e"}));
}

TEST_F(StandIn, MkdirMakesParentsItselfAndHandsTheRestToTheSystemsMkdir) {
  dir_.write("file", "");
  const auto r = run(R"(mkdir -p a/b/c x/y && echo made
mkdir -p a/b/c && echo again
mkdir -p file/sub; echo rc=$?
mkdir plain && mkdir plain; echo rc=$?
mkdir -p ''; echo rc=$?)");
  EXPECT_EQ(r.out, "made\nagain\nrc=1\nrc=1\nrc=1\n");
  EXPECT_TRUE(fs::is_directory(dir_.path() / "a/b/c") && fs::is_directory(dir_.path() / "x/y"));
  EXPECT_TRUE(fs::is_directory(dir_.path() / "plain"));
  EXPECT_NE(r.err.find("mkdir: cannot create directory 'file': Not a directory"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("mkdir: cannot create directory 'plain': File exists"), std::string::npos) << r.err;
  EXPECT_EQ(calls().size(), 6u) << "each recorded, for the setup replay";
}

TEST_F(StandIn, AStatusProbeFailsTheNthCallAlone) {
  const auto r = run("python3 a; echo $?; python3 b; echo $?; python3 c; echo $?", "",
                     {"TIPC_TRACE_FAIL_CALL=1", "TIPC_TRACE_CALL_COUNTER=" + (dir_.path() / "count").string()});
  EXPECT_EQ(r.out,
            "tipc-run trace stand-in: python3 (recorded, not run)\n0\n"
            "tipc-run trace stand-in: python3 (recorded, not run, failing)\n1\n"
            "tipc-run trace stand-in: python3 (recorded, not run)\n0\n");
  EXPECT_EQ(calls().size(), 3u) << "the failing call is recorded too";
}

TEST_F(StandIn, OutsideATraceItRefusesToStand) {
  with_trace_ = false;
  const auto r = run("python3 train.py; echo rc=$?");
  EXPECT_EQ(r.out, "rc=2\n");
  EXPECT_EQ(r.err, "tipc-trace-stand-in: not started by a trace (TIPC_TRACE_CALLS is not set)\n");
}

TEST(StandInBinary, OnX86_64ItStartsWithoutTheCLibraryOrADynamicLoader) {
#if defined(__x86_64__)
  std::ifstream in(stand_in_binary(), std::ios::binary);
  Elf64_Ehdr header{};
  ASSERT_TRUE(in.read(reinterpret_cast<char*>(&header), sizeof header));
  EXPECT_EQ(header.e_type, ET_EXEC) << "static, not position-independent";
  for (int i = 0; i < header.e_phnum; ++i) {
    Elf64_Phdr segment{};
    in.seekg(static_cast<std::streamoff>(header.e_phoff + i * header.e_phentsize));
    ASSERT_TRUE(in.read(reinterpret_cast<char*>(&segment), sizeof segment));
    EXPECT_NE(segment.p_type, PT_INTERP) << "no dynamic loader";
    EXPECT_NE(segment.p_type, PT_DYNAMIC) << "no shared library";
    EXPECT_NE(segment.p_type, PT_TLS) << "no thread-local storage (the C library's errno, a canary)";
  }
#else
  GTEST_SKIP() << "freestanding on x86-64 only";
#endif
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::trace
