#include "cli/options.h"

#include <gtest/gtest.h>

#include "support/temp_dir.h"

namespace tipc::cli {
namespace {

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

}  // namespace
}  // namespace tipc::cli
