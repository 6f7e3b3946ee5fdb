// tipc-run as a user runs it: exit codes, messages, and a dry run that touches nothing.
#include <filesystem>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/fake_config.h"
#include "support/run_binary.h"

namespace tipc::cli {
namespace {
namespace TIPC_TEST_FILE {
namespace fs = std::filesystem;
using test::run_tipc;

class CliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    repo_.write(test::kPaddleOcrMarker, "");
    config_ = repo_.write("test_tipc/configs/alexnet.txt",
                          test::slurp(test::source_dir() + "/test_tipc/configs/alexnet.txt"));
  }
  std::string edit(const std::string& from, const std::string& to) {
    std::string text = test::slurp(config_);
    text.replace(text.find(from), from.size(), to);
    return repo_.write("test_tipc/configs/alexnet.txt", text);
  }
  std::vector<std::string> tree() const {
    std::vector<std::string> files;
    for (const auto& e : fs::recursive_directory_iterator(repo_.path())) files.push_back(e.path().string());
    std::sort(files.begin(), files.end());
    return files;
  }

  test::TempDir repo_;
  std::string config_;
};

TEST_F(CliTest, ADeletedLineExitsTwoWithFileAndLineAndStartsNothing) {
  edit("pact_train:null\n", "");
  const auto before = tree();
  const auto r = run_tipc(repo_.path(), {"test_tipc/configs/alexnet.txt", "lite_train_lite_infer"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("test_tipc/configs/alexnet.txt:17: line 17 seems to be missing: expected key 'pact_train'"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("found 'fpgm_train', which belongs on the next line"), std::string::npos) << r.err;
  EXPECT_EQ(tree(), before);
}

TEST_F(CliTest, AnUnknownModeExitsTwo) {
  const auto r = run_tipc(repo_.path(), {"test_tipc/configs/alexnet.txt", "lite_train_infer", "--dry-run"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("unknown mode 'lite_train_infer'"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty());
}

TEST_F(CliTest, ABinaryFileExitsTwo) {
  const std::string elf(
      "\x7f"
      "ELF\x02\x01\x01\0\0\0\0\0\0\0\0\0\x03\0>\0",
      20);
  repo_.write("test_tipc/configs/alexnet.txt", elf);
  const auto r = run_tipc(repo_.path(), {"test_tipc/configs/alexnet.txt", "lite_train_lite_infer"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("alexnet.txt:1: binary data (NUL byte); not a TIPC config"), std::string::npos) << r.err;
}

TEST_F(CliTest, AnEmptyOrMissingFileExitsTwo) {
  repo_.write("empty.txt", "");
  auto r = run_tipc(repo_.path(), {"empty.txt", "lite_train_lite_infer"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("empty.txt: the file is empty"), std::string::npos) << r.err;
  r = run_tipc(repo_.path(), {"missing.txt", "lite_train_lite_infer"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("missing.txt: cannot open the config file: No such file or directory"), std::string::npos)
      << r.err;
}

TEST_F(CliTest, DryRunJsonlPrintsOneObjectPerStageAndWritesNothing) {
  const auto before = tree();
  const auto r = run_tipc(repo_.path(),
                          {"test_tipc/configs/alexnet.txt", "lite_train_lite_infer", "--dry-run", "--format", "jsonl"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(tree(), before);
  std::istringstream lines(r.out);
  std::string line;
  int count = 0;
  std::set<std::string> kinds;
  while (std::getline(lines, line)) {
    const auto j = nlohmann::json::parse(line);
    for (const char* field : {"id", "kind", "argv", "cwd", "env", "log", "deps", "needs"}) {
      EXPECT_TRUE(j.contains(field)) << field << " in " << line;
    }
    EXPECT_EQ(j["argv"][0], "/usr/bin/python3");
    kinds.insert(j["kind"]);
    ++count;
  }
  EXPECT_EQ(count, 27);
  EXPECT_EQ(kinds, (std::set<std::string>{"train", "eval", "export", "infer"}));
}

TEST_F(CliTest, TheDialectIsDetectedFromTheRepositoryOrNamedAndTheConsoleSaysHow) {
  const std::vector<std::string> dry_run = {"test_tipc/configs/alexnet.txt", "lite_train_lite_infer", "--dry-run"};
  auto r = run_tipc(repo_.path(), dry_run);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("tipc-run: dialect paddleocr (marker ppocr/ found in " + repo_.path().string() + ")\n"),
            std::string::npos)
      << r.err;
  fs::remove_all(repo_.path() / "ppocr");
  repo_.write("ppcls/__init__.py", "");
  r = run_tipc(repo_.path(), dry_run);
  // The demo config's line 34 is not named kl_quant as in PaddleClas, but its structure fits: a note.
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("tipc-run: dialect paddleclas (marker ppcls/ found in "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("tipc-run: warning: test_tipc/configs/alexnet.txt:34: expected key 'kl_quant', found 'export1'"),
            std::string::npos)
      << r.err;
  auto named = dry_run;
  named.insert(named.end(), {"--dialect", "paddleocr"});
  r = run_tipc(repo_.path(), named);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("(dialect paddleocr)"), std::string::npos);
  EXPECT_NE(r.err.find("tipc-run: dialect paddleocr (given by --dialect)"), std::string::npos) << r.err;
  r = run_tipc(repo_.path(), {"test_tipc/configs/alexnet.txt", "lite_train_lite_infer", "--dialect", "nope"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("unknown dialect 'nope'"), std::string::npos);
}

TEST_F(CliTest, WithoutAMarkerNothingIsGuessedTheErrorNamesTheCandidatesAndDialectWorks) {
  fs::remove_all(repo_.path() / "ppocr");
  const auto before = tree();
  auto r = run_tipc(repo_.path(), {"test_tipc/configs/alexnet.txt", "lite_train_lite_infer"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_NE(r.err.find("tipc-run: error: " + repo_.path().string() + ": no dialect marker found"), std::string::npos)
      << r.err;
  for (const char* candidate :
       {"paddleclas       ppcls", "paddledetection  ppdet", "paddlegan        ppgan",
        "paddleocr        ppocr, tools/infer/predict_det.py", "paddleseg        paddleseg",
        "paddlevideo      paddlevideo", "template         test_tipc/test_train_inference_python.sh", "--dialect NAME",
        "`dialect: NAME` in test_tipc/tipc-run.yaml"}) {
    EXPECT_NE(r.err.find(candidate), std::string::npos) << candidate << " in " << r.err;
  }
  EXPECT_EQ(tree(), before);
  r = run_tipc(repo_.path(),
               {"test_tipc/configs/alexnet.txt", "lite_train_lite_infer", "--dry-run", "--dialect", "paddleocr"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

TEST_F(CliTest, ADialectDeclaredInTheSettingsNamesItsLine) {
  repo_.write("test_tipc/tipc-run.yaml", "# settings\njobs: 1\ndialect: paddleocr\n");
  auto r = run_tipc(repo_.path(), {"test_tipc/configs/alexnet.txt", "lite_train_lite_infer", "--dry-run"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("tipc-run: dialect paddleocr (declared in test_tipc/tipc-run.yaml:3)\n"), std::string::npos)
      << r.err;
  repo_.write("test_tipc/tipc-run.yaml", "dialect: paddlefoo\n");
  r = run_tipc(repo_.path(), {"test_tipc/configs/alexnet.txt", "lite_train_lite_infer", "--dry-run"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("unknown dialect 'paddlefoo'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("(declared in test_tipc/tipc-run.yaml:1)"), std::string::npos) << r.err;
}

TEST_F(CliTest, UsageErrorsExitTwoAndHelpExitsZero) {
  EXPECT_EQ(run_tipc(repo_.path(), {}).exit_code, 2);
  EXPECT_EQ(run_tipc(repo_.path(), {"a.txt", "m", "--no-such-flag"}).exit_code, 2);
  EXPECT_EQ(run_tipc(repo_.path(), {"a.txt", "m", "--format", "xml"}).exit_code, 2);
  const auto partition = run_tipc(repo_.path(), {"a.txt", "m", "--partition", "gpu"});
  EXPECT_EQ(partition.exit_code, 2);
  EXPECT_NE(partition.err.find("apply to --executor slurm only"), std::string::npos) << partition.err;
  const auto gpus = run_tipc(repo_.path(), {"a.txt", "m", "--executor", "slurm", "--gpus", "0"});
  EXPECT_EQ(gpus.exit_code, 2);
  EXPECT_NE(gpus.err.find("the cluster (--executor slurm) allocates the GPUs"), std::string::npos) << gpus.err;
  EXPECT_EQ(run_tipc(repo_.path(), {"a.txt", "m", "--executor", "kubernetes"}).exit_code, 2);
  const auto help = run_tipc(repo_.path(), {"--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.out.find("--dry-run"), std::string::npos);
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::cli

namespace tipc::cli {
namespace {
namespace TIPC_TEST_FILE {

TEST(CliDiff, TheDiffSubcommandComparesReprodLogFiles) {
  const std::string samples = test::shared_dir() + "/align-samples";
  if (!fs::exists(samples)) GTEST_SKIP() << "ALIGN SAMPLES NOT CHECKED: " << samples << " is missing";
  test::TempDir dir;
  const auto same = run_tipc(dir.path(), {"diff", samples + "/alexnet_top1.npy", samples + "/alexnet_top1.npy"});
  EXPECT_EQ(same.exit_code, 0) << same.err;
  EXPECT_NE(same.out.find("diff check passed"), std::string::npos) << same.out;
  const auto missing = run_tipc(dir.path(), {"diff", samples + "/alexnet_top1.npy", "nope.npy"});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("nope.npy"), std::string::npos) << missing.err;
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::cli
