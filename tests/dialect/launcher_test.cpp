#include "dialect/launcher.h"

#include <gtest/gtest.h>

#include "support/temp_dir.h"

namespace tipc::dialect {
namespace {
namespace TIPC_TEST_FILE {

TEST(Launcher, ReadsTheNamedLauncher) {
  test::TempDir dir;
  const std::string file =
      dir.write("launchers.yaml", "torch-run:\n  multi: torchrun {script}\n  spawns_ranks: true\n");
  const auto launcher = load_launcher(file, "torch-run");
  ASSERT_TRUE(launcher) << launcher.error().str();
  EXPECT_EQ(launcher->multi, "torchrun {script}");
  EXPECT_EQ(launcher->multi_node, "");
  EXPECT_TRUE(launcher->spawns_ranks);
}

TEST(Launcher, AMisspeltKeyOrAWrongTypeIsAnErrorWithLineAndKey) {
  test::TempDir dir;
  const std::string file =
      dir.write("launchers.yaml", "torch-run:\n  multi: torchrun\n  spawn_ranks: true\n  multi_node: [a]\n");
  const auto launcher = load_launcher(file, "torch-run");
  ASSERT_FALSE(launcher);
  const std::string text = launcher.error().str();
  EXPECT_NE(text.find("launchers.yaml:3: key 'spawn_ranks': unknown key in torch-run"), std::string::npos) << text;
  EXPECT_NE(text.find("launchers.yaml:4: key 'multi_node': expected a string"), std::string::npos) << text;
}

TEST(Launcher, AnUnknownNameListsTheKnownOnes) {
  test::TempDir dir;
  const std::string file = dir.write("launchers.yaml", "torch-run: {multi: a}\nrank-env: {multi: b}\n");
  const auto launcher = load_launcher(file, "mpirun");
  ASSERT_FALSE(launcher);
  EXPECT_NE(launcher.error().str().find("unknown launcher 'mpirun' (known: torch-run, rank-env)"), std::string::npos)
      << launcher.error().str();
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::dialect
