// The word of the reference runner's status line: the status its status_check was given,
// which is the stage's result only where no quirk stands between them.
#include "compat/reference_status_log.h"

#include <gtest/gtest.h>

namespace tipc::compat {
namespace {
namespace TIPC_TEST_FILE {

struct WordCase {
  const char* what;
  ReferenceCommandStatus status;
  bool success;
};

TEST(ReferenceStatusLog, ALineReadsSuccessWhereTheReferencesStatusCheckWasGivenZero) {
  const WordCase table[] = {
      {"exited 0", {false, 0, std::nullopt, std::nullopt}, true},
      {"exited 1", {false, 1, std::nullopt, std::nullopt}, false},
      {"killed, or could not start (bash's 126, 127): no exit code",
       {false, std::nullopt, std::nullopt, std::nullopt},
       false},
      {"a service, `cmd &` is 0", {true, std::nullopt, std::nullopt, std::nullopt}, true},
      {"a service that exited 1 later", {true, 1, std::nullopt, std::nullopt}, true},
      {"a train whose trainer log exists, trainer failed", {false, 1, true, std::nullopt}, true},
      {"a train whose trainer log is missing, trainer passed", {false, 0, false, std::nullopt}, false},
      {"reports another command that passed", {false, 1, std::nullopt, true}, true},
      {"reports another command that failed", {false, 0, std::nullopt, false}, false},
      {"reports another command that failed, trainer log exists", {false, 0, true, false}, false},
  };
  for (const WordCase& c : table) EXPECT_EQ(reference_line_reads_success(c.status), c.success) << c.what;
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::compat
