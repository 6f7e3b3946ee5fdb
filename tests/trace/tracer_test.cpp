// The tracer on small runners written by the tests: what it records of each stand-in call
// and evaluated string, that the runner sees an unchanged shell, isolation, and errors.
#include "trace/tracer.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <future>
#include <memory>
#include <set>

#include <gtest/gtest.h>

#include "support/fake_trace_repo.h"
#include "support/run_binary.h"
#include "support/scoped_env.h"
#include "support/temp_dir.h"
#include "trace/sandbox.h"
#include "trace/scratch_tree.h"
#include "trace/trace_cache.h"
#include "trace/trace_json.h"

namespace tipc::trace {
namespace {
namespace TIPC_TEST_FILE {
namespace fs = std::filesystem;

using FakeRepo = test::FakeTraceRepo;

// The traces a cache holds (its lock files aside).
long entries(const fs::path& cache) {
  return std::count_if(fs::directory_iterator(cache), fs::directory_iterator(),
                       [](const fs::directory_entry& entry) { return entry.path().extension() == ".json"; });
}

TEST(Tracer, RecordsArgvCwdEnvironmentAndOutputTargets) {
  FakeRepo repo(R"(export FOO=bar
export CUDA_VISIBLE_DEVICES=0,1
python3.7 tools/train.py -o "a=b c" "$1" $2 > test_tipc/out.log 2>&1
cd deploy
unset LC_ALL
unset CUDA_VISIBLE_DEVICES
paddle2onnx --model_dir=x
dyout=`cat ../test_tipc/out.log | python3.7 extract_loss.py -v Iter:`
)");
  const auto trace = trace_runner(repo.request());
  ASSERT_TRUE(trace) << trace.error().str();
  ASSERT_EQ(trace->calls.size(), 3u);
  const auto& train = trace->calls[0];
  EXPECT_EQ(train.program, "python3.7");
  EXPECT_EQ(train.args,
            (std::vector<std::string>{"tools/train.py", "-o", "a=b c", "test_tipc/configs/m/train_infer_python.txt",
                                      "lite_train_lite_infer"}));
  EXPECT_EQ(train.cwd, ".");
  EXPECT_EQ(train.env.at("FOO"), "bar");
  EXPECT_EQ(train.env.at("CUDA_VISIBLE_DEVICES"), "0,1");
  EXPECT_EQ(train.stdout_path, "test_tipc/out.log");
  EXPECT_EQ(train.stderr_path, "test_tipc/out.log");
  EXPECT_EQ(train.eval_index, kNoEval);
  EXPECT_FALSE(train.stdin_from_pipe);
  EXPECT_FALSE(train.env.contains("PWD"));
  const auto& convert = trace->calls[1];
  EXPECT_EQ(convert.program, "paddle2onnx");
  EXPECT_EQ(convert.cwd, "deploy");
  EXPECT_EQ(convert.stdout_path, "");
  EXPECT_EQ(convert.env.at("LC_ALL"), std::nullopt);
  EXPECT_FALSE(convert.env.contains("CUDA_VISIBLE_DEVICES"));
  EXPECT_FALSE(convert.stdin_from_pipe);
  EXPECT_TRUE(trace->calls[2].stdin_from_pipe);  // `cat LOG | python3.7 extract_loss.py`
  EXPECT_EQ(trace->exit_code, 0);
}

// PaddleClas's runner does `cd deploy` ... `cd ..`: in a repository without deploy/, the
// first fails and the second leaves the repository, as it would for the reference.
TEST(Tracer, ACwdAboveTheRepositoryIsRelativeToItNotTheScratchTree) {
  FakeRepo repo("cd no_such_dir\ncd ..\npython3.7 x.py\ncd ..\npython3.7 y.py\n");
  const auto trace = trace_runner(repo.request());
  ASSERT_TRUE(trace) << trace.error().str();
  ASSERT_EQ(trace->calls.size(), 2u);
  EXPECT_EQ(trace->calls[0].cwd, "..");
  EXPECT_EQ(trace->calls[1].cwd, "../..");
  EXPECT_NE(trace->stderr_text.find("no_such_dir"), std::string::npos);  // the runner's own error is kept
}

// Nothing is downloaded in a trace, but the runner goes on into what the download would have
// made: an archive's directory, a clone's (named by the URL or by DIR). PaddleClas' C++ runner
// builds faiss from a clone, then `cd ..`: without faiss/ every later path was one level off.
TEST(Tracer, UnpackingAndCloningMakeTheDirectoriesTheRunnerEntersNext) {
  FakeRepo repo(R"(mkdir -p deploy/cpp && cd deploy/cpp
tar xf opencv-3.4.7.tar.gz && cd opencv-3.4.7 && cd ..
unzip -q paddle_inference.zip && cd paddle_inference && cd ..
git clone https://github.com/facebookresearch/faiss.git && cd faiss && cd ..
git clone --depth 1 -b v2.0 https://example.org/x/y.git third && cd third && cd ..
git pull
python3.7 run.py
)");
  const auto trace = trace_runner(repo.request());
  ASSERT_TRUE(trace) << trace.error().str();
  ASSERT_EQ(trace->calls.size(), 1u);
  EXPECT_EQ(trace->calls[0].cwd, "deploy/cpp");  // every `cd X && cd ..` came back
  EXPECT_EQ(trace->stderr_text, "");
}

TEST(Tracer, EvaluatedStringsAreByteExactAndTheShellIsUnchanged) {
  FakeRepo repo(R"(IFS="|"
cmd="python3.7 a.py  -x  |  y"
eval $cmd
echo "first=${PIPESTATUS[0]}" >&2
two=$'echo one  \necho two '
eval "$two" >&2
false
eval 'echo "status-inside=$?"' >&2
eval "exit 3 | true"
echo "pipestatus=${PIPESTATUS[0]}" >&2
eval "false"
echo "after=$? ifs=[$IFS]" >&2
unset IFS
eval "python3.7" "b.py" "p=$PWD"
)");
  const auto trace = trace_runner(repo.request());
  ASSERT_TRUE(trace) << trace.error().str();
  ASSERT_EQ(trace->evals.size(), 6u);
  EXPECT_EQ(trace->evals[0], "python3.7 a.py  -x     y");
  EXPECT_EQ(trace->evals[1], "echo one  \necho two ");
  EXPECT_EQ(trace->evals[2], "echo \"status-inside=$?\"");
  EXPECT_EQ(trace->evals[5], "python3.7 b.py p=" + repo.dir.path().string());
  EXPECT_NE(trace->stderr_text.find("first=0\n"), std::string::npos) << trace->stderr_text;
  EXPECT_NE(trace->stderr_text.find("one\ntwo\n"), std::string::npos);
  EXPECT_NE(trace->stderr_text.find("status-inside=1\n"), std::string::npos);
  EXPECT_NE(trace->stderr_text.find("after=1 ifs=[|]\n"), std::string::npos);
  ASSERT_EQ(trace->calls.size(), 2u);
  EXPECT_EQ(trace->calls[0].eval_index, 0u);
  EXPECT_EQ(trace->calls[0].args, (std::vector<std::string>{"a.py", "-x", "y"}));
  EXPECT_EQ(trace->calls[1].eval_index, 5u);
}

TEST(Tracer, StandInsCreateTrainLogsAndRecordConcurrentCalls) {
  FakeRepo repo(
      R"(python3.7 train.py -o Global.save_model_dir=./test_tipc/output/norm_train_gpus_0 Global.x=./test_tipc/output/a.yml
test -f test_tipc/output/norm_train_gpus_0/train.log && echo plain-log >&2
test -f test_tipc/output/norm_train_gpus_0/MyModel/train.log && echo model-log >&2
test -e test_tipc/output/a.yml || echo no-file-dir >&2
for i in $(seq 20); do python3 worker.py "$i" & done
wait
)");
  const auto trace = trace_runner(repo.request());
  ASSERT_TRUE(trace) << trace.error().str();
  EXPECT_NE(trace->stderr_text.find("plain-log\nmodel-log\nno-file-dir\n"), std::string::npos) << trace->stderr_text;
  ASSERT_EQ(trace->calls.size(), 21u);
  std::set<std::string> workers;
  for (std::size_t i = 1; i < trace->calls.size(); ++i) workers.insert(trace->calls[i].args.at(1));
  EXPECT_EQ(workers.size(), 20u);
}

// A server the runner starts in the background and never waits for may be scheduled after
// the runner's last command (a loaded CI machine): it is recorded all the same, in its
// eval's place, and the runner's exit status stays its own. One that never ends does not
// hold the trace up to its timeout.
TEST(Tracer, ABackgroundServerThatStartsLateIsRecordedInItsPlace) {
  for (const auto isolation : {Isolation::automatic, Isolation::none}) {
    FakeRepo repo(R"(eval "(/bin/sleep 0.4; exec python3.7 server.py --port 9292) > test_tipc/server.log 2>&1 &"
eval "python3.7 client.py"
/bin/sleep 1000 > /dev/null 2>&1 &
exit 0
)");
    auto request = repo.request(isolation);
    request.timeout_seconds = 15;
    const auto trace = trace_runner(request);
    ASSERT_TRUE(trace) << trace.error().str();
    ASSERT_EQ(trace->calls.size(), 2u) << trace->stderr_text;
    EXPECT_EQ(trace->calls[0].args, (std::vector<std::string>{"server.py", "--port", "9292"}));
    EXPECT_EQ(trace->calls[1].args, (std::vector<std::string>{"client.py"}));
  }
  FakeRepo failing("python3.7 server.py > /dev/null &\nexit 4\n");
  const auto failed = trace_runner(failing.request());
  ASSERT_FALSE(failed);
  EXPECT_NE(failed.error().str().find("exited with status 4"), std::string::npos) << failed.error().str();
}

TEST(Tracer, StatusLogsAreCollectedAndScratchPathsMapBack) {
  FakeRepo repo(R"(mkdir -p test_tipc/output
echo -e "\033[33m Run successfully with command - python3.7 x.py $(pwd)/out! \033[0m" > test_tipc/output/results_python.log
echo "ordinary text" > test_tipc/output/other.log
)");
  const auto trace = trace_runner(repo.request());
  ASSERT_TRUE(trace) << trace.error().str();
  ASSERT_EQ(trace->status_logs.size(), 1u);
  EXPECT_EQ(trace->status_logs[0].path, "test_tipc/output/results_python.log");
  EXPECT_EQ(trace->status_logs[0].text,
            "\033[33m Run successfully with command - python3.7 x.py " + repo.dir.path().string() + "/out! \033[0m\n");
}

TEST(Tracer, AFailingOrBrokenRunnerIsAnErrorNamingItWithItsStderr) {
  FakeRepo broken("echo starting\nif then fi (\n");
  const auto syntax = trace_runner(broken.request());
  ASSERT_FALSE(syntax);
  EXPECT_NE(syntax.error().str().find("test_tipc/test_train_inference_python.sh"), std::string::npos);
  EXPECT_NE(syntax.error().str().find("syntax error"), std::string::npos) << syntax.error().str();
  FakeRepo failing("echo 'cannot go on' >&2\nexit 4\n");
  const auto failed = trace_runner(failing.request());
  ASSERT_FALSE(failed);
  EXPECT_NE(failed.error().str().find("exited with status 4"), std::string::npos) << failed.error().str();
  EXPECT_NE(failed.error().str().find("cannot go on"), std::string::npos);
}

TEST(Tracer, AHangingRunnerIsStoppedAtTheTimeout) {
  FakeRepo repo("sleep 1000\nwhile :; do :; done\n");
  auto request = repo.request();
  request.timeout_seconds = 1;
  const auto trace = trace_runner(request);
  ASSERT_FALSE(trace);
  EXPECT_NE(trace.error().str().find("did not finish within 1 s"), std::string::npos) << trace.error().str();
  EXPECT_NE(trace.error().str().find("test_train_inference_python.sh"), std::string::npos);
}

TEST(Tracer, NoRunnerIsAClearError) {
  FakeRepo repo("true\n");
  auto request = repo.request();
  request.runner = "test_tipc/test_train_python.sh";
  const auto trace = trace_runner(request);
  ASSERT_FALSE(trace);
  EXPECT_NE(trace.error().str().find("no runner script to trace"), std::string::npos) << trace.error().str();
}

// Opens a TCP listener on 127.0.0.1 and returns its fd and port.
std::pair<int, int> listen_locally() {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address);
  listen(fd, 4);
  socklen_t size = sizeof address;
  getsockname(fd, reinterpret_cast<sockaddr*>(&address), &size);
  return {fd, ntohs(address.sin_port)};
}

TEST(Tracer, TheSandboxKeepsTheRunnerInsideItsScratchTreeAndOffTheNetwork) {
  if (!choose_sandbox(Isolation::bwrap))
    GTEST_SKIP() << "NOT CHECKED: bubblewrap (bwrap) is missing or does not work here";
  test::TempDir outside;
  const auto sentinel = outside.write("sentinel.txt", "unchanged\n");
  const auto kept = outside.write("keep/file.txt", "kept\n");
  const auto [listener, port] = listen_locally();
  FakeRepo repo("echo changed > " + sentinel + "\nrm -rf \"$HOME\"\nrm -rf " + outside.path().string() +
                "/keep\necho hello > /dev/tcp/127.0.0.1/" + std::to_string(port) +
                "\necho escaped > /tmp/tipc-trace-escape.txt\ntrue\n");
  const auto trace = trace_runner(repo.request(Isolation::bwrap));
  ASSERT_TRUE(trace) << trace.error().str();
  EXPECT_EQ(test::slurp(sentinel), "unchanged\n");
  EXPECT_EQ(test::slurp(kept), "kept\n");
  EXPECT_FALSE(fs::exists("/tmp/tipc-trace-escape.txt"));
  EXPECT_TRUE(trace->warnings.empty());
  EXPECT_LT(accept(listener, nullptr, nullptr), 0) << "the runner reached a listener on 127.0.0.1";
  close(listener);
}

// A private $TMPDIR (0700, as `mktemp -d` makes it): a root tipc-run's sandbox runs as another
// user, which cannot reach a scratch tree there, so the trees go elsewhere; every trace
// failed with "bwrap: Can't find source path ...: Permission denied" before.
TEST(Tracer, APrivateTmpdirDoesNotKeepTheSandboxFromItsScratchTree) {
  if (!choose_sandbox(Isolation::bwrap))
    GTEST_SKIP() << "NOT CHECKED: bubblewrap (bwrap) is missing or does not work here";
  test::TempDir private_tmp;
  fs::permissions(private_tmp.path(), fs::perms::owner_all, fs::perm_options::replace);
  FakeRepo repo("python3.7 tools/train.py > test_tipc/out.log 2>&1\n");
  const auto trace = [&] {
    const test::ScopedEnv tmpdir("TMPDIR", private_tmp.path().string());
    return trace_runner(repo.request(Isolation::bwrap));
  }();
  ASSERT_TRUE(trace) << trace.error().str();
  EXPECT_EQ(trace->calls.size(), 1u);
}

// The scratch tree goes whatever the runner left in it: a hundred nested directories,
// locked ones, a FIFO, a link out of the tree (not followed), the shadowed directories.
TEST(Tracer, TheScratchTreeIsRemovedWhateverTheRunnerLeftInIt) {
  test::TempDir scratch_parent, outside;
  const auto kept = outside.write("keep/file.txt", "kept\n");
  FakeRepo repo(
      "d=deep; for i in $(seq 100); do d=$d/d; done; mkdir -p \"$d\" && echo x > \"$d/f\"\n"
      "ln -s " +
      outside.path().string() +
      "/keep link_out\nmkfifo fifo\n"
      "mkdir -p locked/inner && echo y > locked/inner/f && chmod 000 locked/inner locked\n"
      "python3.7 tools/train.py\n");
  fs::create_directories(repo.dir.path() / "deploy/a/b/c");
  const auto trace = [&] {
    const test::ScopedEnv tmpdir("TMPDIR", scratch_parent.path().string());
    return trace_runner(repo.request());
  }();
  ASSERT_TRUE(trace) << trace.error().str();
  EXPECT_EQ(trace->calls.size(), 1u);
  EXPECT_TRUE(fs::is_empty(scratch_parent.path())) << fs::directory_iterator(scratch_parent.path())->path();
  EXPECT_EQ(test::slurp(kept), "kept\n");
}

// `python:/usr/bin/python3`: the runner starts the interpreter by its path, past PATH.
TEST(Tracer, AnAbsoluteInterpreterIsReplacedByTheStandInInsideTheSandbox) {
  FakeRepo repo("/usr/bin/python3 -c 'import sys; sys.exit(3)' > test_tipc/out.log 2>&1 || exit 9\npython3 other.py\n");
  auto request = repo.request(Isolation::bwrap);
  request.interpreter = "/usr/bin/python3";
  if (!choose_sandbox(Isolation::bwrap) || !fs::exists(request.interpreter)) {
    GTEST_SKIP() << "NOT CHECKED: bubblewrap (bwrap) or /usr/bin/python3 is missing or does not work here";
  }
  const auto trace = trace_runner(request);
  ASSERT_TRUE(trace) << trace.error().str();  // the real python3 would have exited 3, and the runner 9
  ASSERT_EQ(trace->calls.size(), 2u);
  EXPECT_EQ(trace->calls[0].program, "/usr/bin/python3");
  EXPECT_EQ(trace->calls[0].args, (std::vector<std::string>{"-c", "import sys; sys.exit(3)"}));
  EXPECT_EQ(trace->calls[1].program, "python3");  // found on PATH: by name, as before
}

TEST(Tracer, AnAbsoluteInterpreterThatCannotBeReplacedIsRefusedNotRun) {
  FakeRepo repo("/usr/bin/python3 -c 'open(\"ran\", \"w\")'\n");
  auto request = repo.request(Isolation::none);
  request.interpreter = "/usr/bin/python3";
  const auto unguarded = trace_runner(request);
  ASSERT_FALSE(unguarded);
  EXPECT_EQ(unguarded.error().diagnostics.at(0).key, "python");
  EXPECT_NE(unguarded.error().str().find("only bubblewrap can put the stand-in there"), std::string::npos);
  request.isolation = Isolation::automatic;
  request.interpreter = "/nonexistent/bin/python";
  const auto missing = trace_runner(request);
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().str().find("does not exist on this machine"), std::string::npos);
  EXPECT_FALSE(fs::exists(repo.dir.path() / "ran"));
}

TEST(Tracer, WithoutIsolationTheTraceWarnsWhatIsNotGuarded) {
  FakeRepo repo("python3.7 x.py\n");
  const auto trace = trace_runner(repo.request(Isolation::none));
  ASSERT_TRUE(trace) << trace.error().str();
  ASSERT_EQ(trace->warnings.size(), 1u);
  EXPECT_NE(trace->warnings[0].find("not prevented"), std::string::npos);
  EXPECT_EQ(trace->calls.size(), 1u);
}

TEST(Tracer, TheCacheReturnsTheSameTraceUntilAnInputChanges) {
  FakeRepo repo("python3.7 x.py \"$(cat test_tipc/configs/m/train_infer_python.txt | wc -l)\"\n");
  test::TempDir cache;
  auto request = repo.request();
  request.cache_dir = cache.path().string();
  const auto first = trace_runner(request);
  ASSERT_TRUE(first) << first.error().str();
  ASSERT_EQ(entries(cache.path()), 1);
  const auto again = trace_runner(request);
  ASSERT_TRUE(again);
  EXPECT_EQ(trace_to_json(*again), trace_to_json(*first));
  repo.dir.write("test_tipc/configs/m/train_infer_python.txt", "model_name:Other\n");
  const auto changed = trace_runner(request);
  ASSERT_TRUE(changed);
  EXPECT_EQ(changed->calls.at(0).args.at(1), "1");
  EXPECT_EQ(entries(cache.path()), 2);
}

// Two tracers sharing a cache, the other one first; the cache does not exist before its claim.
TEST(Tracer, ATraceBeingMadeElsewhereIsWaitedForAndReadBackNotMadeAgain) {
  FakeRepo repo("python3.7 x.py\n");
  test::TempDir cache;
  auto request = repo.request();
  request.cache_dir = (cache.path() / "made-by-the-first-claim").string();
  const auto inputs = collect_inputs(request, shadow_directories(request.repo_root));
  ASSERT_TRUE(inputs) << inputs.error().str();
  const std::string key = trace_cache_key(request, *inputs);
  auto elsewhere = std::make_unique<CacheClaim>(request.cache_dir, key);  // another tracer makes it
  auto traced = std::async(std::launch::async, [&] { return trace_runner(request); });
  EXPECT_EQ(traced.wait_for(std::chrono::milliseconds(500)), std::future_status::timeout)
      << "the trace waits for the claim";
  Trace made_elsewhere;
  made_elsewhere.runner = "made elsewhere";
  store_cached_trace(request.cache_dir, key, made_elsewhere);
  elsewhere.reset();
  const auto trace = traced.get();
  ASSERT_TRUE(trace) << trace.error().str();
  EXPECT_EQ(trace->runner, "made elsewhere") << "read back, not traced again";
  EXPECT_EQ(entries(request.cache_dir), 1);
}

TEST(Tracer, ManyTracesInParallelKeepTheRequestsOrder) {
  std::vector<std::unique_ptr<FakeRepo>> repos;
  std::vector<TraceRequest> requests;
  for (int i = 0; i < 6; ++i) {
    repos.push_back(std::make_unique<FakeRepo>("python3.7 run" + std::to_string(i) + ".py\n"));
    requests.push_back(repos.back()->request());
  }
  requests[3].runner = "missing.sh";
  const auto traces = trace_runners(requests, 3);
  ASSERT_EQ(traces.size(), 6u);
  for (int i = 0; i < 6; ++i) {
    if (i == 3) {
      EXPECT_FALSE(traces[i]);
      continue;
    }
    ASSERT_TRUE(traces[i]) << traces[i].error().str();
    EXPECT_EQ(traces[i]->calls.at(0).args.at(0), "run" + std::to_string(i) + ".py");
  }
}

TEST(Tracer, TracesRunTwiceTheCoresAtOnceOrTheGivenJobsWithinTheMemory) {
  const std::uint64_t plenty = 64ull << 30;
  EXPECT_EQ(trace_jobs(std::nullopt, 2, plenty), 4) << "a trace waits on its processes half the time";
  EXPECT_EQ(trace_jobs(std::nullopt, 0, plenty), 2) << "an unknown core count is one core";
  EXPECT_EQ(trace_jobs(32, 2, plenty), 32) << "-j applies to tracing";
  EXPECT_EQ(trace_jobs(32, 2, 5 * kTraceMemoryBytes + 1), 5) << "bounded by the memory available";
  EXPECT_EQ(trace_jobs(std::nullopt, 16, kTraceMemoryBytes / 2), 1) << "at least one";
  EXPECT_EQ(trace_jobs(0, 2, std::nullopt), 4) << "no -j of 0; no memory figure bounds nothing";
  EXPECT_GE(trace_jobs(std::nullopt), 1);
}

TEST(TraceJson, RoundTripsEveryField) {
  Trace trace;
  trace.runner = "r.sh";
  trace.evals = {"a\nb", "c"};
  TracedCall call;
  call.program = "python";
  call.args = {"x"};
  call.env = {{"A", "1"}, {"B", std::nullopt}};
  call.eval_index = 1;
  call.stdin_from_pipe = true;
  trace.calls = {call, TracedCall{}};
  trace.status_logs = {{"p", "t"}};
  trace.exit_code = 0;
  trace.stderr_text = "e";
  trace.warnings = {"w"};
  const auto back = trace_from_json(nlohmann::json::parse(trace_to_json(trace).dump()));
  ASSERT_TRUE(back) << back.error().str();
  EXPECT_EQ(trace_to_json(*back), trace_to_json(trace));
  EXPECT_EQ(back->calls[1].eval_index, kNoEval);
  EXPECT_FALSE(trace_from_json(nlohmann::json::object()));
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::trace
