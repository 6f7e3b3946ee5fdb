// The trace sandbox against a hostile runner (issue 37): whatever a runner script, or a
// config value the runner evaluates, tries inside the trace, it has no more power than an
// unprivileged user: no capabilities, no remount, no chown, no raw socket, no root-only
// file, no home directory, no host process, and the host is unchanged afterwards.
#include "trace/sandbox.h"

#include <unistd.h>

#include <filesystem>
#include <map>

#include <gtest/gtest.h>

#include "support/fake_trace_repo.h"
#include "support/run_binary.h"
#include "support/scoped_env.h"
#include "support/temp_dir.h"
#include "trace/stand_ins.h"
#include "trace/tracer.h"

namespace tipc::trace {
namespace {
namespace TIPC_TEST_FILE {
namespace fs = std::filesystem;

// A file the runner tries to create on the host, in a directory the sandbox shows it
// (read-only): it exists afterwards only if the runner got write access to the host.
struct HostFile {
  fs::path path = fs::path("/etc") / ("tipc-sandbox-escape-" + std::to_string(getpid()));
  ~HostFile() {
    std::error_code ec;
    fs::remove(path, ec);
  }
};

// Each attempt reports `name=what it got` as one argument of a recorded stand-in call.
std::string hostile_runner(const HostFile& host) {
  const std::string host_pid = std::to_string(getpid());
  return "mount -o remount,bind,rw / 2>/dev/null && remounted=yes\n"
         "echo escaped > " +
         host.path.string() +
         " 2>/dev/null\n"
         "shadow=$(head -c 64 /etc/shadow 2>/dev/null)\n"
         "touch owned && chown 4242:4242 owned 2>/dev/null && chowned=yes\n"
         "caps=$(grep -E '^Cap(Prm|Eff|Bnd)' /proc/self/status | tr -d '\\t' | tr '\\n' ' ')\n"
         "raw=$(/usr/bin/python3 -c 'import socket; socket.socket(socket.AF_INET, socket.SOCK_RAW, 1); "
         "print(\"opened\")' "
         "2>/dev/null)\n"
         "traced=$(/usr/bin/python3 -c 'import ctypes; print(ctypes.CDLL(None).ptrace(16, " +
         host_pid +
         ", 0, 0))' 2>/dev/null)\n"
         "homes=$(ls -A /root /home 2>/dev/null | tr '\\n' ' ')\n"
         "python3.7 probe remounted=$remounted shadow=$shadow chowned=$chowned \"caps=$caps\" raw=$raw "
         "traced=$traced \"homes=$homes\" uid=$(id -u)\n";
}

std::map<std::string, std::string> probe_results(const Trace& trace) {
  std::map<std::string, std::string> results;
  for (const auto& call : trace.calls) {
    if (call.args.empty() || call.args[0] != "probe") continue;
    for (std::size_t i = 1; i < call.args.size(); ++i) {
      const auto& word = call.args[i];
      results[word.substr(0, word.find('='))] = word.substr(word.find('=') + 1);
    }
  }
  return results;
}

// Traced inside bubblewrap or not at all.
struct HostileRepo : test::FakeTraceRepo {
  using FakeTraceRepo::FakeTraceRepo;
  TraceRequest request() const { return FakeTraceRepo::request(Isolation::bwrap); }
};

#define SKIP_WITHOUT_BWRAP()                                                              \
  do {                                                                                    \
    if (!choose_sandbox(Isolation::bwrap)) {                                              \
      GTEST_SKIP() << "NOT CHECKED: bubblewrap (bwrap) is missing or does not work here"; \
    }                                                                                     \
  } while (false)

TEST(Sandbox, AHostileRunnerHasNoPowerInsideAndLeavesTheHostUnchanged) {
  SKIP_WITHOUT_BWRAP();
  HostFile host;
  HostileRepo repo(hostile_runner(host));
  const auto trace = trace_runner(repo.request());
  ASSERT_TRUE(trace) << trace.error().str();
  const auto got = probe_results(*trace);
  ASSERT_FALSE(got.empty()) << "the probe call was not recorded";
  EXPECT_EQ(got.at("remounted"), "");
  EXPECT_FALSE(fs::exists(host.path)) << "the runner wrote " << host.path << " on the host";
  EXPECT_EQ(got.at("shadow"), "") << "the runner read /etc/shadow";
  EXPECT_EQ(got.at("chowned"), "");
  EXPECT_EQ(got.at("caps"), "CapPrm:0000000000000000 CapEff:0000000000000000 CapBnd:0000000000000000 ");
  EXPECT_EQ(got.at("raw"), "") << "the runner opened a raw socket";
  EXPECT_EQ(got.at("traced"), "-1") << "the runner attached to the host process " << getpid();
  EXPECT_EQ(got.at("homes"), "") << "home directories are visible";
  if (geteuid() == 0) {
    EXPECT_EQ(got.at("uid"), "65534");
  }
}

// The same through a config value that the runner evaluates, as the upstream runners'
// `eval $cmd` does, planned by the binary in the default mode and with --dry-run.
TEST(Sandbox, AConfigValueTheRunnerEvaluatesCannotWriteOnTheHost) {
  SKIP_WITHOUT_BWRAP();
  HostFile host;
  const std::string attack =
      "tools/train.py$(/bin/mount${IFS}-o${IFS}remount,rw,bind${IFS}/;echo${IFS}x>" + host.path.string() + ")";
  HostileRepo repo(
      "IFS=$'\\n'\nlines=($(cat $1))\ntrainer=$(echo ${lines[3]} | cut -d: -f2-)\n"
      "cmd=\"python3.7 ${trainer} -o Global.epoch_num=1\"\neval $cmd\n",
      "norm_train:" + attack + "\n");
  for (const std::vector<std::string>& extra : {std::vector<std::string>{"--dry-run"}, std::vector<std::string>{}}) {
    std::vector<std::string> args = {"test_tipc/configs/m/train_infer_python.txt", "lite_train_lite_infer"};
    args.insert(args.end(), extra.begin(), extra.end());
    const auto result = test::run_tipc(repo.dir.path().string(), args);
    EXPECT_FALSE(fs::exists(host.path)) << (extra.empty() ? "a run" : "a dry run") << ": the config value wrote "
                                        << host.path << " on the host\n"
                                        << result.out << result.err;
  }
  const auto trace = trace_runner(repo.request());
  ASSERT_TRUE(trace) << trace.error().str();
  EXPECT_FALSE(fs::exists(host.path));
}

// tipc-run reads back what the runner left in the scratch tree, as root: a log the runner
// turned into a link to a root-only file is not followed, and a FIFO does not block.
TEST(Sandbox, FilesTheRunnerLeavesAreReadBackNeverThroughALinkNorFromAFifo) {
  SKIP_WITHOUT_BWRAP();
  test::TempDir secrets;
  const auto secret = secrets.write("secret.log", "Run successfully with command - the secret of root\n");
  fs::permissions(secret, fs::perms::owner_read | fs::perms::owner_write);
  HostileRepo linked("mkdir -p test_tipc/output\nln -s " + secret +
                     " test_tipc/output/results_python.log\n"
                     "python3.7 tools/train.py\n");
  const auto trace = trace_runner(linked.request());
  ASSERT_TRUE(trace) << trace.error().str();
  for (const auto& log : trace->status_logs) EXPECT_EQ(log.text.find("secret"), std::string::npos) << log.path;

  HostileRepo fifo("python3.7 tools/train.py\nrm -f \"$TIPC_TRACE_CALLS\"\nmkfifo \"$TIPC_TRACE_CALLS\"\n");
  const auto refused = trace_runner(fifo.request());
  ASSERT_FALSE(refused) << "a FIFO as the call log was read as a log";
  EXPECT_NE(refused.error().str().find("not a regular file"), std::string::npos) << refused.error().str();
}

// tipc-run's stand-in in a directory only its owner may enter (a build tree in /root, 0700,
// or in a home directory), used by the traces while the object lives.
struct ClosedStandIn {
  ClosedStandIn() {
    fs::permissions(dir.path(), fs::perms::owner_all, fs::perm_options::replace);
    fs::copy_file(source, path);
  }
  const std::string source = stand_in_binary();
  const test::TempDir dir;
  const fs::path path = dir.path() / "tipc-trace-stand-in";
  const test::ScopedEnv use{"TIPC_STAND_IN", path.string()};
};

// The sandbox binds a sealed copy of the stand-in from the scratch tree, never the stand-in
// where it lies: nothing of that path is there to see, whoever runs tipc-run.
TEST(Sandbox, TheSandboxShowsNothingOfTheStandInsOwnPathWhateverTheUser) {
  SKIP_WITHOUT_BWRAP();
  const ClosedStandIn closed;
  HostileRepo looking("python3.7 probe \"seen=$(ls -d /root /tmp/tipc-test-* 2>/dev/null)\"\n");
  const auto seen = trace_runner(looking.request());
  ASSERT_TRUE(seen) << seen.error().str();
  ASSERT_EQ(seen->calls.size(), 1u);
  EXPECT_EQ(seen->calls[0].args.at(1), "seen=") << "the stand-in's own path is there";
}

// tipc-run as root with its build tree where nobody may go (a clone in /root, 0700): the
// sandbox's user runs the sealed copy, which the runner can neither change nor remove.
TEST(Sandbox, AStandInTheSandboxsUserCannotReachIsBoundFromACopyTheRunnerCannotChange) {
  SKIP_WITHOUT_BWRAP();
  if (geteuid() != 0) GTEST_SKIP() << "NOT CHECKED: only root's sandbox runs as another user";
  const ClosedStandIn closed;
  HostileRepo repo(
      "python3.7 tools/train.py\n"
      "sealed=\"$TIPC_TRACE_REPO/../sealed\"\n"
      "{ printf x > \"$sealed/tipc-trace-stand-in\"; } 2>/dev/null && echo changed >&2\n"
      "rm -f \"$sealed/tipc-trace-stand-in\" 2>/dev/null; [ -e \"$sealed/tipc-trace-stand-in\" ] || echo removed >&2\n"
      "python3.7 tools/eval.py\n");
  const auto trace = trace_runner(repo.request());
  ASSERT_TRUE(trace) << trace.error().str();
  ASSERT_EQ(trace->calls.size(), 2u) << trace->stderr_text;
  EXPECT_EQ(trace->calls[0].args.at(0), "tools/train.py");
  EXPECT_EQ(trace->calls[1].args.at(0), "tools/eval.py");
  EXPECT_EQ(trace->stderr_text, "");
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::trace
