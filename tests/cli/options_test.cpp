#include "cli/options.h"

#include <gtest/gtest.h>

#include "support/temp_dir.h"

namespace tipc::cli {
namespace {
namespace TIPC_TEST_FILE {

Result<Options> parse(std::vector<const char*> arguments) {
  arguments.insert(arguments.begin(), "tipc-run");
  return parse_options(static_cast<int>(arguments.size()), arguments.data());
}

TEST(Options, ConfigAndModeInOrderParse) {
  test::TempDir dir;
  const std::string config = dir.write("alexnet.txt", "model_name:alexnet\n");
  const auto options = parse({config.c_str(), "lite_train_lite_infer"});
  ASSERT_TRUE(options) << options.error().str();
  EXPECT_EQ(options->config, config);
  EXPECT_EQ(options->mode, "lite_train_lite_infer");
}

TEST(Options, ModeBeforeAnExistingConfigGetsTheRightOrderAsAHint) {
  test::TempDir dir;
  const std::string config = dir.write("alexnet.txt", "model_name:alexnet\n");
  const auto options = parse({"lite_train_lite_infer", config.c_str()});
  ASSERT_FALSE(options);
  EXPECT_EQ(options.error().exit_code, kExitUsage);
  EXPECT_NE(options.error().str().find("did you mean: tipc-run " + config + " lite_train_lite_infer?"),
            std::string::npos)
      << options.error().str();
}

TEST(Options, AModeNameWhereTheConfigGoesGetsTheHintEvenWhenTheOtherIsMissingToo) {
  const auto options = parse({"whole_infer", "/nonexistent/alexnet.txt"});
  ASSERT_FALSE(options);
  EXPECT_NE(options.error().str().find("did you mean: tipc-run /nonexistent/alexnet.txt whole_infer?"),
            std::string::npos)
      << options.error().str();
}

TEST(Options, AMissingConfigThatIsNoModeIsLeftToTheConfigReader) {
  // The reader says what is wrong with the file; the order is not the problem here.
  EXPECT_TRUE(parse({"/nonexistent/alexnet.txt", "lite_train_lite_infer"}));
}

TEST(Options, OnlyTakesEveryStageKindAsItsKindAndRefusesAnyOtherWord) {
  const auto options = parse({"c.txt", "m", "--only", "convert,train", "--only", "setup"});
  ASSERT_TRUE(options) << options.error().str();
  EXPECT_EQ(options->only, (std::vector<StageKind>{StageKind::kConvert, StageKind::kTrain, StageKind::kSetup}));
  const auto typo = parse({"c.txt", "m", "--only=trian"});
  ASSERT_FALSE(typo);
  EXPECT_NE(typo.error().str().find("trian not in {train,eval,export,infer,check,convert,service,other,setup}"),
            std::string::npos)
      << typo.error().str();
}

// CLI11's own checks print numeric bounds (-j 0: a 309-digit range); these say what is wanted.
TEST(Options, BadValuesAreRefusedInPlainWords) {
  const std::pair<std::vector<const char*>, const char*> cases[] = {
      {{"-j", "0"}, "--jobs: '0' is not a valid number of stages run at once: a whole number, 1 or more"},
      {{"-j", "1e400"}, "--jobs: '1e400' is not a valid number of stages run at once: a whole number, 1 or more"},
      {{"--timeout", "-3"}, "--timeout: '-3' is not a number of seconds: give one above 0, e.g. 600 or 0.5"},
      {{"--retries", "x"}, "--retries: 'x' is not a valid number of retries: a whole number, 0 or more"},
      {{"--shard", "5/4"}, "--shard: '5/4' is not a shard: write K/N, the Kth of N shards, with 1 <= K <= N"},
      {{"-k", "infer and"}, "-k: 'infer and': a pattern is missing after 'and'"},
  };
  for (const auto& [words, message] : cases) {
    std::vector<const char*> arguments = {"/nonexistent/alexnet.txt", "lite_train_lite_infer"};
    arguments.insert(arguments.end(), words.begin(), words.end());
    const auto options = parse(arguments);
    ASSERT_FALSE(options) << words[0];
    EXPECT_EQ(options.error().exit_code, kExitUsage);
    EXPECT_NE(options.error().str().find(message), std::string::npos) << options.error().str();
    EXPECT_EQ(options.error().str().find("308"), std::string::npos) << options.error().str();
  }
}

TEST(Options, TheCiOptionsParse) {
  const auto options = parse({"/nonexistent/alexnet.txt", "lite_train_lite_infer", "-k", "bs1", "-k", "not infer",
                              "--retries", "2", "-x", "--shard", "3/4"});
  ASSERT_TRUE(options) << options.error().str();
  EXPECT_EQ(options->patterns, (std::vector<std::string>{"bs1", "not infer"}));
  EXPECT_EQ(options->retries, 2);
  EXPECT_TRUE(options->fail_fast);
  ASSERT_TRUE(options->shard);
  EXPECT_EQ(options->shard->index, 3);
  EXPECT_EQ(options->shard->count, 4);
  EXPECT_TRUE(parse({"-k", "eval", "/nonexistent/alexnet.txt", "lite_train_lite_infer"})) << "-k takes one word";
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::cli
