// setup/offline_downloads: --offline marks a setup stage UNSUPPORTED, with the URL, when one
// of its actions would need the network, before anything starts.
#include "setup/offline_downloads.h"

#include <gtest/gtest.h>

#include "support/temp_dir.h"

namespace tipc::setup {
namespace {
namespace TIPC_TEST_FILE {

plan::Plan plan_with(plan::StageKind kind, const std::vector<std::string>& actions) {
  plan::Stage stage;
  stage.id = "setup";
  stage.kind = kind;
  stage.argv = {"tipc-run", "setup", "--"};
  stage.argv.insert(stage.argv.end(), actions.begin(), actions.end());
  plan::Plan plan;
  plan.stages.push_back(stage);
  return plan;
}

TEST(OfflineDownloads, ADownloadOrCloneTheCacheLacksMakesTheSetupStageUnsupported) {
  test::TempDir repo, cache;
  const data::DownloadCache empty(cache.path().string());
  auto download = plan_with(plan::StageKind::kSetup, {"cd . && mkdir x", "cd . && wget https://example.invalid/a.tgz"});
  refuse_uncached_downloads(download, repo.path().string(), empty);
  ASSERT_TRUE(download.stages[0].unsupported);
  EXPECT_EQ(*download.stages[0].unsupported,
            "--offline: the download of https://example.invalid/a.tgz is not in the "
            "download cache " +
                cache.path().string());
  auto clone = plan_with(plan::StageKind::kSetup, {"cd . && git clone https://example.invalid/r.git r"});
  refuse_uncached_downloads(clone, repo.path().string(), empty);
  ASSERT_TRUE(clone.stages[0].unsupported);
  EXPECT_NE(clone.stages[0].unsupported->find("the clone of https://example.invalid/r.git has no mirror"),
            std::string::npos);
}

TEST(OfflineDownloads, WhatIsThereAlreadyNeedsNoNetworkAndOtherStagesAreLeftAlone) {
  test::TempDir repo, cache;
  const data::DownloadCache empty(cache.path().string());
  repo.write("a.tgz", "kept");
  repo.write("r/.git/HEAD", "ref: refs/heads/main\n");
  auto kept = plan_with(plan::StageKind::kSetup, {"cd . && wget -nc https://example.invalid/a.tgz",
                                                  "cd . && git clone https://example.invalid/r.git r"});
  refuse_uncached_downloads(kept, repo.path().string(), empty);
  EXPECT_FALSE(kept.stages[0].unsupported) << *kept.stages[0].unsupported;
  auto train = plan_with(plan::StageKind::kTrain, {"cd . && wget https://example.invalid/a.tgz"});
  refuse_uncached_downloads(train, repo.path().string(), empty);
  EXPECT_FALSE(train.stages[0].unsupported);
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::setup
