// program_on_path finds a program as posix_spawnp would: the CommandSpec::run_as launch and
// the stack dump's choice of tool both ask it.
#include "core/program_path.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "support/scoped_env.h"
#include "support/temp_dir.h"

namespace tipc {
namespace {
namespace TIPC_TEST_FILE {

namespace fs = std::filesystem;

TEST(ProgramOnPath, TheFirstExecutableOfThatNameInPathOrderOrNothing) {
  test::TempDir first, second;
  second.write("tool", "#!/bin/sh\n");
  fs::permissions(second.path() / "tool", fs::perms::owner_all);
  first.write("tool", "not executable\n");
  fs::permissions(first.path() / "tool", fs::perms::owner_read);
  const test::ScopedEnv path("PATH", first.path().string() + ":" + second.path().string());
  EXPECT_EQ(program_on_path("tool"), (second.path() / "tool").string());
  EXPECT_EQ(program_on_path("tipc-no-such-program"), "");
  EXPECT_EQ(program_on_path("./relative/tool"), "./relative/tool");  // a slash: as it is
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc
