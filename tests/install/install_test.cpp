// `cmake --install` into a scratch prefix: the layout, and an installed binary that runs
// from there on a repository outside the source tree with the data installed beside it.
#include <cctype>
#include <filesystem>
#include <iterator>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cli/subcommand.h"
#include "support/paths.h"
#include "support/run_binary.h"
#include "support/temp_dir.h"

namespace tipc {
namespace {
namespace TIPC_TEST_FILE {
namespace fs = std::filesystem;
using test::shell_quote;

// Runs a shell command line; returns its exit code and its standard output and error.
test::RunResult run_shell(const std::string& command) {
  test::TempDir capture;
  const std::string out = (capture.path() / "out").string(), err = (capture.path() / "err").string();
  const int status =
      std::system(("(" + command + ") >" + shell_quote(out) + " 2>" + shell_quote(err) + " </dev/null").c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, test::slurp(out), test::slurp(err)};
}

class InstallTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto r = run_shell(shell_quote(test::cmake_command()) + " --install " + shell_quote(test::build_dir()) +
                             " --prefix " + shell_quote(prefix_.path().string()));
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  }
  fs::path installed(const std::string& relative) const { return prefix_.path() / relative; }

  test::TempDir prefix_;
};

TEST_F(InstallTest, InstallsTheBinaryItsDataTheCompletionAndTheLicense) {
  EXPECT_TRUE(fs::is_regular_file(installed("bin/tipc-run")));
  for (const auto& entry : fs::directory_iterator(test::source_dir() + "/configs/dialects")) {
    EXPECT_TRUE(fs::is_regular_file(installed("share/tipc-run/dialects") / entry.path().filename())) << entry.path();
  }
  EXPECT_TRUE(fs::is_regular_file(installed("share/tipc-run/launchers.yaml")));
  EXPECT_TRUE(fs::is_regular_file(installed("share/tipc-run/chains.yaml")));
  EXPECT_TRUE(fs::is_regular_file(installed("share/bash-completion/completions/tipc-run")));
  EXPECT_EQ(test::slurp(installed("share/doc/tipc-run/LICENSE")), test::slurp(test::source_dir() + "/LICENSE"));
  EXPECT_NE(test::slurp(installed("share/doc/tipc-run/copyright")).find("License: Apache-2.0"), std::string::npos);
}

TEST_F(InstallTest, InstallsTheManPage) {
  if (!fs::exists(test::build_dir() + "/tipc-run.1")) GTEST_SKIP() << "SKIPPED LOUDLY: configured with -DTIPC_MAN=OFF";
  const fs::path gzipped = installed("share/man/man1/tipc-run.1.gz");
  ASSERT_TRUE(fs::is_regular_file(gzipped)) << "Debian installs man pages gzipped";
  const auto unpacked = run_shell("gzip -dc " + shell_quote(gzipped.string()));
  ASSERT_EQ(unpacked.exit_code, 0) << unpacked.err;
  const std::string page = unpacked.out;
  EXPECT_NE(page.find(".TH \"tipc-run\" \"1\""), std::string::npos) << page.substr(0, 400);
  for (const char* subcommand :
       {"report", "diff", "acceptance", "padiff", "init-check", "compare-results", "help", "modes", "setup"}) {
    EXPECT_NE(page.find(std::string("\\fB") + subcommand + "\\fR"), std::string::npos) << subcommand;
  }
}

// A dialect that exists only in the installed share/tipc-run/dialects: the installed binary
// can use it only if it reads its data there, not from the source tree compiled in.
TEST_F(InstallTest, TheInstalledBinaryReadsTheDialectsInstalledBesideItOutsideTheTree) {
  const fs::path dialects = installed("share/tipc-run/dialects");
  std::string text = test::slurp((dialects / "paddleocr.yaml").string());
  text.replace(text.find("name: paddleocr"), 15, "name: installtest");
  test::TempDir repo;
  repo.write("installtest.yaml", text);
  fs::copy_file(repo.path() / "installtest.yaml", dialects / "installtest.yaml");
  repo.write("test_tipc/configs/alexnet.txt", test::slurp(test::source_dir() + "/test_tipc/configs/alexnet.txt"));
  const auto r = run_shell("cd " + shell_quote(repo.path().string()) + " && env -u TIPC_DIALECT_DIR " +
                           shell_quote(installed("bin/tipc-run").string()) +
                           " test_tipc/configs/alexnet.txt lite_train_lite_infer --dry-run --dialect installtest");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("installtest"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("/usr/bin/python3 "), std::string::npos) << r.out;  // the planned commands
}

// The trace's stand-in is found where install() put it (CMAKE_INSTALL_LIBEXECDIR, through
// core/locations.h), not beside the binary: the installed bin/ holds tipc-run alone.
TEST_F(InstallTest, TheInstalledBinaryTracesWithTheStandInInstalledForIt) {
  ASSERT_FALSE(fs::exists(installed("bin/tipc-trace-stand-in")));
  ASSERT_TRUE(fs::is_regular_file(installed("libexec/tipc-run/tipc-trace-stand-in")));
  test::TempDir repo;
  repo.write("test_tipc/configs/m/train_infer_python.txt",
             "===========================train_params===========================\nmodel_name:MyModel\n"
             "python:python3.7\ngpu_list:0\ntrainer:norm_train\nnorm_train:tools/train.py\n");
  repo.write("test_tipc/test_train_inference_python.sh", "python3.7 tools/train.py --epochs=1 > train.log 2>&1\n");
  const auto r = run_shell(
      "cd " + shell_quote(repo.path().string()) + " && env -u TIPC_DIALECT_DIR -u TIPC_STAND_IN TIPC_TRACE_CACHE= " +
      shell_quote(installed("bin/tipc-run").string()) +
      " test_tipc/configs/m/train_infer_python.txt lite_train_lite_infer --dry-run --plan-from runner");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("planned by tracing the repository's runner"), std::string::npos) << r.err;
}

// The installed completion, run by bash in `repo` with the installed tipc-run first on the
// PATH (it asks `tipc-run modes CONFIG`): its candidates for the last of `words`, one line.
class InstalledCompletion : public InstallTest {
 public:
  std::string complete(const std::string& words) const {
    const std::string script = "source " +
                               shell_quote(installed("share/bash-completion/completions/tipc-run").string()) +
                               " && unset TIPC_DIALECT_DIR && PATH=" + shell_quote(installed("bin").string()) +
                               ":$PATH && cd " + shell_quote(repo_.path().string()) + " && COMP_WORDS=(" + words +
                               ") && COMP_CWORD=$((${#COMP_WORDS[@]} - 1)) && _tipc_run && echo \"${COMPREPLY[*]}\"";
    const auto r = run_shell("bash -c " + shell_quote(script));
    EXPECT_EQ(r.exit_code, 0) << words << ": " << r.err;
    return r.out;
  }
  // The candidates as a set of words.
  std::set<std::string> candidates(const std::string& words) const {
    std::istringstream in(complete(words));
    return {std::istream_iterator<std::string>(in), std::istream_iterator<std::string>()};
  }
  // What the installed tipc-run prints for `args` (a --help).
  std::string installed_output(const std::vector<std::string>& args) const {
    std::string command = shell_quote(installed("bin/tipc-run").string());
    for (const auto& arg : args) command += " " + shell_quote(arg);
    const auto r = run_shell(command);
    EXPECT_EQ(r.exit_code, 0) << command << ": " << r.err;
    return r.out;
  }

 protected:
  test::TempDir repo_;
};

// An option as a --help text lists it: its names, and its values where they are a closed set.
struct HelpOption {
  std::vector<std::string> names;  // "-x", "--fail-fast"
  std::set<std::string> values;    // from CLI11's "TEXT:{a,b}" or "ENUM:value in {a->0,b->1} OR {0,1}"
};

// The lines under "Options:" up to the first empty one. A line that starts with "  -" names
// an option; its type runs to two spaces or the line's end (a description may hold braces).
std::vector<HelpOption> help_options(const std::string& help) {
  std::vector<HelpOption> options;
  std::istringstream in(help.substr(help.find("\nOptions:\n") + 10));
  for (std::string line; std::getline(in, line) && !line.empty();) {
    if (line.rfind("  -", 0) != 0) continue;
    HelpOption option;
    const std::size_t names_end = std::min(line.find(' ', 2), line.size());
    std::istringstream names(line.substr(2, names_end - 2));
    for (std::string name; std::getline(names, name, ',');) option.names.push_back(name);
    const std::string type = line.substr(names_end, line.find("  ", names_end) - names_end);
    if (const auto open = type.find('{'); open != std::string::npos) {
      std::istringstream values(type.substr(open + 1, type.find('}', open) - open - 1));
      for (std::string value; std::getline(values, value, ',');) {
        option.values.insert(value.substr(0, value.find("->")));  // "allclose->0": the name
      }
    }
    options.push_back(option);
  }
  EXPECT_FALSE(options.empty()) << help;
  return options;
}

// Every option of the command's --help is completed, and each closed set of values whole.
void expect_options_completed(const InstalledCompletion& test, const std::string& command, const std::string& help) {
  const auto offered = test.candidates(command + " -");
  for (const HelpOption& option : help_options(help)) {
    for (const auto& name : option.names) {
      EXPECT_TRUE(offered.count(name)) << "`" << command << " " << name << "` is in its --help, not in the completion";
    }
    if (!option.values.empty()) {
      EXPECT_EQ(test.candidates(command + " " + option.names.back() + " ''"), option.values)
          << command << " " << option.names.back();
    }
  }
}

TEST_F(InstalledCompletion, CompletesSubcommandsConfigsModesAndOptionValues) {
  repo_.write("test_tipc/configs/alexnet.txt", test::slurp(test::source_dir() + "/test_tipc/configs/alexnet.txt"));
  const std::pair<const char*, const char*> cases[] = {
      {"tipc-run co", "compare compare-results"},
      {"tipc-run compare --ju", "--junit"},
      {"tipc-run hel", "help"},
      {"tipc-run test_tipc/configs/al", "test_tipc/configs/alexnet.txt"},
      {"tipc-run test_tipc/configs/alexnet.txt whole_", "whole_train_whole_infer whole_infer"},
      {"tipc-run -j 2 test_tipc/configs/alexnet.txt whole_infer --executor ''", "local slurm"},
      {"tipc-run padiff --ph", "--phase"},
      {"tipc-run --ret", "--retries"},
      {"tipc-run --fail", "--fail-fast"},
      {"tipc-run --allow", "--allow-nothing"},
      {"tipc-run --no", "--no-wait --no-history"},
      {"tipc-run --base", "--baseline"},
      {"tipc-run --retries 2 --shard 1/2 -k bs1 test_tipc/configs/alexnet.txt whole_i", "whole_infer"},
      {"tipc-run report --out", "--output"},
      {"tipc-run history im", "import"},
      {"tipc-run history import --h", "--history --help"},
      {"tipc-run help padi", "padiff"},
  };
  for (const auto& [words, expected] : cases) EXPECT_EQ(complete(words), std::string(expected) + "\n") << words;
}

TEST_F(InstalledCompletion, CompletesTheModesOfTheConfigsChain) {
  for (const char* config : {"alexnet.txt", "alexnet_paddle2onnx.txt", "alexnet_serving.txt"}) {
    repo_.write(std::string("test_tipc/configs/") + config,
                test::slurp(test::source_dir() + "/test_tipc/configs/" + config));
  }
  EXPECT_EQ(complete("tipc-run test_tipc/configs/alexnet_paddle2onnx.txt ''"), "paddle2onnx_infer\n");
  EXPECT_EQ(complete("tipc-run -q test_tipc/configs/alexnet_serving.txt ''"), "serving_infer\n");
  EXPECT_EQ(complete("tipc-run test_tipc/configs/alexnet.txt ''"),
            "lite_train_lite_infer lite_train_whole_infer whole_train_whole_infer whole_infer klquant_whole_infer "
            "benchmark_train\n");
  EXPECT_EQ(complete("tipc-run test_tipc/configs ''"),
            "lite_train_lite_infer lite_train_whole_infer whole_train_whole_infer whole_infer klquant_whole_infer "
            "benchmark_train paddle2onnx_infer serving_infer\n")
      << "a suite: the modes of its configs of every chain";
  // Where tipc-run cannot say (no such config yet), the train/inference modes.
  EXPECT_EQ(complete("tipc-run test_tipc/configs/new.txt lite_train_l"), "lite_train_lite_infer\n");
}

// A new option, subcommand or value without its completion fails here: every --help is
// read from the installed binary and compared with what the completion offers.
TEST_F(InstalledCompletion, CompletesEveryOptionAndSubcommandThatTheHelpLists) {
  const std::string help = installed_output({"--help"});
  expect_options_completed(*this, "tipc-run", help);
  const auto first_words = candidates("tipc-run ''");
  for (const cli::Subcommand& subcommand : cli::subcommands()) {
    const std::string name(subcommand.name);
    EXPECT_EQ(first_words.count(name), subcommand.listed ? 1u : 0u) << name;
    EXPECT_TRUE(candidates("tipc-run help ''").count(name)) << name;
    expect_options_completed(*this, "tipc-run " + name, installed_output({name, "--help"}));
  }
  expect_options_completed(*this, "tipc-run history import", installed_output({"history", "import", "--help"}));
}

// The dialects and launchers are data: the completion offers each one shipped.
TEST_F(InstalledCompletion, CompletesTheShippedDialectsAndLaunchers) {
  std::set<std::string> dialects, launchers;
  for (const auto& entry : fs::directory_iterator(installed("share/tipc-run/dialects"))) {
    if (entry.path().stem() != "template") dialects.insert(entry.path().stem().string());
  }
  EXPECT_EQ(candidates("tipc-run --dialect ''"), dialects);
  std::istringstream file(test::slurp(installed("share/tipc-run/launchers.yaml").string()));
  for (std::string line; std::getline(file, line);) {
    // A launcher is a top-level key; its settings are indented, comments start with '#'.
    if (!line.empty() && std::isalpha(static_cast<unsigned char>(line[0]))) {
      launchers.insert(line.substr(0, line.find(':')));
    }
  }
  EXPECT_EQ(candidates("tipc-run --launcher ''"), launchers);
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc
