#pragma once
// A real Slurm cluster with fake GPUs for the tests of --executor slurm, of one node or of
// several (slurm_multi_node.h), started and stopped with scripts/slurm-local.sh
// (docs/slurm.md). Where Slurm cannot start, the one-node tests skip and say why loudly;
// under CI (CI set) they fail instead.
#include <sys/wait.h>

#include <cstdlib>
#include <string>

#include <gtest/gtest.h>

#include "support/paths.h"
#include "support/run_binary.h"
#include "support/temp_dir.h"

namespace tipc::test {

class LocalSlurm {
 public:
  // Starts a cluster of `nodes` nodes with `gpus` fake GPUs and `cpus` CPUs (0: as many as
  // this machine has) each; false (and why()) when it cannot.
  bool start(int gpus, int nodes = 1, int cpus = 0) {
    const std::string log = (dir_.path() / "start.log").string();
    std::string command = shell_quote(source_dir() + "/scripts/slurm-local.sh") + " start " + shell_quote(dir()) +
                          " --nodes " + std::to_string(nodes) + " " + std::to_string(gpus);
    if (cpus > 0) command += " " + std::to_string(cpus);
    const int status = std::system((command + " >" + shell_quote(log) + " 2>&1").c_str());
    const std::string output = slurp(log);
    if (status != 0) {
      binaries_missing_ = WIFEXITED(status) && WEXITSTATUS(status) == kExitBinariesMissing;
      why_ = "scripts/slurm-local.sh start failed:\n" + output;
      return false;
    }
    conf_ = output.substr(output.find("SLURM_CONF=") + 11);
    conf_ = conf_.substr(0, conf_.find('\n'));
    setenv("SLURM_CONF", conf_.c_str(), 1);  // for tipc-run and the slurm commands the tests run
    started_ = true;
    return true;
  }
  void stop() {
    if (!started_) return;
    std::system(
        (shell_quote(source_dir() + "/scripts/slurm-local.sh") + " stop " + shell_quote(dir()) + " >/dev/null 2>&1")
            .c_str());
    unsetenv("SLURM_CONF");
    started_ = false;
  }
  ~LocalSlurm() { stop(); }

  const std::string& why() const { return why_; }
  // Whether start failed because Slurm or munge is not installed (the script's exit 3).
  bool binaries_missing() const { return binaries_missing_; }
  // Where the script keeps the cluster: slurm.conf, the daemons' pid files and logs.
  std::string dir() const { return (dir_.path() / "cluster").string(); }
  // The output of a Slurm command run against this cluster.
  std::string command(const std::string& text) const {
    const std::string out = (dir_.path() / "command.out").string();
    std::system((text + " >" + shell_quote(out) + " 2>&1").c_str());
    return slurp(out);
  }

 private:
  static constexpr int kExitBinariesMissing = 3;
  TempDir dir_;
  std::string conf_, why_;
  bool started_ = false, binaries_missing_ = false;
};

// For a fixture's SetUp: whether the tests may go on; they skip with the reason where
// Slurm cannot start, and fail under CI, which installs it.
inline bool cluster_is_up(const LocalSlurm& cluster, bool started) {
  if (started) return true;
  if (std::getenv("CI")) ADD_FAILURE() << "CI must run the Slurm tests: " << cluster.why();
  return false;
}

}  // namespace tipc::test
