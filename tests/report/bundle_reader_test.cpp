// A run's report read from its bundle, in memory.
#include "report/bundle_reader.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "report/bundle.h"
#include "report/json_report.h"
#include "support/run_binary.h"
#include "support/sample_report.h"
#include "support/temp_dir.h"

namespace tipc::report {
namespace {
namespace TIPC_TEST_FILE {
namespace fs = std::filesystem;

TEST(BundleReader, ReadsTheReportOfTheBundleAndLeavesNothingBehind) {
  test::TempDir dir;
  const RunReport written = test::sample_run_report();
  const std::string bundle = (dir.path() / "acceptance.tar.gz").string();
  ASSERT_TRUE(write_bundle_members(
      {{kBundleReportMember, "", render_json_report(written)}, {"test_tipc/output/train.log", "", "ips: 1"}}, bundle));
  const auto read = load_bundle_report(bundle);
  ASSERT_TRUE(read) << read.error().str();
  EXPECT_EQ(std::string(read->verdict().word()), written.verdict().word());
  EXPECT_EQ(read->started, written.started);
  EXPECT_EQ(read->plans.size(), 2u);
  ASSERT_TRUE(read->environment && read->environment->repository);
  EXPECT_EQ(read->environment->repository->commit, "0123456789abcdef0123456789abcdef01234567");  // the run's own
  EXPECT_EQ(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()), 1);     // the bundle alone
}

TEST(BundleReader, WhatIsNoBundleOfARunIsAnErrorNamingTheFile) {
  test::TempDir dir;
  const std::string corrupt = dir.write("corrupt.tar.gz", std::string(300, 'x'));
  const auto unreadable = load_bundle_report(corrupt);
  ASSERT_FALSE(unreadable);
  EXPECT_TRUE(unreadable.error().str().starts_with(corrupt + ": not a readable bundle (a gzipped tar): "))
      << unreadable.error().str();

  const std::string whole = (dir.path() / "whole.tar.gz").string();
  ASSERT_TRUE(write_bundle_members({{kBundleReportMember, "", render_json_report(test::sample_run_report())}}, whole));
  const std::string bytes = test::slurp(whole);
  const std::string cut = dir.write("cut.tar.gz", bytes.substr(0, bytes.size() / 2));
  const auto truncated = load_bundle_report(cut);
  ASSERT_FALSE(truncated);
  EXPECT_TRUE(truncated.error().str().starts_with(cut + ": ")) << truncated.error().str();

  const std::string logs_only = (dir.path() / "logs.tar.gz").string();
  ASSERT_TRUE(write_bundle_members({{"a_diff.log", "", "same"}}, logs_only));
  const auto no_report = load_bundle_report(logs_only);
  ASSERT_FALSE(no_report);
  EXPECT_EQ(no_report.error().str(), logs_only +
                                         ": no reports/report.json in this bundle: not the bundle of a run (--bundle "
                                         "on a run or on `tipc-run report`)");

  const std::string newer = (dir.path() / "newer.tar.gz").string();
  ASSERT_TRUE(write_bundle_members({{kBundleReportMember, "", R"({"schema": "tipc-run-report", "schema_version": 9})"}},
                                   newer));
  const auto refused = load_bundle_report(newer);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().str(), newer +
                                       ": reports/report.json: field 'schema_version': 9: a report of a newer "
                                       "tipc-run (this one reads up to 1)");
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::report
