// The Slurm executor without a cluster: the srun command a stage becomes, sinfo's
// listing, and the executor's job names, job ids and cancellation against a fake runner.
// tests/run/slurm_cluster_test.cpp runs the same code against a real local Slurm.
#include "run/slurm.h"

#include <csignal>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include <gtest/gtest.h>

#include "run/working_directory.h"
#include "support/fake_executor.h"
#include "support/run_binary.h"
#include "support/temp_dir.h"

namespace tipc::run {
namespace {
namespace TIPC_TEST_FILE {

// A helper command that ran and exited with `code`, printing `output`.
CommandOutcome finished(int code, std::string output) {
  CommandOutcome outcome;
  outcome.exit_code = code;
  outcome.output = std::move(output);
  return outcome;
}
namespace fs = std::filesystem;

Launch stage_launch() {
  Launch launch;
  launch.id = "test_tipc/configs/alexnet.txt#norm_train/gpus_0,1/autocast_null/train";
  launch.argv = {"python3", "train.py", "--epochs=1"};
  launch.cwd = "/repo";
  launch.log_path = "/repo/test_tipc/output/train.log";
  launch.env = {{"FLAGS_cudnn_deterministic", "1"}};
  launch.gpus = 2;
  return launch;
}

std::vector<std::string> words_before(const std::vector<std::string>& argv, const std::string& program) {
  return {argv.begin(), std::find(argv.begin(), argv.end(), program)};
}

TEST(SlurmLaunch, AStageBecomesOneSrunJobStepWithItsNeeds) {
  Launch launch = stage_launch();
  launch.time_limit = 7210;
  const Launch step = slurm_launch(launch, {"gpu", "proj", 8, {"--qos=ci"}}, "tipc-42-1", {});
  EXPECT_EQ(
      words_before(step.argv, "python3"),
      (std::vector<std::string>{"srun", "--quiet", "--job-name=tipc-42-1", "--comment=" + launch.id, "--chdir=/repo",
                                "--nodes=1", "--ntasks-per-node=1", "--kill-on-bad-exit=1", "--gres=gpu:2",
                                "--cpus-per-task=8", "--time=121", "--partition=gpu", "--account=proj", "--qos=ci"}));
  EXPECT_EQ(std::vector<std::string>(step.argv.end() - 3, step.argv.end()), launch.argv)
      << "the command comes last, as is";
  EXPECT_EQ(step.log_path, launch.log_path) << "srun's output goes to the stage's own log";
  EXPECT_EQ(step.cwd, launch.cwd);
  EXPECT_EQ(step.env.at("FLAGS_cudnn_deterministic"), "1");
  EXPECT_EQ(step.id, launch.id);
}

TEST(SlurmLaunch, ACpuStageAsksForNoGpuAndABenchmarkForAMachineOfItsOwn) {
  Launch launch = stage_launch();
  launch.gpus = 0;
  launch.exclusive = true;
  const Launch step = slurm_launch(launch, {}, "tipc-1-2", {});
  const auto flags = words_before(step.argv, "python3");
  EXPECT_EQ(std::count_if(flags.begin(), flags.end(), [](const std::string& f) { return f.starts_with("--gres"); }), 0);
  EXPECT_EQ(std::count(flags.begin(), flags.end(), "--exclusive"), 1);
  EXPECT_EQ(std::count_if(flags.begin(), flags.end(), [](const std::string& f) { return f.starts_with("--time"); }), 0);
}

TEST(SlurmLaunch, RankEnvRanksBecomeTasksAndMultiNodeHostsAreReplacedInsideTheJob) {
  Launch launch = stage_launch();
  launch.processes = 2;
  launch.nodes = 2;
  launch.hosts = "192.168.0.1,192.168.0.2";
  launch.argv = {"python3", "-m", "paddle.distributed.launch", "--ips=192.168.0.1,192.168.0.2", "train.py"};
  const Launch step = slurm_launch(launch, {}, "tipc-1-3", {});
  EXPECT_EQ(step.processes, 1) << "srun starts the ranks, not the local launcher";
  const auto flags = words_before(step.argv, "bash");
  EXPECT_EQ(std::count(flags.begin(), flags.end(), "--nodes=2"), 1);
  EXPECT_EQ(std::count(flags.begin(), flags.end(), "--ntasks-per-node=2"), 1);
  const auto wrapper = std::find(step.argv.begin(), step.argv.end(), "bash");
  ASSERT_NE(wrapper, step.argv.end());
  EXPECT_EQ(*(wrapper + 1), "-c");
  EXPECT_NE((wrapper + 2)->find("export RANK=$SLURM_PROCID"), std::string::npos);
  EXPECT_EQ(std::vector<std::string>(wrapper + 4, step.argv.end()), launch.argv);
  EXPECT_EQ(step.env.at("TIPC_SLURM_RANKS_PER_NODE"), "2");
  EXPECT_EQ(step.env.at("TIPC_SLURM_CONFIG_HOSTS"), "192.168.0.1,192.168.0.2");
}

// The step wrapper run by bash as Slurm would run it on each task: a fake scontrol
// names the allocated hosts, and the command prints what it was given.
TEST(SlurmLaunch, TheStepWrapperPutsTheAllocatedHostsInPlaceOfTheConfigsAndSetsTheRankVariables) {
  test::TempDir dir;
  dir.write("bin/scontrol", "#!/bin/sh\nprintf 'localhost\\nlocalhost\\n'\n");
  fs::permissions(dir.path() / "bin/scontrol", fs::perms::owner_all);
  Launch launch = stage_launch();
  launch.processes = 2;
  launch.hosts = "192.168.0.1,192.168.0.2";
  launch.argv = {
      "sh",
      "-c",
      "echo \"$1 $2 $3|$RANK/$WORLD_SIZE/$LOCAL_RANK/$LOCAL_WORLD_SIZE@$MASTER_ADDR:$MASTER_PORT node $PET_NODE_RANK\"",
      "sh",
      "--ips=192.168.0.1,192.168.0.2",
      "--master_addr=192.168.0.1",
      "--other=192.168.0.10"};
  const Launch step = slurm_launch(launch, {}, "tipc-1-5", {});
  const auto bash = std::find(step.argv.begin(), step.argv.end(), "bash");
  ASSERT_NE(bash, step.argv.end());
  std::string command = "cd " + test::shell_quote(dir.path()) +
                        " && env PATH=" + test::shell_quote((dir.path() / "bin").string()) +
                        ":$PATH SLURM_JOB_NODELIST=node[1-2] SLURM_PROCID=3 SLURM_LOCALID=1 SLURM_NTASKS=4 "
                        "SLURM_JOB_ID=12345 SLURM_NODEID=1";
  for (const auto& [name, value] : step.env) {
    if (value && name.starts_with("TIPC_SLURM_")) command += " " + name + "=" + test::shell_quote(*value);
  }
  for (auto word = bash; word != step.argv.end(); ++word) command += " " + test::shell_quote(*word);
  command += " > out.txt";
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
  EXPECT_EQ(test::slurp(dir.path() / "out.txt"),
            "--ips=127.0.0.1,127.0.0.1 --master_addr=127.0.0.1 --other=192.168.0.10|3/4/1/2@127.0.0.1:31845 node 1\n");
}

TEST(SlurmLaunch, InheritedSlurmVariablesAreRemovedSoEachStageIsAJobOfItsOwn) {
  const Launch step = slurm_launch(stage_launch(), {}, "tipc-1-4", {"SLURM_JOB_ID", "SLURM_NTASKS"});
  EXPECT_EQ(step.env.at("SLURM_JOB_ID"), std::nullopt);
  EXPECT_EQ(step.env.at("SLURM_NTASKS"), std::nullopt);
  EXPECT_EQ(step.env.count("SLURM_CONF"), 0u);
}

TEST(SlurmCluster, SinfoListsNodesOnceAndTheLargestGpuCount) {
  const auto capacity =
      parse_sinfo_nodes("n1|8|gpu:2\nn2|64|gpu:a100:4(S:0-1),mps:100\nn1|8|gpu:2\nn3|4|(null)\n", "slurm (sinfo)");
  ASSERT_TRUE(capacity) << capacity.error().str();
  EXPECT_EQ(capacity->nodes, 3);
  EXPECT_EQ(capacity->cpus, 76);
  EXPECT_EQ(capacity->max_gpus_per_node, 4);
  EXPECT_EQ(capacity->source, "slurm (sinfo)");
  EXPECT_FALSE(parse_sinfo_nodes("", "slurm (sinfo)"));
  const auto garbage = parse_sinfo_nodes("PARTITION AVAIL\n", "slurm (sinfo)");
  ASSERT_FALSE(garbage);
  EXPECT_NE(garbage.error().str().find("unexpected line 'PARTITION AVAIL'"), std::string::npos);
}

TEST(SlurmCluster, AQueryNamesThePartitionAndAFailedSinfoIsAnError) {
  std::vector<std::string> asked;
  const auto capacity = query_slurm_cluster({"gpu", {}, {}, {}}, [&](const std::vector<std::string>& argv) {
    asked = argv;
    return finished(0, "n1|8|gpu:8\n");
  });
  ASSERT_TRUE(capacity);
  EXPECT_EQ(capacity->source, "slurm partition gpu (sinfo)");
  EXPECT_EQ(asked.back(), "--partition=gpu");
  const auto down = query_slurm_cluster({}, [](const std::vector<std::string>&) {
    return finished(1, "sinfo: error: Unable to contact slurm controller (connect failure)\n");
  });
  ASSERT_FALSE(down);
  EXPECT_EQ(down.error().str(),
            "--executor slurm: sinfo failed: sinfo: error: Unable to contact slurm controller (connect failure)");
  const auto missing = query_slurm_cluster({}, [](const std::vector<std::string>&) {
    CommandOutcome outcome;  // did not start: the reason is its own field, not the output
    outcome.launch_error = "cannot start sinfo: No such file or directory";
    return outcome;
  });
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().str(), "--executor slurm: sinfo failed: cannot start sinfo: No such file or directory");
}

class SlurmExecutorTest : public ::testing::Test {
 protected:
  CommandOutcome helper(const std::vector<std::string>& argv) {
    commands_.push_back(argv);
    if (argv[0] == "squeue") return finished(0, squeue_output_);
    if (argv[0] == "sinfo") return finished(0, sinfo_output_);
    return finished(0, "");
  }
  // A stage whose working directory exists (the executor checks it before it submits).
  Launch launch() const {
    Launch l = stage_launch();
    l.cwd = repo_.path().string();
    return l;
  }
  test::TempDir repo_;
  FakeExecutor local_;
  std::vector<std::vector<std::string>> commands_;
  std::string squeue_output_ = "4711|COMPLETED|node[1-2]\n", sinfo_output_;
};

TEST_F(SlurmExecutorTest, SubmitsThroughTheLocalExecutorAndReportsTheJobIdAndItsNodes) {
  SlurmExecutor slurm(local_, {}, [this](const auto& argv) { return helper(argv); });
  ASSERT_TRUE(slurm.start(launch()));
  ASSERT_EQ(local_.records.size(), 1u);
  EXPECT_EQ(local_.records[0].launch.argv[0], "srun");
  const std::string name_flag = local_.records[0].launch.argv[2];
  ASSERT_TRUE(name_flag.starts_with("--job-name=tipc-")) << name_flag;
  const auto finished = slurm.wait(local_.now() + std::chrono::seconds(10));
  ASSERT_TRUE(finished);
  EXPECT_EQ(finished->job_id, "4711");
  EXPECT_EQ(finished->nodes, "node[1-2]");
  ASSERT_EQ(commands_.size(), 1u);
  EXPECT_EQ(commands_[0], (std::vector<std::string>{"squeue", "--noheader", "--states=all",
                                                    "--name=" + name_flag.substr(11), "--format=%i|%T|%N"}));
  EXPECT_EQ(finished->cluster_failure, "");
}

// srun may exit 0 when Slurm ends its job for a failed node: the job's state makes the stage
// fail, naming the node; a job Slurm still holds after its srun ended is cancelled.
TEST_F(SlurmExecutorTest, AJobEndedByANodeFailureFailsNamingTheNodeAndNoJobIsLeftBehind) {
  SlurmExecutor slurm(local_, {}, [this](const auto& argv) { return helper(argv); });
  squeue_output_ = "4712|NODE_FAIL|n[1-2]\n";
  sinfo_output_ = "n1|mixed|none\nn2|down*|Not responding\n";
  ASSERT_TRUE(slurm.start(launch()));
  auto done = slurm.wait(local_.now() + std::chrono::seconds(10));
  ASSERT_TRUE(done);
  EXPECT_EQ(done->exit_code, 0);
  EXPECT_EQ(done->cluster_failure, "Slurm job 4712 ended NODE_FAIL on node n[1-2]; down: n2 (Not responding)");
  ASSERT_EQ(commands_.size(), 2u);
  EXPECT_EQ(commands_[1],
            (std::vector<std::string>{"sinfo", "--noheader", "--Node", "--nodes=n[1-2]", "--format=%N|%T|%E"}));
  commands_.clear();
  squeue_output_ = "4713|RUNNING|n1\n";
  ASSERT_TRUE(slurm.start(launch()));
  done = slurm.wait(local_.now() + std::chrono::seconds(10));
  ASSERT_TRUE(done);
  EXPECT_EQ(done->cluster_failure, "");
  ASSERT_EQ(commands_.size(), 2u);
  EXPECT_EQ(commands_[1][0], "scancel");
}

// An srun whose node died during the step's launch may wait minutes on it after Slurm ended
// the job NODE_FAIL: the executor's poll of the running jobs (every 5 s) kills it.
TEST_F(SlurmExecutorTest, TheSrunOfAJobSlurmEndedIsKilledAtTheNextPoll) {
  local_.default_script.seconds = 100;
  SlurmExecutor slurm(local_, {}, [this](const auto& argv) { return helper(argv); });
  ASSERT_TRUE(slurm.start(launch()));
  const std::string name = local_.records[0].launch.argv[2].substr(11);
  EXPECT_FALSE(slurm.wait(local_.now() + std::chrono::seconds(4)));
  EXPECT_TRUE(commands_.empty()) << "no poll before 5 s";
  squeue_output_ = name + "|NODE_FAIL|n2\n";
  std::optional<Finished> done;
  for (int i = 0; i < 3 && !done; ++i) done = slurm.wait(local_.now() + std::chrono::seconds(4));
  ASSERT_TRUE(done) << "the srun was killed and ended";
  EXPECT_LT(local_.records[0].end - local_.records[0].start, 12);
  EXPECT_NE(done->cluster_failure.find("NODE_FAIL"), std::string::npos) << done->cluster_failure;
  ASSERT_FALSE(commands_.empty());
  EXPECT_EQ(commands_[0],
            (std::vector<std::string>{"squeue", "--noheader", "--states=all", "--name=" + name, "--format=%j|%T|%N"}));
  EXPECT_EQ(local_.records[0].signals, (std::vector<int>{SIGKILL}));
}

// With the cluster's nodes, each job is pinned to nodes with room by tipc-run's count; a
// stage that does not fit now is held back (has_room_for), one that never fits is left to
// Slurm; a node Slurm reports down is avoided from the next poll on.
TEST_F(SlurmExecutorTest, WithTheNodesEachJobIsPinnedToNodesThatHaveRoom) {
  local_.default_script.seconds = 100;
  sinfo_output_ = "n1|mixed|none\nn2|idle|none\n";
  SlurmExecutor slurm(local_, {}, [this](const auto& argv) { return helper(argv); }, {{"n1", 2, 2}, {"n2", 2, 2}});
  EXPECT_EQ(commands_.at(0), (std::vector<std::string>{"sinfo", "--noheader", "--Node", "--format=%N|%T|%E"}));
  const auto stage = [&](const std::string& id, int gpus) {
    Launch l = launch();
    l.id = id;
    l.gpus = gpus;
    return l;
  };
  const auto nodelist = [&](std::size_t i) {
    const auto& argv = local_.records.at(i).launch.argv;
    const auto it = std::find_if(argv.begin(), argv.end(), [](const auto& w) { return w.starts_with("--nodelist="); });
    return it == argv.end() ? std::string() : *it;
  };
  ASSERT_TRUE(slurm.has_room_for(stage("a", 2).demand()));
  ASSERT_TRUE(slurm.start(stage("a", 2)));
  ASSERT_TRUE(slurm.start(stage("b", 2)));
  EXPECT_EQ(nodelist(0), "--nodelist=n1");
  EXPECT_EQ(nodelist(1), "--nodelist=n2");
  EXPECT_FALSE(slurm.has_room_for(stage("x", 1).demand())) << "both nodes' GPUs are taken";
  EXPECT_TRUE(slurm.has_room_for(stage("x", 0).demand())) << "one CPU is free on each";
  EXPECT_TRUE(slurm.has_room_for(stage("x", 3).demand())) << "never fits: Slurm decides";
  ASSERT_TRUE(slurm.start(stage("c", 3)));
  EXPECT_EQ(nodelist(2), "") << "a stage that never fits is not pinned";
  sinfo_output_ = "n1|down*|Not responding\nn2|mixed|none\n";
  squeue_output_ = "";
  for (int i = 0; i < 2; ++i) EXPECT_FALSE(slurm.wait(local_.now() + std::chrono::seconds(6)));
  ASSERT_TRUE(slurm.start(stage("d", 0)));
  EXPECT_EQ(nodelist(3), "--nodelist=n2") << "n1 is down";
  EXPECT_FALSE(slurm.has_room_for(stage("x", 0).demand())) << "n2's CPUs are taken, n1 is down";
}

// A job pinned to a node that went down before it started would wait for it forever: the
// poll cancels it, and the stage fails naming the node.
TEST_F(SlurmExecutorTest, AJobWaitingForANodeThatWentDownIsCancelledNamingTheNode) {
  local_.default_script.seconds = 8;
  sinfo_output_ = "n1|idle|none\n";
  SlurmExecutor slurm(local_, {}, [this](const auto& argv) { return helper(argv); }, {{"n1", 2, 2}});
  ASSERT_TRUE(slurm.start(launch()));
  const std::string name = local_.records[0].launch.argv[2].substr(11);
  sinfo_output_ = "n1|down*|Not responding\n";
  squeue_output_ = name + "|PENDING|\n";
  std::optional<Finished> done;
  for (int i = 0; i < 4 && !done; ++i) done = slurm.wait(local_.now() + std::chrono::seconds(4));
  ASSERT_TRUE(done);
  const auto cancel =
      std::find(commands_.begin(), commands_.end(), std::vector<std::string>{"scancel", "--name=" + name});
  EXPECT_NE(cancel, commands_.end());
  EXPECT_EQ(done->cluster_failure,
            "its job waited for node n1, which Slurm reports down or drained, and was cancelled");
}

// An srun that got no allocation (the controller was down) fails with srun's own words.
TEST_F(SlurmExecutorTest, AnSrunThatGotNoAllocationFailsWithSrunsError) {
  SlurmExecutor slurm(local_, {}, [this](const auto& argv) { return helper(argv); });
  Launch l = launch();
  l.log_path = (repo_.path() / "train.log").string();
  std::ofstream(l.log_path) << "srun: error: Unable to allocate resources: Unable to contact slurm controller "
                               "(connect failure)\n";
  squeue_output_ = "";
  local_.default_script.exit_code = 1;
  ASSERT_TRUE(slurm.start(l));
  const auto done = slurm.wait(local_.now() + std::chrono::seconds(10));
  ASSERT_TRUE(done);
  EXPECT_EQ(done->job_id, "");
  EXPECT_EQ(done->cluster_failure,
            "srun: error: Unable to allocate resources: Unable to contact slurm controller (connect failure)");
}

// For a COMPLETING job squeue lists only the nodes not yet returned to service (one of
// two, when the other finished first): the job is named by the nodes seen while it ran, or
// by the nodes it was pinned to, in Slurm's hostlist form.
TEST_F(SlurmExecutorTest, AJobStillCompletingIsNamedByEveryNodeItWasGiven) {
  local_.default_script.seconds = 8;
  const auto slurm_says = [this](const std::vector<std::string>& argv) {
    commands_.push_back(argv);
    if (argv[0] == "scontrol") return finished(0, "n[1-2]\n");
    if (argv[0] != "squeue") return finished(0, sinfo_output_);
    const std::string name = local_.records.back().launch.argv[2].substr(11);
    return argv.back() == "--format=%j|%T|%N" ? finished(0, name + "|RUNNING|n[1-2]\n")
                                              : finished(0, "4714|COMPLETING|n2\n");
  };
  Launch two_nodes = launch();
  two_nodes.nodes = 2;
  {
    SlurmExecutor slurm(local_, {}, slurm_says);
    ASSERT_TRUE(slurm.start(two_nodes));
    std::optional<Finished> done;
    for (int i = 0; i < 3 && !done; ++i) done = slurm.wait(local_.now() + std::chrono::seconds(6));
    ASSERT_TRUE(done);
    EXPECT_EQ(done->nodes, "n[1-2]") << "seen while it ran";
  }
  local_.default_script.seconds = 1;  // ends before the first poll
  sinfo_output_ = "n1|idle|none\nn2|idle|none\n";
  SlurmExecutor pinned(local_, {}, slurm_says, {{"n1", 2, 2}, {"n2", 2, 2}});
  ASSERT_TRUE(pinned.start(two_nodes));
  const auto done = pinned.wait(local_.now() + std::chrono::seconds(4));
  ASSERT_TRUE(done);
  EXPECT_EQ(done->nodes, "n[1-2]") << "the nodes it was pinned to";
  EXPECT_EQ(commands_.back(), (std::vector<std::string>{"scontrol", "show", "hostlist", "n1,n2"}));
}

TEST(SlurmJobState, SqueueLinesStatesAndFailures) {
  EXPECT_FALSE(parse_squeue_job(""));
  const auto job = parse_squeue_job("17|TIMEOUT|vm\n18|COMPLETED|vm\n");
  ASSERT_TRUE(job);
  EXPECT_EQ(job->id, "17");
  EXPECT_EQ(cluster_failure(*job, ""), "Slurm job 17 ended TIMEOUT on node vm");
  for (const char* state : {"COMPLETED", "FAILED", "CANCELLED", "RUNNING"}) {
    EXPECT_EQ(cluster_failure({"1", state, "vm"}, "vm|down|Not responding"), "") << state;
  }
  EXPECT_TRUE(job_is_active("PENDING"));
  EXPECT_TRUE(job_is_active("RUNNING"));
  EXPECT_FALSE(job_is_active("NODE_FAIL"));
  EXPECT_FALSE(job_is_active("COMPLETING"));
  EXPECT_EQ(srun_allocation_error("loss 1\n"), "");
}

TEST_F(SlurmExecutorTest, SignalsReachSrunAndCancelTheJobAndDestructionCancelsWhatRuns) {
  local_.default_script.seconds = 100;
  {
    SlurmExecutor slurm(local_, {}, [this](const auto& argv) { return helper(argv); });
    Launch first = launch(), second = launch();
    second.id += "-2";
    ASSERT_TRUE(slurm.start(first));
    ASSERT_TRUE(slurm.start(second));
    slurm.signal(first.id, SIGTERM);
    slurm.signal(first.id, SIGKILL);
    EXPECT_EQ(local_.records[0].signals, (std::vector<int>{SIGTERM, SIGKILL}));
    const std::string name = local_.records[0].launch.argv[2].substr(11);
    ASSERT_EQ(commands_.size(), 2u);
    EXPECT_EQ(commands_[0], (std::vector<std::string>{"scancel", "--name=" + name}));
    EXPECT_EQ(commands_[1], (std::vector<std::string>{"scancel", "--signal=KILL", "--name=" + name}));
    commands_.clear();
  }
  // Both still ran when the executor went away (an error path): both jobs are cancelled.
  ASSERT_EQ(commands_.size(), 2u);
  for (const auto& command : commands_) EXPECT_EQ(command[0], "scancel");
}

// slurmstepd runs a step whose --chdir fails in /tmp instead: a directory that cannot be
// entered here (the filesystem the nodes share) is never submitted, and the error names it.
TEST_F(SlurmExecutorTest, AWorkingDirectoryThatCannotBeEnteredIsNeverSubmitted) {
  const fs::path file = repo_.path() / "a-file";
  std::ofstream(file) << "x";
  {
    SlurmExecutor slurm(local_, {}, [this](const auto& argv) { return helper(argv); });
    for (const auto& [cwd, reason] : {std::pair{repo_.path() / "deploy/cpp/build", "No such file or directory"},
                                      std::pair{file, "Not a directory"}}) {
      Launch l = launch();
      l.cwd = cwd.string();
      const auto started = slurm.start(l);
      ASSERT_FALSE(started);
      EXPECT_EQ(started.error().str(), fmt::format("cannot enter the working directory {}: {}", l.cwd, reason));
      EXPECT_TRUE(is_working_directory_error(started.error()));
    }
  }
  EXPECT_TRUE(local_.records.empty()) << "srun never ran";
  EXPECT_TRUE(commands_.empty()) << "nothing to cancel";
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::run
