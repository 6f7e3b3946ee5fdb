// The acceptance bundle, read back with libarchive.
#include "report/bundle.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>

#include "report/report_writer.h"
#include "support/run_binary.h"
#include "support/sample_report.h"
#include "support/tar_file.h"
#include "support/temp_dir.h"

namespace tipc::report {
namespace {
namespace TIPC_TEST_FILE {
namespace fs = std::filesystem;

class BundleTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string root = repo_.path().string();
    report_ = test::sample_run_report();
    report_.repo_root = root;
    report_.settings_file = repo_.write("test_tipc/tipc-run.yaml", "jobs: 2\n");
    auto& plan = report_.plans[0];
    plan.config_file = repo_.write("test_tipc/configs/alexnet.txt", "config");
    plan.output_dir = root + "/out";
    for (auto& stage : plan.stages) stage.log = root + "/out/" + fs::path(stage.log).filename().string();
    repo_.write("out/train.log", "train log");
    auto& never_started = plan.stages[4];
    ASSERT_FALSE(never_started.started);
    never_started.log = repo_.write("out/never_started.log", "left over from an earlier run");
    repo_.write("out/export_check_eager_vs_onnx.log", "diff log");
    auto& diff = *plan.stages[6].check;
    diff.result_file = repo_.write("out/export_check_eager_vs_onnx.json", "{}");
    diff.compared_files = {repo_.write("out/eager.npy", "A"), outside_.write("onnx.npy", "B")};
    ASSERT_TRUE(write_reports(report_, plan.output_dir));
  }

  test::TempDir repo_, outside_;
  RunReport report_;
};

TEST_F(BundleTest, HoldsTheReportsLogsCheckFilesConfigsAndSettings) {
  const std::string bundle = (outside_.path() / "acceptance.tar.gz").string();
  ASSERT_TRUE(write_bundle(report_, report_.plans[0].output_dir, bundle));
  const auto members = test::read_tar_gz(bundle);
  std::vector<std::string> names;
  for (const auto& [name, data] : members) names.push_back(name);
  const std::string outside = "external" + (outside_.path() / "onnx.npy").string();
  EXPECT_EQ(names, (std::vector<std::string>{outside, "out/eager.npy", "out/export_check_eager_vs_onnx.json",
                                             "out/export_check_eager_vs_onnx.log", "out/train.log", "reports/junit.xml",
                                             "reports/report.html", "reports/report.json", "reports/summary.md",
                                             "test_tipc/configs/alexnet.txt", "test_tipc/tipc-run.yaml"}))
      << "out/never_started.log belongs to a stage that did not run";
  EXPECT_EQ(members.at("out/train.log"), "train log");
  EXPECT_EQ(members.at(outside), "B");
  EXPECT_EQ(members.at("reports/report.json"), test::slurp(report_.plans[0].output_dir + "/report.json"));
  for (const auto& entry : fs::directory_iterator(outside_.path())) {
    EXPECT_EQ(entry.path().filename().string().find(".tmp."), std::string::npos) << "a temp file was left";
  }
}

// The bundle's report.html links the log of every stage that ran at its member, relative to
// reports/, and no link is a file:// URL of the machine that wrote it.
TEST_F(BundleTest, ReportHtmlLinksResolveInsideTheBundle) {
  const std::string bundle = (outside_.path() / "acceptance.tar.gz").string();
  ASSERT_TRUE(write_bundle(report_, report_.plans[0].output_dir, bundle));
  const auto members = test::read_tar_gz(bundle);
  const std::string& html = members.at("reports/report.html");
  EXPECT_EQ(html.find("file://"), std::string::npos);
  std::size_t links = 0;
  for (const StageReport& stage : report_.plans[0].stages) {
    if (!stage.started || !fs::exists(stage.log)) continue;
    const std::string member = fs::path(stage.log).lexically_relative(repo_.path()).string();
    EXPECT_EQ(members.count(member), 1u) << member;
    const std::string href = (fs::path("..") / member).string();
    EXPECT_NE(html.find("href=\"" + href + "\""), std::string::npos) << href;
    EXPECT_EQ(fs::path("reports/" + href).lexically_normal().string(), member);
    ++links;
  }
  EXPECT_EQ(links, 2u);  // train.log and the diff check's log
  // On disk the same report links from its own directory.
  EXPECT_NE(test::slurp(report_.plans[0].output_dir + "/report.html").find("href=\"train.log\""), std::string::npos);
}

TEST_F(BundleTest, MembersAreListedOnceInReportLogConfigOrder) {
  const auto members = bundle_members(report_, report_.plans[0].output_dir);
  ASSERT_FALSE(members.empty());
  EXPECT_EQ(members.front().name, "reports/report.json");
  EXPECT_EQ(members.back().name, "test_tipc/tipc-run.yaml");
}

TEST_F(BundleTest, AnUnwritablePlaceIsAnError) {
  repo_.write("file", "");
  EXPECT_FALSE(write_bundle(report_, report_.plans[0].output_dir, (repo_.path() / "file/b.tar.gz").string()));
}

// Whatever the locale: tipc-run never calls setlocale, and neither does this test.
TEST_F(BundleTest, NonAsciiPathsKeepTheirNames) {
  const std::string log = repo_.write("test_tipc/output/中文模型/lite_train_lite_infer/train.log", "日志");
  const std::string latin1 = repo_.write("out/caf\xe9.log", "not UTF-8");
  const std::string bundle = (outside_.path() / "验收.tar.gz").string();
  ASSERT_TRUE(write_bundle_members(
      {{"test_tipc/output/中文模型/lite_train_lite_infer/train.log", log}, {"out/caf\xe9.log", latin1}}, bundle))
      << "a bundle of non-ASCII paths";
  const auto members = test::read_tar_gz(bundle);
  EXPECT_EQ(members.at("test_tipc/output/中文模型/lite_train_lite_infer/train.log"), "日志");
  EXPECT_EQ(members.at("out/caf\xe9.log"), "not UTF-8");  // its bytes as they are
}

TEST_F(BundleTest, AFailedRenameNamesItsCauseAndLeavesNoTempFile) {
  const fs::path occupied = outside_.path() / "acceptance.tar.gz";
  fs::create_directories(occupied / "in the way");
  const auto written = write_bundle(report_, report_.plans[0].output_dir, occupied.string());
  ASSERT_FALSE(written);
  EXPECT_NE(written.error().str().find(std::error_code(EISDIR, std::generic_category()).message()), std::string::npos)
      << written.error().str();
  for (const auto& entry : fs::directory_iterator(outside_.path())) {
    EXPECT_EQ(entry.path().filename().string().find(".tmp."), std::string::npos) << "a temp file was left";
  }
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::report
