// The times file's record: it reads back as written; a missing file has no times; a damaged
// one or one of a newer tipc-run is an error naming the file.
#include "run/times_record.h"

#include <gtest/gtest.h>

#include "support/run_binary.h"
#include "support/temp_dir.h"

namespace tipc::run {
namespace {
namespace TIPC_TEST_FILE {

TEST(TimesRecord, ReadsBackAsWritten) {
  test::TempDir dir;
  const std::string path = (dir.path() / kTimesFileName).string();
  const TimesRecord written{kTimesVersion, {{"gpu/train", 12.5}, {"gpu/eval", 0}}};
  ASSERT_TRUE(write_times_file(path, written));
  const auto read = read_times_file(path);
  ASSERT_TRUE(read) << read.error().str();
  EXPECT_EQ(*read, written);
  EXPECT_EQ(test::slurp(path),
            "{\n  \"schema\": 1,\n  \"seconds\": {\n    \"gpu/eval\": 0.0,\n    \"gpu/train\": 12.5\n  }\n}\n");
}

TEST(TimesRecord, AMissingFileHasNoTimes) {
  test::TempDir dir;
  const auto read = read_times_file((dir.path() / kTimesFileName).string());
  ASSERT_TRUE(read) << read.error().str();
  EXPECT_TRUE(read->seconds.empty());
}

TEST(TimesRecord, ADamagedFileIsAnErrorNamingIt) {
  test::TempDir dir;
  for (const char* bad :
       {"{\"schema\": 1, \"seconds\": [", "{\"schema\": \"1\", \"seconds\": {}}", "[1]",
        "{\"schema\": 1, \"seconds\": {\"train\": \"1\"}}", "{\"schema\": 1, \"seconds\": {\"train\": -1}}"}) {
    const std::string path = dir.write("times.json", bad);
    const auto read = read_times_file(path);
    ASSERT_FALSE(read) << bad;
    EXPECT_NE(read.error().str().find(path), std::string::npos) << read.error().str();
  }
}

TEST(TimesRecord, AFileOfANewerTipcRunIsAnErrorNamingIt) {
  test::TempDir dir;
  const std::string path = dir.write("times.json", "{\"schema\": 2, \"seconds\": {}}");
  const auto read = read_times_file(path);
  ASSERT_FALSE(read);
  EXPECT_NE(read.error().str().find(path), std::string::npos) << read.error().str();
  EXPECT_NE(read.error().str().find("newer tipc-run (schema 2)"), std::string::npos) << read.error().str();
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::run
