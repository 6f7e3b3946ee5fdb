// The trainer's own log, appended to the stage log as the reference's `cat PATTERN >> log`.
#include "run/trainer_log.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/run_binary.h"
#include "support/temp_dir.h"

namespace tipc::run {
namespace {
namespace TIPC_TEST_FILE {

TEST(TrainerLog, APatternFindsEveryMatchInTheShellsOrderAndAPathItself) {
  test::TempDir dir;
  dir.write("out/b_train.log", "");
  dir.write("out/a_train.log", "");
  const std::string out = (dir.path() / "out").string();
  EXPECT_EQ(trainer_log_files(out + "/*_train.log"),
            (std::vector<std::string>{out + "/a_train.log", out + "/b_train.log"}));
  EXPECT_EQ(trainer_log_files(out + "/missing.log"), std::vector<std::string>{out + "/missing.log"});
  EXPECT_TRUE(trainer_log_files(out + "/*.txt").empty());
}

TEST(TrainerLog, ACopyGivesPiecesNoLargerThanItsBufferCheckedLikeTheStagesOutput) {
  test::TempDir dir;
  dir.write("out/a_train.log", "epoch 1 loss: 0.5\n");
  dir.write("out/b_train.log", "Traceback (most recent call last):\nValueError: x\n");
  TrainerLogCopy copy((dir.path() / "out/*_train.log").string(), default_log_patterns(true));
  std::string copied;
  char buffer[7];
  for (auto piece = copy.next(buffer); !piece.empty(); piece = copy.next(buffer)) {
    EXPECT_LE(piece.size(), sizeof buffer);
    copied += piece;
  }
  EXPECT_EQ(copied, "epoch 1 loss: 0.5\nTraceback (most recent call last):\nValueError: x\n");
  const TrainerLogOutcome outcome = std::move(copy).finish();
  EXPECT_TRUE(outcome.found);
  ASSERT_EQ(outcome.findings.size(), 1u);
  EXPECT_NE(outcome.findings[0].find("raceback"), std::string::npos) << outcome.findings[0];
}

TEST(TrainerLog, AppendingAddsToTheStageLogAndNoMatchIsNotFound) {
  test::TempDir dir;
  const std::string log = dir.write("stage.log", "stage output\n");
  dir.write("train.log", "trainer line\n");
  EXPECT_TRUE(append_trainer_log((dir.path() / "train.log").string(), log, {}).found);
  EXPECT_EQ(test::slurp(log), "stage output\ntrainer line\n");
  const TrainerLogOutcome missing = append_trainer_log((dir.path() / "nowhere/*.log").string(), log, {});
  EXPECT_FALSE(missing.found);
  EXPECT_TRUE(missing.findings.empty());
  EXPECT_EQ(test::slurp(log), "stage output\ntrainer line\n");
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::run
