// `tipc-run history import`: runs known by their output directory or bundle, recorded once each.
#include "cli/history_import.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "cli/history_command.h"
#include "history/run_history.h"
#include "report/environment.h"
#include "support/fake_repo_run.h"

namespace tipc::cli {
namespace {
namespace TIPC_TEST_FILE {
namespace fs = std::filesystem;

struct Imported {
  int exit_code;
  std::string out, err;
};

class HistoryImport : public test::FakeRepoTest {
 protected:
  // `tipc-run history import INPUTS... --history FILE`, through `history`'s dispatch.
  Imported import(const std::vector<std::string>& inputs) const {
    std::vector<std::string> args{"import"};
    args.insert(args.end(), inputs.begin(), inputs.end());
    args.insert(args.end(), {"--history", history_});
    std::ostringstream out, err;
    const int code = history_main(args, out, err);
    return {code, out.str(), err.str()};
  }
  std::vector<history::RunEntry> runs() const {
    auto history = history::RunHistory::open(history_, false);
    EXPECT_TRUE(history) << history.error().str();
    return history ? history->runs(100).value_or(std::vector<history::RunEntry>{}) : std::vector<history::RunEntry>{};
  }
  std::string bundle() const { return (scratch_.path() / "acceptance.tar.gz").string(); }

  test::TempDir scratch_;
  std::string history_ = (scratch_.path() / "h.sqlite").string();
};

// The run's journal without its "run finished" line: a run cut short.
void cut_short(const fs::path& output) {
  const std::string journal = (output / ".tipc-journal.jsonl").string();
  std::istringstream lines(test::slurp(journal));
  std::string kept;
  for (std::string line; std::getline(lines, line);) {
    if (line.find(R"("run":"finished")") == std::string::npos) kept += line + "\n";
  }
  std::ofstream(journal) << kept;
}

TEST_F(HistoryImport, AnOutputDirectoryIsImportedOnceWithTheRunsOwnCommit) {
  ASSERT_EQ(run({"--no-history"}).exit_code, 0);
  auto environment = report::read_environment_file(output().string());
  ASSERT_TRUE(environment);
  environment->repository = report::RepositoryState{"feedfacefeedfacefeedfacefeedfacefeedface", "release/2.6", false};
  ASSERT_TRUE(report::write_environment_file(output().string(), *environment));
  const std::string dir = output().string();

  const auto first = import({dir});
  EXPECT_EQ(first.exit_code, 0) << first.err;
  EXPECT_EQ(first.out, "imported " + dir + " as run 1\n");
  const auto again = import({dir});
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(again.out, "already recorded " + dir + " as run 1\n");
  const auto recorded = runs();
  ASSERT_EQ(recorded.size(), 1u);
  EXPECT_EQ(recorded[0].commit, "feedfacefeedfacefeedfacefeedfacefeedface");  // the run's, not this checkout's
  EXPECT_EQ(recorded[0].branch, "release/2.6");
  EXPECT_EQ(recorded[0].verdict, "PARTIAL");
  EXPECT_EQ(recorded[0].output_dir, dir);

  cut_short(output());
  const auto unfinished = import({dir});
  EXPECT_EQ(unfinished.exit_code, kExitUsage);
  EXPECT_NE(unfinished.err.find(
                "tipc-run history import: error: " + dir +
                ": the run did not finish (interrupted, or still running): only finished runs are recorded\n"),
            std::string::npos)
      << unfinished.err;
}

TEST_F(HistoryImport, ARunThatRecordedItselfIsAlreadyRecorded) {
  const auto ran = run();
  ASSERT_EQ(ran.exit_code, 0) << ran.err;
  history_ = (repo_.path() / "test_tipc/output/.tipc-history.sqlite").string();
  const std::string tree = (repo_.path() / "test_tipc/output").string();
  const auto imported = import({tree});
  EXPECT_EQ(imported.out, "already recorded " + tree + " as run 1\n") << imported.err;
  EXPECT_EQ(runs().size(), 1u);
}

TEST_F(HistoryImport, ABundleAndItsOutputDirectoryAreOneRun) {
  ASSERT_EQ(run({"--no-history", "--bundle", bundle()}).exit_code, 0);
  const auto from_bundle = import({bundle()});
  EXPECT_EQ(from_bundle.exit_code, 0) << from_bundle.err;
  EXPECT_EQ(from_bundle.out, "imported " + bundle() + " as run 1\n");
  const auto from_dir = import({output().string()});
  EXPECT_EQ(from_dir.out, "already recorded " + output().string() + " as run 1\n") << from_dir.err;
  auto history = history::RunHistory::open(history_, false);
  ASSERT_TRUE(history);
  const auto snapshot = history->snapshot(1);
  ASSERT_TRUE(snapshot) << snapshot.error().str();
  EXPECT_EQ(snapshot->stages.size(), 7u);
  EXPECT_EQ(runs()[0].verdict, "PARTIAL");
  EXPECT_EQ(runs()[0].output_dir, bundle());
}

TEST_F(HistoryImport, EachBadInputIsAnErrorNamingItAndTheOthersAreImported) {
  ASSERT_EQ(run({"--no-history"}).exit_code, 0);
  const std::string corrupt = scratch_.write("corrupt.tar.gz", std::string(500, 'x'));
  const std::string empty_dir = (scratch_.path() / "empty").string();
  fs::create_directories(empty_dir);
  const std::string missing = (scratch_.path() / "missing").string();
  const auto mixed = import({corrupt, empty_dir, output().string(), missing});
  EXPECT_EQ(mixed.exit_code, kExitUsage);
  EXPECT_EQ(mixed.out, "imported " + output().string() + " as run 1\n");
  EXPECT_NE(mixed.err.find("tipc-run history import: error: " + corrupt + ": not a readable bundle (a gzipped tar): "),
            std::string::npos)
      << mixed.err;
  EXPECT_NE(mixed.err.find("tipc-run history import: error: " + empty_dir +
                           ": no .tipc-plan.json at or under this directory: not the output of a tipc-run run\n"),
            std::string::npos)
      << mixed.err;
  EXPECT_NE(mixed.err.find("tipc-run history import: error: " + missing + ": no such directory or bundle\n"),
            std::string::npos)
      << mixed.err;
  EXPECT_TRUE(mixed.err.ends_with("tipc-run history import: 3 of 4 inputs not imported into " + history_ + "\n"))
      << mixed.err;
  ASSERT_EQ(runs().size(), 1u);
  EXPECT_EQ(history::RunHistory::open(history_, false)->snapshot(1)->stages.size(), 7u);  // nothing half-written
}

TEST_F(HistoryImport, NoInputIsAUsageError) {
  EXPECT_EQ(import({}).exit_code, kExitUsage);
  EXPECT_FALSE(fs::exists(history_));
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::cli
