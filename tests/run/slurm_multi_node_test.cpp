// --executor slurm against a real cluster of two nodes on this machine (scripts/slurm-local.sh
// --nodes 2): the nodes have names, addresses and fake GPUs of their own, and a train of an
// `ips;gpus` element runs as one job step over both nodes with the config's hosts replaced by
// the nodes' addresses. And the script's start, when a node's slurmd fails or Ctrl-C comes,
// leaves nothing behind.
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <set>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/fake_config.h"
#include "support/paths.h"
#include "support/run_binary.h"
#include "support/run_processes.h"
#include "support/slurm_multi_node.h"
#include "support/temp_dir.h"

namespace tipc::run {
namespace {
namespace TIPC_TEST_FILE {
namespace fs = std::filesystem;

// The lines of tipc-fake-stage --record-node: "NODE NODE_INDEX HOSTNAME" each.
std::vector<std::vector<std::string>> node_records(const std::string& text) {
  std::vector<std::vector<std::string>> records;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::vector<std::string> fields;
    for (std::string word; words >> word;) fields.push_back(word);
    records.push_back(fields);
  }
  return records;
}

class SlurmMultiNode : public test::SlurmMultiNodeTest {};

TEST_F(SlurmMultiNode, TheClusterHasTwoNodesOfTheirOwnNameAddressAndGpus) {
  const auto listed = nodes();
  ASSERT_EQ(listed.size(), static_cast<std::size_t>(kNodes)) << cluster().command("sinfo --Node");
  std::set<std::string> names, addresses;
  for (const auto& node : listed) {
    names.insert(node.name);
    addresses.insert(node.address);
    EXPECT_EQ(node.address.rfind("127.", 0), 0u) << node.address << ": only loopback addresses";
    EXPECT_EQ(node.gres, "gpu:" + std::to_string(kGpusPerNode)) << node.name;
    // tipc-run's job step resolves the allocated nodes' names with getent.
    EXPECT_EQ(cluster().command("getent ahostsv4 " + node.name + " | awk 'NR == 1 { print $1 }'"), node.address + "\n")
        << node.name;
  }
  EXPECT_EQ(names.size(), listed.size());
  EXPECT_EQ(addresses.size(), listed.size());
}

TEST_F(SlurmMultiNode, ATwoNodeTrainRunsOnBothNodesWithTheirAddressesInItsCommand) {
  test::TempDir repo;
  repo.write(test::kPaddleOcrMarker, "");
  repo.write("eval-ok", "");
  // The config's hosts (made-up names) are replaced inside the job by the allocated nodes'.
  repo.write("test_tipc/configs/fake.txt", test::fake_config("train.py --record-node nodes.txt", "hosta,hostb;0,1"));
  const auto r = test::run_tipc(
      repo.path(), {"test_tipc/configs/fake.txt", "lite_train_lite_infer", "--executor", "slurm", "--only", "train"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;

  const auto records = node_records(test::slurp(repo.path() / "nodes.txt"));
  ASSERT_EQ(records.size(), static_cast<std::size_t>(kNodes)) << "one task per node (the launcher starts the ranks)";
  std::set<std::string> ran_on, indexes;
  for (const auto& fields : records) {
    ASSERT_EQ(fields.size(), 3u);
    ran_on.insert(fields[0]);
    indexes.insert(fields[1]);
  }
  std::set<std::string> names;
  std::string addresses;
  for (const auto& node : nodes()) {
    names.insert(node.name);
    addresses += (addresses.empty() ? "" : ",") + node.address;
  }
  EXPECT_EQ(ran_on, names) << "the step's tasks ran on both nodes";
  EXPECT_EQ(indexes, (std::set<std::string>{"0", "1"}));
  const std::string log = test::slurp(
      repo.path() / "test_tipc/output/fake/lite_train_lite_infer/norm_train_gpus_0,1_autocast_null_nodes_2.log");
  EXPECT_NE(log.find("arg --ips=" + addresses + "\n"), std::string::npos) << log;
  EXPECT_EQ(log.find("hosta"), std::string::npos) << log;
}

// `scripts/slurm-local.sh start DIR --nodes 2` with a stand-in slurmd that runs `slurmd_body`
// (sh), as Ctrl-C in a terminal would meet it: in a process group of its own, SIGINT not
// ignored. The real slurmctld and munged run.
class SlurmMultiNodeScript : public ::testing::Test {
 protected:
  void SetUp() override {
    if (std::system(
            "PATH=$PATH:/usr/sbin; { command -v slurmctld && command -v sinfo && command -v munged; } >/dev/null") !=
        0) {
      GTEST_SKIP() << "SLURM TESTS NOT RUN: slurmctld, sinfo or munged not installed";
    }
  }
  void TearDown() override {
    std::system((test::shell_quote(script_) + " stop " + test::shell_quote(cluster_) + " >/dev/null 2>&1").c_str());
  }
  pid_t start_with_slurmd(const std::string& slurmd_body) {
    const std::string slurmd = dir_.write("bin/slurmd", "#!/bin/sh\n" + slurmd_body + "\n");
    chmod(slurmd.c_str(), 0755);
    const std::string path = (dir_.path() / "bin").string() + ":" + std::getenv("PATH");
    const pid_t pid = fork();
    if (pid == 0) {
      setpgid(0, 0);
      signal(SIGINT, SIG_DFL);
      const int log = open(log_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      dup2(log, 1);
      dup2(log, 2);
      setenv("PATH", path.c_str(), 1);
      execl("/bin/bash", "bash", script_.c_str(), "start", cluster_.c_str(), "--nodes", "2", nullptr);
      _exit(127);
    }
    return pid;
  }
  static int exit_status(pid_t pid) {
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }
  // Lines of /etc/hosts that the script added for this cluster.
  int host_lines() const {
    std::istringstream lines(test::slurp("/etc/hosts"));
    int count = 0;
    for (std::string line; std::getline(lines, line);) count += line.ends_with(" # slurm-local " + cluster_) ? 1 : 0;
    return count;
  }
  // Live slurmctld or slurmd processes of this cluster: "PID NAME" each.
  std::string daemons_left() const {
    std::string found;
    for (const auto& entry : fs::directory_iterator("/proc")) {
      const std::string pid = entry.path().filename();
      if (pid.find_first_not_of("0123456789") != std::string::npos) continue;
      const std::string name = test::slurp(entry.path() / "comm");
      if (name != "slurmctld\n" && name != "slurmd\n") continue;
      if (test::slurp(entry.path() / "cmdline").find(cluster_ + "/slurm.conf") == std::string::npos) continue;
      if (test::running(std::stoi(pid))) found += pid + " " + name;
    }
    return found;
  }

  test::TempDir dir_;
  const std::string script_ = test::source_dir() + "/scripts/slurm-local.sh";
  const std::string cluster_ = (dir_.path() / "cluster").string();
  const std::string log_ = (dir_.path() / "start.log").string();
};

TEST_F(SlurmMultiNodeScript, AStartWhoseSlurmdFailsStopsWhatItStartedAndRemovesItsHostNames) {
  const pid_t pid = start_with_slurmd("exit 1");
  EXPECT_EQ(exit_status(pid), 1) << test::slurp(log_);
  const std::string log = test::slurp(log_);
  EXPECT_NE(log.find("start failed: slurmd -N tipc"), std::string::npos) << log;
  EXPECT_NE(log.find("---- tail of " + cluster_ + "/log/slurmctld.log"), std::string::npos) << log;
  EXPECT_EQ(host_lines(), 0);
  EXPECT_EQ(daemons_left(), "");
}

TEST_F(SlurmMultiNodeScript, CtrlCDuringStartStopsWhatItStartedAndRemovesItsHostNames) {
  const std::string started = (dir_.path() / "slurmd-started").string();
  const pid_t pid = start_with_slurmd("touch " + test::shell_quote(started) + "; exec sleep 60");
  ASSERT_TRUE(test::within(std::chrono::seconds(30), [&] { return fs::exists(started); })) << test::slurp(log_);
  EXPECT_EQ(host_lines(), 2) << "the nodes' names are in /etc/hosts while slurmd starts";
  EXPECT_NE(daemons_left(), "") << "slurmctld runs";
  kill(-pid, SIGINT);  // what Ctrl-C sends: the whole foreground process group
  EXPECT_EQ(exit_status(pid), 130) << test::slurp(log_);
  EXPECT_EQ(host_lines(), 0);
  EXPECT_EQ(daemons_left(), "");
}

// Two clusters of the script: the first's slurmctld stops (as SlurmMultiNodeFaults restarts
// it) while the second starts. Nothing listens on the stopped controller's port then, but the
// first cluster still claims it: the second start must choose ports of its own, so that the
// first's slurmctld starts again. Before, a second cluster of two nodes took the range from the
// first's P, its second slurmd the first's slurmd port, and restarting failed with "Address
// already in use" (once in CI's CTest beside the other Slurm tests).
class SlurmClusterPorts : public SlurmMultiNodeScript {
 protected:
  void TearDown() override {
    SlurmMultiNodeScript::TearDown();
    std::system((test::shell_quote(script_) + " stop " + test::shell_quote(second_) + " >/dev/null 2>&1").c_str());
  }
  int start(const std::string& cluster) const {
    return std::system(
        (test::shell_quote(script_) + " start " + test::shell_quote(cluster) + " --nodes 2 >/dev/null 2>&1 </dev/null")
            .c_str());
  }
  // The ports a cluster's slurm.conf names: slurmctld's and each node's.
  static std::set<std::string> ports(const std::string& cluster) {
    std::set<std::string> found;
    std::istringstream lines(test::slurp(cluster + "/slurm.conf"));
    for (std::string line; std::getline(lines, line);) {
      for (const std::string key : {"SlurmctldPort=", " Port="}) {
        const auto at = line.find(key);
        if (at != std::string::npos)
          found.insert(line.substr(at + key.size(), line.find(' ', at + key.size()) - at - key.size()));
      }
    }
    return found;
  }
  const std::string second_ = (dir_.path() / "second").string();
};

// A socket listening on 0.0.0.0:`port` (closed with the object), or none when the port is taken.
class Listener {
 public:
  explicit Listener(int port) : fd_(socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)) {
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<std::uint16_t>(port));
    const int one = 1;
    setsockopt(fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (bind(fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 || listen(fd_, 1) != 0) close();
  }
  ~Listener() { close(); }
  Listener(const Listener&) = delete;
  Listener& operator=(const Listener&) = delete;
  bool listening() const { return fd_ >= 0; }
  void close() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

 private:
  int fd_;
};

// The first port P of the script's (16817, step 2) with P .. P+4 free now.
int free_five_ports() {
  for (int p = 16817; p < 17817; p += 2) {
    bool free = true;
    for (int k = 0; k < 5 && free; ++k) free = Listener(p + k).listening();
    if (free) return p;
  }
  return 0;
}

TEST_F(SlurmClusterPorts, AStartLeavesTheStoppedControllerOfAnotherClusterItsPort) {
  // The first cluster goes to P+2 while P is held, so that P .. P+2 is free once P is let go
  // and its controller stopped: the range a second start of two nodes would take from P.
  const int p = free_five_ports();
  ASSERT_NE(p, 0);
  Listener hold(p);
  ASSERT_TRUE(hold.listening());
  ASSERT_EQ(start(cluster_), 0);
  hold.close();
  const pid_t controller = std::stoi(test::slurp(cluster_ + "/slurmctld.pid"));
  ASSERT_EQ(kill(controller, SIGTERM), 0);
  ASSERT_TRUE(test::within(std::chrono::seconds(30), [&] { return !test::running(controller); }));
  ASSERT_EQ(start(second_), 0);
  const auto first = ports(cluster_), second = ports(second_);
  ASSERT_EQ(first.size(), 3u) << test::slurp(cluster_ + "/slurm.conf");
  ASSERT_EQ(second.size(), 3u) << test::slurp(second_ + "/slurm.conf");
  for (const auto& port : second) EXPECT_EQ(first.count(port), 0u) << "port " << port << " is the first cluster's";
  const std::string conf = cluster_ + "/slurm.conf";
  EXPECT_EQ(std::system(("/usr/sbin/slurmctld -f " + test::shell_quote(conf) + " </dev/null >/dev/null 2>&1").c_str()),
            0);
  EXPECT_TRUE(test::within(std::chrono::seconds(30), [&] {
    return std::system(("SLURM_CONF=" + test::shell_quote(conf) + " scontrol ping >/dev/null 2>&1").c_str()) == 0;
  })) << test::slurp(cluster_ + "/log/slurmctld.log");
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::run
