// config_labels: a suite's configs named by as few path components as tell them apart.
#include "report/config_labels.h"

#include <set>

#include <gtest/gtest.h>

#include "support/fake_repo_run.h"
#include "support/text_lines.h"

namespace tipc::report {
namespace {
namespace TIPC_TEST_FILE {

std::vector<std::string> labels_of(const std::vector<std::string>& configs, const std::string& mode = "lite") {
  std::vector<ConfigRun> runs;
  for (const auto& config : configs) runs.push_back({config, mode});
  return config_labels(runs);
}

TEST(ConfigLabels, AUniqueFileNameIsItsLabel) {
  EXPECT_EQ(labels_of({"test_tipc/configs/a.txt", "test_tipc/configs/b.txt"}),
            (std::vector<std::string>{"a.txt", "b.txt"}));
}

TEST(ConfigLabels, FilesOfOneNameKeepTheirDirectoriesUpToWhereThePathsDiffer) {
  EXPECT_EQ(labels_of({"configs/ResNet50/train_infer_python.txt", "configs/MobileNetV3/train_infer_python.txt",
                       "configs/ResNet50/onnx.txt", "other/x/MobileNetV3/train_infer_python.txt"}),
            (std::vector<std::string>{"ResNet50/train_infer_python.txt", "configs/MobileNetV3/train_infer_python.txt",
                                      "onnx.txt", "x/MobileNetV3/train_infer_python.txt"}));
}

TEST(ConfigLabels, APathThatIsTheEndOfAnotherIsGivenWhole) {
  EXPECT_EQ(labels_of({"a/b.txt", "c/a/b.txt"}), (std::vector<std::string>{"a/b.txt", "c/a/b.txt"}));
  EXPECT_EQ(labels_of({"./x//a.txt", "y/a.txt"}), (std::vector<std::string>{"x/a.txt", "y/a.txt"}));
}

TEST(ConfigLabels, OneConfigUnderSeveralModesIsToldApartByItsMode) {
  const std::vector<ConfigRun> runs = {{"configs/m/a.txt", "lite_train_lite_infer"},
                                       {"configs/m/a.txt", "whole_infer"},
                                       {"configs/n/a.txt", "whole_infer"}};
  EXPECT_EQ(config_labels(runs),
            (std::vector<std::string>{"m/a.txt lite_train_lite_infer", "m/a.txt whole_infer", "n/a.txt whole_infer"}));
  EXPECT_TRUE(config_labels({}).empty());
}

// A suite of two configs of one file name: every console line of a stage names its config,
// and no two result lines are the same (before, both configs printed bare stage ids).
class ConfigLabelsRun : public test::FakeRepoTest {};

TEST_F(ConfigLabelsRun, ASuitesConsoleLinesNameTheirConfigs) {
  std::string second = test::fake_config();
  second.replace(second.find("model_name:fake"), 15, "model_name:fake2");
  repo_.write("test_tipc/configs/one/fake.txt", test::fake_config());
  repo_.write("test_tipc/configs/two/fake.txt", second);
  std::filesystem::remove(config_);
  const auto r = run_folder();
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  std::set<std::string> results;
  int passes = 0;
  for (const auto& line : test::lines_of(r.out)) {
    if (line.find("] PASS") == std::string::npos) continue;
    ++passes;
    EXPECT_TRUE(line.find("one/fake.txt: ") != std::string::npos || line.find("two/fake.txt: ") != std::string::npos)
        << line;
    std::string without_time = line.substr(line.find("PASS"));
    without_time = without_time.substr(0, without_time.find(" ("));
    EXPECT_TRUE(results.insert(without_time).second) << "printed twice: " << line << "\n" << r.out;
  }
  EXPECT_GT(passes, 2) << r.out;
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::report
