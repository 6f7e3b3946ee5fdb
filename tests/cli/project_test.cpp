// The project's dialect (cli/project): how it was chosen reaches the console and every report.
#include "cli/project.h"

#include <filesystem>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/fake_repo_run.h"

namespace tipc::cli {
namespace {
namespace TIPC_TEST_FILE {

class ProjectDialect : public test::FakeRepoTest {};

TEST_F(ProjectDialect, ADeclaredDialectAndItsLineAreShownInTheConsoleAndEveryReport) {
  repo_.write("test_tipc/tipc-run.yaml", "jobs: 1\ndialect: paddleocr\n");
  const auto r = run();
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const std::string source = "declared in test_tipc/tipc-run.yaml:2";
  EXPECT_EQ(r.out.find("tipc-run: dialect paddleocr (" + source + ")\n"), 0u) << "it heads the console\n" << r.out;
  const auto json = nlohmann::json::parse(test::slurp(output() / "report.json"));
  EXPECT_EQ(json["plans"][0]["dialect"], "paddleocr");
  EXPECT_EQ(json["plans"][0]["dialect_source"], source);
  EXPECT_TRUE(json["invalid_configs"].empty());
  EXPECT_NE(test::slurp(output() / "summary.md").find("Dialect `paddleocr` (" + source + ")"), std::string::npos);
  EXPECT_NE(test::slurp(output() / "report.html").find("dialect paddleocr <span class=\"muted\">(" + source + ")"),
            std::string::npos);
}

TEST_F(ProjectDialect, ADetectedDialectNamesItsMarkerInTheReports) {
  const auto r = run();
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const std::string source = "marker ppocr/ found in " + repo_.path().string();
  EXPECT_NE(r.out.find("tipc-run: dialect paddleocr (" + source + ")\n"), std::string::npos) << r.out;
  const auto json = nlohmann::json::parse(test::slurp(output() / "report.json"));
  EXPECT_EQ(json["plans"][0]["dialect_source"], source);
}

TEST(PrintDialectChoice, ADoubtIsAWarningOfItsOwn) {
  std::ostringstream out, warnings;
  print_dialect_choice({"template", "marker test_tipc/x.sh found in /r", "it rests on a weak marker"}, out, warnings);
  EXPECT_EQ(out.str(), "tipc-run: dialect template (marker test_tipc/x.sh found in /r)\n");
  EXPECT_EQ(warnings.str(), "tipc-run: warning: it rests on a weak marker\n");
  std::ostringstream quiet;
  print_dialect_choice({"paddleocr", "given by --dialect", ""}, out, quiet);
  EXPECT_EQ(quiet.str(), "");
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::cli
