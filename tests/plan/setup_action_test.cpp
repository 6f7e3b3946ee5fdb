// Housekeeping calls of the corpus's C++ and serving runners read into typed actions, and
// what is refused.
#include "plan/setup_action.h"

#include <gtest/gtest.h>

namespace tipc::plan {
namespace {
namespace TIPC_TEST_FILE {

using Words = std::vector<std::string>;

SetupAction parsed(const Words& argv, const std::string& cwd = ".") {
  auto action = parse_setup_action(argv, cwd);
  EXPECT_TRUE(action) << (action ? "" : action.error().str());
  return action.value_or(SetupAction{});
}

std::string error_of(const Words& argv, const std::string& cwd = ".") {
  auto action = parse_setup_action(argv, cwd);
  EXPECT_FALSE(action) << "parsed: " << argv[0];
  return action ? "" : action.error().str();
}

TEST(SetupAction, MakeDirWithAndWithoutParents) {
  const auto action = parsed({"mkdir", "build"}, "deploy/cpp_infer");
  EXPECT_EQ(action.kind, SetupKind::kMakeDir);
  EXPECT_EQ(action.cwd, "deploy/cpp_infer");
  EXPECT_EQ(action.writes, (Words{"deploy/cpp_infer/build"}));
  EXPECT_EQ(action.operands, (std::vector<std::size_t>{1}));
  const auto parents = parsed({"mkdir", "-p", "-m", "755", "a/b", "c"});
  EXPECT_EQ(parents.writes, (Words{"a/b", "c"}));
  EXPECT_EQ(parents.operands, (std::vector<std::size_t>{4, 5}));
}

TEST(SetupAction, RemoveOfTheOpenCvRunner) {
  const auto action = parsed({"rm", "-rf", "opencv-3.4.7.tar.gz", "opencv-3.4.7/"}, "deploy/cpp_infer");
  EXPECT_EQ(action.kind, SetupKind::kRemove);
  EXPECT_EQ(action.removes, (Words{"deploy/cpp_infer/opencv-3.4.7.tar.gz", "deploy/cpp_infer/opencv-3.4.7"}));
  EXPECT_TRUE(action.writes.empty());
  EXPECT_EQ(action.operands, (std::vector<std::size_t>{2, 3}));
  EXPECT_EQ(parsed({"rm", "-r", "-f", "--", "-odd"}).removes, (Words{"-odd"}));
}

TEST(SetupAction, CopyMoveAndLink) {
  const auto copy = parsed({"cp", "-r", "deploy/pdserving/serving_client_conf.prototxt", "client"});
  EXPECT_EQ(copy.kind, SetupKind::kCopy);
  EXPECT_EQ(copy.reads, (Words{"deploy/pdserving/serving_client_conf.prototxt"}));
  EXPECT_EQ(copy.writes, (Words{"client"}));
  EXPECT_TRUE(copy.removes.empty());
  EXPECT_EQ(parsed({"cp", "-t", "dir", "a", "b"}).writes, (Words{"dir"}));

  const auto move = parsed({"mv", "a", "b/c"}, "x");
  EXPECT_EQ(move.kind, SetupKind::kMove);
  EXPECT_EQ(move.removes, (Words{"x/a"}));
  EXPECT_EQ(move.writes, (Words{"x/b/c"}));

  // A symlink's target is read from the link's own directory.
  const auto link = parsed({"ln", "-s", "paddle_inference_install_dir", "paddle_inference"}, "deploy/cpp");
  EXPECT_EQ(link.kind, SetupKind::kLink);
  EXPECT_EQ(link.writes, (Words{"deploy/cpp/paddle_inference"}));
  EXPECT_EQ(link.reads, (Words{"deploy/cpp/paddle_inference_install_dir"}));
  EXPECT_EQ(parsed({"ln", "-s", "../a", "sub/b"}).reads, (Words{"a"}));
  EXPECT_EQ(parsed({"ln", "-s", "x/target"}).writes, (Words{"target"}));
}

TEST(SetupAction, WgetNoClobberWithTheOptionsItFetchesWith) {
  const auto action =
      parsed({"wget", "-nc", "https://host/2.3.0/cxx_c/paddle_inference.tgz", "--no-check-certificate"}, "deploy/cpp");
  EXPECT_EQ(action.kind, SetupKind::kDownload);
  EXPECT_EQ(action.url, "https://host/2.3.0/cxx_c/paddle_inference.tgz");
  EXPECT_EQ(action.output, "deploy/cpp/paddle_inference.tgz");
  EXPECT_EQ(action.writes, (Words{"deploy/cpp/paddle_inference.tgz"}));
  EXPECT_TRUE(action.no_clobber);
  EXPECT_EQ(action.tool_options, (Words{"--no-check-certificate"}));

  const auto plain = parsed({"wget", "https://paddleocr.bj.bcebos.com/dygraph_v2.0/test/opencv-3.4.7.tar.gz"});
  EXPECT_FALSE(plain.no_clobber);
  EXPECT_EQ(plain.output, "opencv-3.4.7.tar.gz");
  EXPECT_EQ(parsed({"wget", "-q", "-P", "dl", "https://h/a/b.zip?x=1"}).output, "dl/b.zip");
  EXPECT_EQ(parsed({"wget", "--output-document=m.tar", "https://h/x"}).output, "m.tar");
  EXPECT_EQ(parsed({"wget", "-Om.tar", "https://h/x", "--some-switch"}).output, "m.tar");
  EXPECT_EQ(parsed({"wget", "https://h"}).output, "index.html");
}

TEST(SetupAction, CurlNeedsAnOutputFile) {
  const auto action = parsed({"curl", "-sSL", "-o", "lib.tgz", "-H", "A: b", "https://h/x.tgz"});
  EXPECT_EQ(action.kind, SetupKind::kDownload);
  EXPECT_EQ(action.output, "lib.tgz");
  EXPECT_EQ(action.tool_options, (Words{"-H", "A: b"}));
  EXPECT_EQ(parsed({"curl", "-LO", "https://h/a/x.tgz"}, "d").output, "d/x.tgz");
  EXPECT_EQ(parsed({"curl", "--output", "y", "https://h/a/x.tgz"}).output, "y");
  EXPECT_NE(error_of({"curl", "-L", "https://h/x.tgz"}).find("standard output"), std::string::npos);
}

TEST(SetupAction, TarInEveryFormOfTheRunners) {
  for (const Words& argv : {Words{"tar", "zxf", "paddle_inference.tgz"}, Words{"tar", "-xf", "paddle_inference.tgz"},
                            Words{"tar", "xvf", "paddle_inference.tgz"}, Words{"tar", "-zxvf", "paddle_inference.tgz"},
                            Words{"tar", "--extract", "--file=paddle_inference.tgz"}}) {
    const auto action = parsed(argv, "deploy/cpp");
    EXPECT_EQ(action.kind, SetupKind::kExtract) << argv[1];
    EXPECT_EQ(action.archive, "deploy/cpp/paddle_inference.tgz") << argv[1];
    EXPECT_EQ(action.destination, "deploy/cpp") << argv[1];
    EXPECT_EQ(action.reads, (Words{"deploy/cpp/paddle_inference.tgz"}));
    EXPECT_EQ(action.writes, (Words{"deploy/cpp"}));
  }
  EXPECT_EQ(parsed({"tar", "-xf", "a.tar", "-C", "out"}, "d").destination, "d/out");
  EXPECT_EQ(parsed({"tar", "xfC", "a.tar", "out"}).destination, "out");
  EXPECT_EQ(parsed({"tar", "-C", "x", "-C", "y", "-xf", "a.tar"}).destination, "x/y");
}

TEST(SetupAction, TarThatDoesNotExtractIsAnError) {
  EXPECT_NE(error_of({"tar", "czf", "a.tgz", "dir"}).find("only extraction (x)"), std::string::npos);
  EXPECT_NE(error_of({"tar", "-x"}).find("no archive file"), std::string::npos);
  EXPECT_NE(error_of({"tar", "-xf", "a.tar", "member"}).find("chosen members ('member')"), std::string::npos);
  EXPECT_NE(error_of({"tar", "-xqf", "a.tar"}).find("unknown option '-q' in '-xqf'"), std::string::npos);
}

TEST(SetupAction, Unzip) {
  const auto action = parsed({"unzip", "-o", "-q", "models.zip", "-d", "out"}, "d");
  EXPECT_EQ(action.kind, SetupKind::kExtract);
  EXPECT_EQ(action.archive, "d/models.zip");
  EXPECT_EQ(action.destination, "d/out");
  EXPECT_EQ(parsed({"unzip", "-qq", "m.zip"}).destination, ".");
}

TEST(SetupAction, GitCloneOnly) {
  const auto action = parsed({"git", "clone", "https://github.com/facebookresearch/faiss.git"}, "deploy/cpp_shitu");
  EXPECT_EQ(action.kind, SetupKind::kClone);
  EXPECT_EQ(action.url, "https://github.com/facebookresearch/faiss.git");
  EXPECT_EQ(action.output, "deploy/cpp_shitu/faiss");
  EXPECT_EQ(action.writes, (Words{"deploy/cpp_shitu/faiss"}));
  const auto shallow = parsed({"git", "clone", "--depth", "1", "-b", "v1", "git@host:team/repo.git", "dest"});
  EXPECT_EQ(shallow.output, "dest");
  EXPECT_EQ(shallow.tool_options, (Words{"--depth", "1", "-b", "v1"}));
  EXPECT_EQ(parsed({"git", "clone", "git@host:repo.git"}).output, "repo");
  EXPECT_NE(error_of({"git", "pull"}).find("only 'git clone' is replayed, not 'git pull'"), std::string::npos);
}

TEST(SetupAction, UnreadableCallsNameTheWord) {
  EXPECT_NE(error_of({"mkdir", "--bogus", "x"}).find("unknown option '--bogus'"), std::string::npos);
  EXPECT_NE(error_of({"rm", "-rfZ", "x"}).find("unknown option '-Z' in '-rfZ'"), std::string::npos);
  EXPECT_NE(error_of({"rm", "-rf"}).find("no path to remove (in `rm -rf`)"), std::string::npos);
  EXPECT_NE(error_of({"cp", "a"}).find("missing operand"), std::string::npos);
  EXPECT_NE(error_of({"wget", "-O"}).find("option '-O' needs a value"), std::string::npos);
  EXPECT_NE(error_of({"wget", "-r", "https://h/"}).find("unknown option '-r'"), std::string::npos);
  EXPECT_NE(error_of({"wget", "--mirror", "https://h/"}).find("'--mirror' is not replayed"), std::string::npos);
  EXPECT_NE(error_of({"wget", "https://a/x", "https://b/y"}).find("one URL per call"), std::string::npos);
  EXPECT_NE(error_of({"make", "-j8"}).find("'make' is not a housekeeping program"), std::string::npos);
}

TEST(SetupAction, TheActionWordReadsBackAndKeepsQuoting) {
  const auto action = parsed({"wget", "-nc", "https://h/a b.tgz"}, "deploy/cpp");
  const std::string word = setup_action_word(action);
  EXPECT_EQ(word, "cd deploy/cpp && wget -nc 'https://h/a b.tgz'");
  const auto back = parse_setup_action_word(word);
  ASSERT_TRUE(back) << back.error().str();
  EXPECT_EQ(back->argv, action.argv);
  EXPECT_EQ(back->output, "deploy/cpp/a b.tgz");
  EXPECT_FALSE(parse_setup_action_word("mkdir x"));
  EXPECT_FALSE(parse_setup_action_word("cd . && mkdir x > log"));
}

TEST(SetupAction, RefusesWhatReachesOutsideTheRepository) {
  EXPECT_EQ(refusal(parsed({"rm", "-rf", "build"}, "deploy/cpp"), {}), std::nullopt);
  EXPECT_EQ(refusal(parsed({"rm", "-rf", "/usr/local/x"}), {}),
            "rm -rf /usr/local/x removes a path outside the repository and its output tree (/usr/local/x)");
  EXPECT_EQ(refusal(parsed({"rm", "-rf", "../../.."}, "deploy/cpp"), {}),
            "rm -rf ../../.. removes a path outside the repository and its output tree (..)");
  EXPECT_EQ(refusal(parsed({"rm", "-rf", ".."}, "deploy"), {}), "rm -rf .. removes the repository root");
  EXPECT_NE(refusal(parsed({"mv", "/etc/x", "here"}), {}), std::nullopt);  // moving removes the source
  EXPECT_NE(refusal(parsed({"cp", "a", "/etc/passwd"}), {}), std::nullopt);
  EXPECT_NE(refusal(parsed({"wget", "-P", "/opt", "https://h/a"}), {}), std::nullopt);
  EXPECT_NE(refusal(parsed({"tar", "xf", "a.tar", "-C", "/"}), {}), std::nullopt);
  EXPECT_NE(refusal(parsed({"git", "clone", "u", "/srv/u"}), {}), std::nullopt);
  EXPECT_EQ(refusal(parsed({"cp", "/etc/hosts", "here"}), {}), std::nullopt);  // reading outside is fine
}

TEST(SetupAction, AllowedRootsLetTheOutputTreeIn) {
  const auto action = parsed({"rm", "-rf", "/tmp/out/log"});
  EXPECT_EQ(refusal(action, {"/tmp/out"}), std::nullopt);
  EXPECT_NE(refusal(action, {"/tmp/ou"}), std::nullopt);  // a prefix of the name is not a parent
  EXPECT_EQ(refusal(parsed({"mkdir", "-p", "../out/x"}), {"../out"}), std::nullopt);
}

TEST(SetupAction, KindNames) {
  EXPECT_EQ(to_string(SetupKind::kMakeDir), "make_dir");
  EXPECT_EQ(to_string(SetupKind::kDownload), "download");
  EXPECT_EQ(to_string(SetupKind::kClone), "clone");
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::plan
