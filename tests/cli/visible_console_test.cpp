// The console is inert (issue 37): what tipc-run prints from a log, a config, a path or an
// archive reaches the terminal as visible text, on stdout and stderr alike.
#include "cli/visible_console.h"

#include <ostream>
#include <sstream>

#include <gtest/gtest.h>

#include "support/fake_config.h"
#include "support/fake_repo_run.h"
#include "support/run_binary.h"

namespace tipc::cli {
namespace {
namespace TIPC_TEST_FILE {

// What `write` wrote through a VisibleTextBuffer, flushed.
template <typename Write>
std::string through_buffer(Write write) {
  std::ostringstream target;
  VisibleTextBuffer buffer(target.rdbuf());
  std::ostream stream(&buffer);
  write(stream);
  stream.flush();
  return target.str();
}

TEST(VisibleTextBuffer, PassesTextOnWithItsControlCharactersWrittenOut) {
  EXPECT_EQ(through_buffer([](std::ostream& out) { out << "tipc-run: error: entry '\x1b]0;t\x07': refused\n"; }),
            "tipc-run: error: entry '\\x1b]0;t\\x07': refused\n");
  EXPECT_EQ(through_buffer([](std::ostream& out) { out << '\r' << "[PASS]" << '\t' << "x\n"; }), "\\x0d[PASS]\tx\n");
}

TEST(VisibleTextBuffer, AUtf8CharacterCutBetweenTwoWritesWaitsForItsRest) {
  EXPECT_EQ(through_buffer([](std::ostream& out) {
              out << "\xE6\xA8"
                  << "\xA1\xE5\x9E\x8B\n";
            }),
            "模型\n");
  // A flush in the middle passes on what is there: a character cut short is not UTF-8.
  EXPECT_EQ(through_buffer([](std::ostream& out) { out << "a\xE6\xA8" << std::flush << "\xA1"; }),
            "a\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");
}

TEST(VisibleTextBuffer, WhatIsWrittenArrivesAtOnceWithoutAFlush) {
  std::ostringstream target;
  VisibleTextBuffer buffer(target.rdbuf());
  std::ostream stream(&buffer);
  stream << "no line end yet";  // the console reporter writes to stdout beside it: no reordering
  EXPECT_EQ(target.str(), "no line end yet");
}

// The first byte a terminal would act on instead of showing: a C0 control but tab and line
// feed, or DEL.
std::string::size_type first_raw_control(const std::string& text) {
  for (std::size_t at = 0; at < text.size(); ++at) {
    const auto byte = static_cast<unsigned char>(text[at]);
    if ((byte < 0x20 && byte != '\n' && byte != '\t') || byte == 0x7f) return at;
  }
  return std::string::npos;
}

constexpr const char* kTitleClearAndFakePass = "\x1b]0;title\x07\x1b[2J\r[PASS]";
constexpr const char* kWrittenOut = "\\x1b]0;title\\x07\\x1b[2J\\x0d[PASS]";

class VisibleConsole : public test::FakeRepoTest {};

TEST_F(VisibleConsole, AStageWhoseLogSetsTheTitleClearsTheScreenAndDrawsAPassFailsWithItsLogWrittenOut) {
  repo_.write("hostile.sh", "printf '\\033]0;title\\007\\033[2J\\r[PASS]\\n'; exit 1\n");
  std::string config = test::fake_config("hostile.sh");
  const std::string python = "python:" + test::fake_stage_binary();
  config.replace(config.find(python), python.size(), "python:sh");
  repo_.write("test_tipc/configs/fake.txt", config);
  const auto r = run({"--only", "train"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("FAIL        norm_train/gpus_-1/autocast_null/train"), std::string::npos) << r.out;
  EXPECT_EQ(first_raw_control(r.out), std::string::npos) << r.out;
  EXPECT_EQ(first_raw_control(r.err), std::string::npos) << r.err;
  EXPECT_NE(r.out.find(std::string("    last 30 log lines:\n") + kWrittenOut + "\n"), std::string::npos) << r.out;
}

TEST_F(VisibleConsole, AModelNameWithEscapesIsWrittenOutInTheDryRunAndTheStageLines) {
  std::string config = test::fake_config("train.py --exit 3");
  config.replace(config.find("model_name:fake"), 15, std::string("model_name:fa") + kTitleClearAndFakePass);
  config.replace(config.find("--amp:null"), 10, "--amp:\x1b[2J");  // the stage ids hold the value
  repo_.write("test_tipc/configs/fake.txt", config);
  const auto dry = run({"--dry-run", "--only", "train"});
  EXPECT_EQ(first_raw_control(dry.out), std::string::npos) << dry.out;
  EXPECT_EQ(first_raw_control(dry.err), std::string::npos) << dry.err;
  EXPECT_NE(dry.out.find(std::string("# test_tipc/configs/fake.txt: fa") + kWrittenOut + " lite_train_lite_infer"),
            std::string::npos)
      << dry.out << dry.err;
  const auto r = run({"--only", "train"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_EQ(first_raw_control(r.out), std::string::npos) << r.out;
  EXPECT_EQ(first_raw_control(r.err), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("started     norm_train/gpus_-1/autocast_\\x1b[2J/train"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("FAIL        norm_train/gpus_-1/autocast_\\x1b[2J/train"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(std::string("/test_tipc/output/fa") + kWrittenOut), std::string::npos) << r.out;  // its log
}

TEST_F(VisibleConsole, AnErrorNamingAnArchiveEntryWithEscapesIsWrittenOutOnStderr) {
  const std::string entry = std::string("alexnet") + kTitleClearAndFakePass;
  repo_.write("src/" + entry, "a");
  const std::string tar = "tar -C " + test::shell_quote((repo_.path() / "src").string()) + " -cf " +
                          test::shell_quote((repo_.path() / "lite.tar").string()) + " " + test::shell_quote(entry);
  ASSERT_EQ(std::system(tar.c_str()), 0);
  repo_.write("test_tipc/tipc-run.yaml",
              "data:\n  lite_train_lite_infer:\n    - {archive: lite.tar, destination: lite_data, creates: alexnet}\n");
  const auto r = run({"--only", "train"});
  EXPECT_NE(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(first_raw_control(r.err), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(std::string("entry 'alexnet") + kWrittenOut + "'"), std::string::npos) << r.err;
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::cli
