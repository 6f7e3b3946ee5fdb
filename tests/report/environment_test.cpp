// The run's environment: its JSON and state file round trip, what a damaged file reads as,
// and the facts the reports show.
#include "report/environment.h"

#include <gtest/gtest.h>

#include "support/temp_dir.h"

namespace tipc::report {
namespace {
namespace TIPC_TEST_FILE {

Environment sample_environment() {
  Environment e;
  e.host = "ci-runner-7";
  e.os = "Debian GNU/Linux 12 (bookworm), Linux 6.1.0 x86_64";
  e.cpu_model = "AMD EPYC 7763 64-Core Processor";
  e.cpu_cores = 16;
  e.memory_bytes = 64ULL << 30;
  e.gpus = {{"NVIDIA H100 80GB HBM3", "550.54.15"}, {"NVIDIA H100 80GB HBM3", "550.54.15"}, {"Tesla T4", "550.54.15"}};
  e.interpreter = InterpreterInfo{"python3.10", "3.10.12", {{"paddle", "2.6.1"}, {"torch", "2.1.2"}}};
  e.repository = RepositoryState{"0123456789abcdef0123456789abcdef01234567", "release/2.6", true};
  e.tool_version = "0.1.0";
  e.command_line = {"tipc-run", "test_tipc/configs/a b.txt", "lite_train_lite_infer"};
  return e;
}

std::map<std::string, std::string> facts_of(const Environment& e) {
  std::map<std::string, std::string> facts;
  for (const auto& [label, text] : environment_facts(e)) facts[label] = text;
  return facts;
}

TEST(Environment, RoundTripsThroughItsStateFile) {
  test::TempDir dir;
  const Environment written = sample_environment();
  ASSERT_TRUE(write_environment_file(dir.path().string(), written));
  const auto read = read_environment_file(dir.path().string());
  ASSERT_TRUE(read);
  EXPECT_EQ(environment_json(*read), environment_json(written));
  EXPECT_EQ(read->gpus.size(), 3u);
  EXPECT_EQ(read->interpreter->frameworks.at("paddle"), "2.6.1");
  EXPECT_TRUE(read->repository->dirty);
  EXPECT_EQ(read->command_line, written.command_line);
}

TEST(Environment, AbsentPartsStayAbsent) {
  Environment bare;
  bare.host = "h";
  const Environment read = environment_from_json(nlohmann::json::parse(environment_json(bare).dump()));
  EXPECT_FALSE(read.interpreter);
  EXPECT_FALSE(read.repository);
  EXPECT_TRUE(read.gpus.empty());
}

TEST(Environment, AMissingOrDamagedFileReadsAsNone) {
  test::TempDir dir;
  EXPECT_FALSE(read_environment_file(dir.path().string()));
  dir.write(kEnvironmentFileName, "{\"host\": ");
  EXPECT_FALSE(read_environment_file(dir.path().string()));
  dir.write(kEnvironmentFileName, R"({"host": 7, "cpu_cores": "many", "gpus": [1, {"name": "T4"}], "repository": []})");
  const auto read = read_environment_file(dir.path().string());
  ASSERT_TRUE(read);
  EXPECT_EQ(read->host, "");
  EXPECT_EQ(read->cpu_cores, 0);
  ASSERT_EQ(read->gpus.size(), 2u);
  EXPECT_EQ(read->gpus[1].name, "T4");
  EXPECT_FALSE(read->repository);
}

TEST(Environment, FactsNameEveryPartInOrder) {
  const auto facts = environment_facts(sample_environment());
  std::vector<std::string> labels;
  for (const auto& fact : facts) labels.push_back(fact.first);
  EXPECT_EQ(labels, (std::vector<std::string>{"Host", "OS", "CPU", "Memory", "GPUs", "Python", "Repository", "tipc-run",
                                              "Command"}));
  const auto by_label = facts_of(sample_environment());
  EXPECT_EQ(by_label.at("CPU"), "AMD EPYC 7763 64-Core Processor, 16 cores");
  EXPECT_EQ(by_label.at("Memory"), "64.0 GiB");
  EXPECT_EQ(by_label.at("GPUs"), "2 × NVIDIA H100 80GB HBM3 (driver 550.54.15), Tesla T4 (driver 550.54.15)");
  EXPECT_EQ(by_label.at("Python"), "3.10.12 (python3.10), paddle 2.6.1, torch 2.1.2");
  EXPECT_EQ(by_label.at("Repository"),
            "0123456789abcdef0123456789abcdef01234567 on release/2.6, with uncommitted changes");
  EXPECT_EQ(by_label.at("Command"), "tipc-run 'test_tipc/configs/a b.txt' lite_train_lite_infer");
}

TEST(Environment, FactsSayWhatIsMissing) {
  Environment e;
  const auto facts = facts_of(e);
  EXPECT_EQ(facts.at("Host"), "unknown");
  EXPECT_EQ(facts.at("GPUs"), "none (no nvidia-smi)");
  EXPECT_EQ(facts.at("Repository"), "not a git repository");
  EXPECT_EQ(facts.count("Python"), 0u);
  e.repository = RepositoryState{"abc", "HEAD", false};
  EXPECT_EQ(facts_of(e).at("Repository"), "abc on HEAD, clean");
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::report
