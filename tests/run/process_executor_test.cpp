// The real executor against the fake stage program: process groups, merged and
// streamed output, exit statuses, and that nothing it started outlives it.
#include "run/process_executor.h"

#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include <gtest/gtest.h>

#include "config/train_infer_config.h"
#include "run/scheduler.h"
#include "run/working_directory.h"
#include "support/paths.h"
#include "support/run_binary.h"
#include "support/sanitizers.h"
#include "support/temp_dir.h"

namespace tipc::run {
namespace {
namespace TIPC_TEST_FILE {

bool alive(pid_t pid) { return kill(pid, 0) == 0; }

std::vector<pid_t> pids_in(const std::string& file) {
  std::vector<pid_t> pids;
  std::ifstream in(file);
  for (pid_t pid; in >> pid;) pids.push_back(pid);
  return pids;
}

// Fields of the fake stage's --record line.
struct RecordLine {
  pid_t pid = 0, pgid = 0;
  double start = 0, end = 0;
  std::string cvd, rank, world, cwd;
};

std::vector<RecordLine> records_in(const std::string& file) {
  std::vector<RecordLine> out;
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);) {
    std::istringstream s(line);
    RecordLine r;
    s >> r.pid >> r.pgid >> r.start >> r.end >> r.cvd >> r.rank >> r.world >> r.cwd;
    out.push_back(r);
  }
  return out;
}

class ProcessExecutorTest : public ::testing::Test {
 protected:
  Launch launch(const std::string& id, std::vector<std::string> args) {
    Launch l;
    l.id = id;
    l.argv = {test::fake_stage_binary()};
    l.argv.insert(l.argv.end(), args.begin(), args.end());
    l.cwd = dir_.path().string();
    l.log_path = (dir_.path() / "logs" / (id + ".log")).string();
    return l;
  }
  Finished run_one(ProcessExecutor& executor, const Launch& l, double limit = 30) {
    EXPECT_TRUE(executor.start(l));
    const auto until = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(limit));
    while (Clock::now() < until) {
      if (auto done = executor.wait(until)) return *done;
    }
    ADD_FAILURE() << "stage did not finish";
    return {};
  }
  std::string path(const std::string& name) const { return (dir_.path() / name).string(); }
  // One stage that ignores SIGTERM, as do the two children it forks (their pids go to "kids").
  plan::Plan stubborn_plan() const {
    plan::Plan p;
    p.config_path = "c.txt";
    plan::Stage s;
    s.id = "stubborn";
    s.argv = {test::fake_stage_binary(),
              "--ignore-term",
              "--children",
              path("kids"),
              "--fork-ignoring-term",
              "2",
              "--sleep",
              "60"};
    s.cwd = ".";
    s.log = "stubborn.log";
    p.stages = {s};
    return p;
  }

  test::TempDir dir_;
  SignalWatch& signals_ = SignalWatch::install();
};

// The executor makes its process a child subreaper while it runs, and only then: a test
// binary or a later trace in the same process would otherwise adopt orphans it never reaps
// (86 zombie bwraps counted in one in-process test shard).
TEST_F(ProcessExecutorTest, ItsProcessIsAChildSubreaperOnlyWhileItLives) {
  int before = -1, during = -1, after = -1;
  prctl(PR_GET_CHILD_SUBREAPER, &before);
  {
    ProcessExecutor executor(signals_);
    prctl(PR_GET_CHILD_SUBREAPER, &during);
  }
  prctl(PR_GET_CHILD_SUBREAPER, &after);
  EXPECT_EQ(during, 1);
  EXPECT_EQ(after, before);
}

TEST_F(ProcessExecutorTest, EachStageIsAProcessGroupOfItsOwnWithNullStdin) {
  ProcessExecutor executor(signals_);
  const auto done = run_one(executor, launch("a", {"--read-stdin", "--record", path("rec")}));
  EXPECT_EQ(done.exit_code, 0);
  const auto rec = records_in(path("rec"));
  ASSERT_EQ(rec.size(), 1u);
  EXPECT_EQ(rec[0].pid, rec[0].pgid);
  EXPECT_NE(rec[0].pgid, getpgrp());
  EXPECT_NE(test::slurp(path("logs/a.log")).find("stdin gave 0 bytes"), std::string::npos);
}

TEST_F(ProcessExecutorTest, StdoutAndStderrGoToTheLogInOrder) {
  ProcessExecutor executor(signals_);
  run_one(executor, launch("a", {"--print", "one", "--stderr", "two", "--print", "three"}));
  EXPECT_EQ(test::slurp(path("logs/a.log")), "one\ntwo\nthree\n");
}

TEST_F(ProcessExecutorTest, ExitCodesSignalsAndLogChecksAreReported) {
  ProcessExecutor executor(signals_);
  EXPECT_EQ(run_one(executor, launch("a", {"--exit", "3"})).exit_code, 3);
  const auto segv = run_one(executor, launch("b", {"--signal", std::to_string(SIGSEGV)}));
  EXPECT_EQ(segv.signal, SIGSEGV);
  EXPECT_FALSE(segv.exit_code);
  auto l = launch("c", {"--print", "epoch 1 loss: nan"});
  l.checks = default_log_patterns(true);
  EXPECT_EQ(run_one(executor, l).log_findings.size(), 1u);
}

// The trainer's own log goes after the stage's output, checked like it, before the stage
// is reported finished; it is copied a bounded piece per wait(), so a wait whose deadline has
// come returns between pieces (no copy holds up another stage's deadline).
TEST_F(ProcessExecutorTest, TheTrainerLogIsAppendedInPiecesBetweenDeadlines) {
  ProcessExecutor executor(signals_);
  const std::string trainer_text = std::string(4 << 20, 'x') + "\nepoch 1 loss: nan\n";
  dir_.write("out/train.log", trainer_text);
  auto l = launch("t", {"--print", "stage output"});
  l.trainer_log = path("out/*.log");
  l.checks = default_log_patterns(true);
  ASSERT_TRUE(executor.start(l));
  const std::string stage_output = "stage output\n";
  bool returned_mid_copy = false;
  std::optional<Finished> done;
  for (int calls = 0; !done && calls < 1000000; ++calls) {
    done = executor.wait(Clock::now());  // a deadline that is due at once
    const auto size = std::filesystem::file_size(path("logs/t.log"));
    if (!done && size > stage_output.size() && size < stage_output.size() + trainer_text.size())
      returned_mid_copy = true;
  }
  ASSERT_TRUE(done);
  EXPECT_TRUE(returned_mid_copy);
  EXPECT_EQ(done->trainer_log_found, true);
  EXPECT_EQ(done->log_findings.size(), 1u);  // the trainer log's nan loss
  EXPECT_EQ(test::slurp(path("logs/t.log")), stage_output + trainer_text);
  l.id = "none";
  l.trainer_log = path("nowhere/*.log");
  EXPECT_EQ(run_one(executor, l).trainer_log_found, false);
  l.trainer_log.clear();
  EXPECT_FALSE(run_one(executor, l).trainer_log_found);
}

TEST_F(ProcessExecutorTest, EnvironmentAndWorkingDirectoryComeFromTheLaunch) {
  setenv("TIPC_TEST_REMOVE_ME", "x", 1);
  ProcessExecutor executor(signals_);
  auto l = launch("a", {"--record", path("rec")});
  l.env["CUDA_VISIBLE_DEVICES"] = "3";
  l.cwd = (dir_.path() / "logs").string();
  std::filesystem::create_directories(l.cwd);
  run_one(executor, l);
  const auto rec = records_in(path("rec"));
  ASSERT_EQ(rec.size(), 1u);
  EXPECT_EQ(rec[0].cvd, "3");
  EXPECT_EQ(rec[0].cwd, l.cwd);
  l.env["CUDA_VISIBLE_DEVICES"] = std::nullopt;
  setenv("CUDA_VISIBLE_DEVICES", "7", 1);
  run_one(executor, l);
  unsetenv("CUDA_VISIBLE_DEVICES");
  EXPECT_EQ(records_in(path("rec")).at(1).cvd, "unset");
}

TEST_F(ProcessExecutorTest, AMissingProgramIsALaunchError) {
  ProcessExecutor executor(signals_);
  Launch l = launch("a", {});
  l.argv = {"no-such-python-3.99"};
  const auto started = executor.start(l);
  ASSERT_FALSE(started);
  EXPECT_EQ(started.error().str(), "cannot find 'no-such-python-3.99' on PATH");
  EXPECT_NE(test::slurp(l.log_path).find("cannot find"), std::string::npos);
}

// Boost.Process's start_dir ignores chdir's failure, which ran such a stage in tipc-run's own
// directory. The child enters the directory itself and, when it cannot, never runs the
// program: the start fails naming the directory and the system's reason, also in the log.
TEST_F(ProcessExecutorTest, AStageWhoseWorkingDirectoryCannotBeEnteredNeverStarts) {
  ProcessExecutor executor(signals_);
  std::ofstream(path("a-file")) << "x";
  for (const auto& [dir, reason] : {std::pair{path("deploy/cpp/build"), "No such file or directory"},
                                    std::pair{path("a-file"), "Not a directory"}}) {
    Launch l = launch("a", {"--write", path("marker")});
    l.cwd = dir;
    l.processes = 2;  // every rank would enter it
    const auto started = executor.start(l);
    ASSERT_FALSE(started);
    const std::string message = "cannot enter the working directory " + dir + ": " + reason;
    EXPECT_EQ(started.error().str(), message);
    EXPECT_TRUE(is_working_directory_error(started.error()));
    EXPECT_EQ(test::slurp(l.log_path), "tipc-run: " + message + "\n");
    EXPECT_FALSE(std::filesystem::exists(path("marker"))) << "the program never ran";
    EXPECT_EQ(executor.running(), 0u);
  }
}

// A program named relative to the directory (the C++ chain's ./deploy/cpp/build/main) is
// missing because the directory is: the error says so, not that the program is missing.
TEST_F(ProcessExecutorTest, AProgramRelativeToAMissingWorkingDirectoryNamesTheDirectory) {
  ProcessExecutor executor(signals_);
  Launch l = launch("a", {});
  l.argv = {"./main"};
  l.cwd = path("deploy/cpp/build");
  const auto started = executor.start(l);
  ASSERT_FALSE(started);
  EXPECT_EQ(started.error().str(), "cannot enter the working directory " + l.cwd + ": No such file or directory");
}

TEST_F(ProcessExecutorTest, GroupMembersThatOutliveTheLeaderAreKilled) {
  ProcessExecutor executor(signals_);
  const auto start = Clock::now();
  const auto done = run_one(
      executor, launch("a", {"--children", path("kids"), "--fork-ignoring-term", "2", "--fork-closing-stdout"}));
  EXPECT_EQ(done.exit_code, 0);
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(10));
  const auto kids = pids_in(path("kids"));
  ASSERT_EQ(kids.size(), 3u);
  for (pid_t kid : kids) EXPECT_FALSE(alive(kid)) << kid;
}

TEST_F(ProcessExecutorTest, DescendantsThatLeaveTheGroupDieWithTheExecutor) {
  std::vector<pid_t> kids;
  {
    ProcessExecutor executor(signals_);
    run_one(executor, launch("a", {"--children", path("kids"), "--setsid-child"}));
    kids = pids_in(path("kids"));
    ASSERT_EQ(kids.size(), 1u);
  }
  for (int i = 0; i < 50 && alive(kids[0]); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_FALSE(alive(kids[0]));
}

TEST_F(ProcessExecutorTest, RankEnvLauncherStartsOneProcessPerRankInOneGroup) {
  ProcessExecutor executor(signals_);
  auto l = launch("a", {"--record", path("rec")});
  l.processes = 2;
  EXPECT_EQ(run_one(executor, l).exit_code, 0);
  const auto rec = records_in(path("rec"));
  ASSERT_EQ(rec.size(), 2u);
  EXPECT_EQ(rec[0].pgid, rec[1].pgid);
  EXPECT_EQ(rec[0].world, "2");
  EXPECT_NE(rec[0].rank, rec[1].rank);
}

TEST_F(ProcessExecutorTest, AGigabyteOfOutputKeepsMemoryFlat) {
  TIPC_SKIP_MEMORY_MEASUREMENT_UNDER_SANITIZERS();
  rusage before{}, after{};
  getrusage(RUSAGE_SELF, &before);
  ProcessExecutor executor(signals_);
  run_one(executor, launch("a", {"--print-mb", "1024"}), 120);
  getrusage(RUSAGE_SELF, &after);
  EXPECT_EQ(std::filesystem::file_size(path("logs/a.log")), 1024ull << 20);
  const long grown_kib = after.ru_maxrss - before.ru_maxrss;
  std::cout << "peak RSS growth with 1 GiB of output: " << grown_kib << " KiB\n";
  EXPECT_LT(grown_kib, 50 * 1024);
}

// Scheduler + real processes: a timeout escalates to SIGKILL and leaves nothing behind.
TEST_F(ProcessExecutorTest, TimeoutKillsTheWholeGroupEvenWhenItIgnoresSigterm) {
  const plan::Plan p = stubborn_plan();
  SchedulerOptions options;
  options.repo_root = dir_.path().string();
  options.timeouts.all = 0.5;
  options.timeouts.grace = 0.5;
  ProcessExecutor executor(signals_);
  struct : Listener {
  } quiet;
  const auto start = Clock::now();
  const auto summary = run_stages({&p}, executor, quiet, options, [] { return false; });
  EXPECT_EQ(summary.stages[0].verdict.result, Status::kTimeout);
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(10));
  for (pid_t kid : pids_in(path("kids"))) EXPECT_FALSE(alive(kid)) << kid;
}

TEST_F(ProcessExecutorTest, InterruptStopsEveryGroupAndSkipsTheRest) {
  plan::Plan p;
  p.config_path = "c.txt";
  for (const char* id : {"a", "b", "c"}) {
    plan::Stage s;
    s.id = id;
    s.argv = {test::fake_stage_binary(), "--children", path("kids"), "--fork-ignoring-term", "1", "--sleep", "60"};
    s.cwd = ".";
    s.log = std::string(id) + ".log";
    p.stages.push_back(s);
  }
  SchedulerOptions options;
  options.jobs = 2;
  options.repo_root = dir_.path().string();
  options.timeouts.grace = 0.5;
  ProcessExecutor executor(signals_);
  struct : Listener {
  } quiet;
  std::atomic<bool> interrupted{false};
  const auto start = Clock::now();
  std::thread ctrl_c([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    interrupted = true;  // the scheduler looks at least once a second
  });
  const auto summary = run_stages({&p}, executor, quiet, options, [&] { return interrupted.load(); });
  ctrl_c.join();
  EXPECT_TRUE(summary.interrupted);
  EXPECT_EQ(summary.verdict().exit_code({false}), 130);
  EXPECT_EQ(summary.stages[2].verdict.reason, "interrupted before it started");
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(5));
  EXPECT_EQ(pids_in(path("kids")).size(), 2u);
  for (pid_t kid : pids_in(path("kids"))) EXPECT_FALSE(alive(kid)) << kid;
}

// Issue 8: the timeout and the interrupt, 100 times each, with a stage whose two children
// ignore SIGTERM: every process ends every time. Short limits keep it to seconds.
TEST_F(ProcessExecutorTest, AHundredTimeoutsAndAHundredInterruptsLeaveNoProcessBehind) {
  constexpr int kRepetitions = 100;
  const plan::Plan p = stubborn_plan();
  SchedulerOptions options;
  options.repo_root = dir_.path().string();
  options.timeouts.grace = 0.05;
  ProcessExecutor executor(signals_);
  struct : Listener {
  } quiet;
  int timeouts = 0, interrupts = 0;
  for (int i = 0; i < kRepetitions; ++i) {
    options.timeouts.all = 0.05;
    timeouts +=
        run_stages({&p}, executor, quiet, options, [] { return false; }).stages[0].verdict.result == Status::kTimeout;
  }
  options.timeouts.all.reset();
  for (int i = 0; i < kRepetitions; ++i) {
    const std::size_t kids_before = pids_in(path("kids")).size();
    const int seen = signals_.interrupts();
    std::thread ctrl_c([&] {  // once the stage and its children run
      while (pids_in(path("kids")).size() < kids_before + 2) std::this_thread::sleep_for(std::chrono::milliseconds(2));
      signals_.simulate_interrupt();
    });
    const auto summary = run_stages({&p}, executor, quiet, options, [&] { return signals_.interrupts() > seen; });
    ctrl_c.join();
    interrupts += summary.interrupted;
  }
  EXPECT_EQ(timeouts, kRepetitions);
  EXPECT_EQ(interrupts, kRepetitions);
  const auto kids = pids_in(path("kids"));
  // Each interrupt waits for both children; a 0.05 s timeout may strike before a loaded
  // machine starts them, so the timeouts add between 0 and 2 children each.
  EXPECT_GE(kids.size(), 2u * kRepetitions);
  EXPECT_LE(kids.size(), 4u * kRepetitions);
  EXPECT_EQ(std::count_if(kids.begin(), kids.end(), alive), 0) << "processes left behind";
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::run

namespace tipc::run {
namespace {
namespace TIPC_TEST_FILE {

TEST_F(ProcessExecutorTest, AStartFailureIsReportedOnceByTheScheduler) {
  plan::Plan p;
  p.config_path = "c.txt";
  plan::Stage s;
  s.id = "missing";
  s.argv = {"no-such-interpreter-xyz"};
  s.cwd = ".";
  s.log = "missing.log";
  p.stages = {s};
  SchedulerOptions options;
  options.repo_root = dir_.path().string();
  ProcessExecutor executor(signals_);
  struct Counter : Listener {
    int finished = 0;
    void stage_finished(const StageRecord&) override { ++finished; }
  } counter;
  const auto summary = run_stages({&p}, executor, counter, options, [] { return false; });
  EXPECT_EQ(counter.finished, 1);
  EXPECT_EQ(summary.stages[0].verdict.result, Status::kUnresolved);
  EXPECT_EQ(executor.running(), 0u);
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::run
