// `tipc-run setup`, run as a plan's setup stage runs it: from a scratch repository root,
// with the download cache in a scratch directory and a fake wget (no network) on the PATH.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <thread>

#include "support/run_binary.h"
#include "support/scoped_env.h"
#include "support/temp_dir.h"

namespace tipc::test {
namespace {
namespace TIPC_TEST_FILE {

namespace fs = std::filesystem;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

class SetupCommand : public ::testing::Test {
 protected:
  TempDir repo_, cache_, tools_, served_;

  void SetUp() override {
    // wget as the cache calls it (--no-verbose [options] -O FILE URL), for file:// URLs;
    // each call is logged, so a test can tell a cache hit from a download.
    install_tool(
        "wget",
        "while [ \"$1\" != -O ]; do shift; done\n"
        "echo \"$3\" >> " +
            calls_file() +
            "\n"
            "cp \"${3#file://}\" \"$2\" 2>/dev/null || { echo \"$3:\"; echo 'ERROR 404: Not Found.'; exit 8; }\n");
  }

  std::string calls_file() const { return (tools_.path() / "calls").string(); }
  std::string calls() const { return slurp(calls_file()); }

  void install_tool(const std::string& name, const std::string& body) const {
    const std::string path = tools_.write("bin/" + name, "#!/bin/sh\n" + body);
    ::chmod(path.c_str(), 0755);
  }

  RunResult setup(const std::vector<std::string>& actions, std::vector<std::string> options = {}) const {
    options.insert(options.begin(), "setup");
    options.push_back("--");
    options.insert(options.end(), actions.begin(), actions.end());
    const char* path = std::getenv("PATH");
    return run_tipc(repo_.path().string(), options,
                    {"TIPC_DOWNLOAD_CACHE=" + cache_.path().string(),
                     "PATH=" + (tools_.path() / "bin").string() + ":" + (path ? path : "/usr/bin:/bin")});
  }

  // A gzipped tar in the served directory holding paddle_inference/include/api.h.
  std::string served_library() const {
    served_.write("tree/paddle_inference/include/api.h", "// api\n");
    const std::string command = "tar czf " + shell_quote((served_.path() / "paddle_inference.tgz").string()) + " -C " +
                                shell_quote((served_.path() / "tree").string()) + " paddle_inference";
    EXPECT_EQ(std::system(command.c_str()), 0);
    return "file://" + (served_.path() / "paddle_inference.tgz").string();
  }

  fs::path in_repo(const std::string& path) const { return repo_.path() / path; }
};

TEST_F(SetupCommand, TheCppRunnersHousekeepingRunsInOrderAndIsNotRepeated) {
  const std::string url = served_library();
  const std::vector<std::string> actions{"cd . && mkdir -p deploy/cpp",
                                         "cd deploy/cpp && wget -nc " + url + " --no-check-certificate",
                                         "cd deploy/cpp && tar zxf paddle_inference.tgz",
                                         "cd deploy/cpp && ln -s paddle_inference paddle_link",
                                         "cd deploy/cpp && cp -r paddle_link/include include_copy",
                                         "cd deploy/cpp && rm -rf build",
                                         "cd deploy/cpp && mkdir build"};
  const auto first = setup(actions);
  ASSERT_EQ(first.exit_code, 0) << first.out << first.err;
  EXPECT_TRUE(contains(first.out,
                       "+ cd deploy/cpp && tar zxf paddle_inference.tgz\nunpacked "
                       "deploy/cpp/paddle_inference.tgz into deploy/cpp ("))
      << first.out;
  EXPECT_TRUE(contains(first.out, "downloaded " + url + " -> deploy/cpp/paddle_inference.tgz\n")) << first.out;
  EXPECT_EQ(slurp(in_repo("deploy/cpp/include_copy/api.h").string()), "// api\n");
  EXPECT_TRUE(fs::is_directory(in_repo("deploy/cpp/build")));
  EXPECT_TRUE(contains(first.out, "+ cd deploy/cpp && rm -rf build\nnothing to remove: deploy/cpp/build\n"))
      << first.out;
  EXPECT_EQ(calls(), url + "\n");

  const auto second = setup(actions);
  ASSERT_EQ(second.exit_code, 0) << second.out << second.err;
  EXPECT_TRUE(contains(second.out, "already there: deploy/cpp/paddle_inference.tgz (wget -nc)\n")) << second.out;
  EXPECT_TRUE(contains(second.out,
                       "already unpacked: deploy/cpp/paddle_inference.tgz (stamp "
                       "deploy/cpp/.paddle_inference.tgz.tipc-stamp)\n"))
      << second.out;
  EXPECT_TRUE(contains(second.out, "already there: deploy/cpp/paddle_link -> paddle_inference\n")) << second.out;
  EXPECT_TRUE(contains(second.out, "+ cd deploy/cpp && rm -rf build\nremoved deploy/cpp/build\n")) << second.out;
  EXPECT_EQ(calls(), url + "\n");
}

TEST_F(SetupCommand, ACacheHitNeedsNoNetworkAndOfflineRefusesAMiss) {
  const std::string url = served_library();
  ASSERT_EQ(setup({"cd . && wget " + url}).exit_code, 0);
  fs::remove(in_repo("paddle_inference.tgz"));
  fs::remove(served_.path() / "paddle_inference.tgz");
  const auto hit = setup({"cd . && curl -L -o lib.tgz " + url}, {"--offline"});
  ASSERT_EQ(hit.exit_code, 0) << hit.out << hit.err;
  EXPECT_TRUE(contains(hit.out, "from the download cache: " + url + " -> lib.tgz\n")) << hit.out;
  EXPECT_TRUE(fs::is_regular_file(in_repo("lib.tgz")));
  EXPECT_EQ(calls(), url + "\n");
  const auto again = setup({"cd . && curl -L -o lib.tgz " + url}, {"--offline"});
  EXPECT_TRUE(contains(again.out, "already there: lib.tgz (the bytes of " + url + " in the download cache)\n"))
      << again.out;

  const auto miss = setup({"cd . && wget https://example.invalid/opencv.tgz", "cd . && mkdir after"}, {"--offline"});
  EXPECT_EQ(miss.exit_code, 1);
  EXPECT_TRUE(contains(
      miss.err, "--offline: https://example.invalid/opencv.tgz is not in the download cache " + cache_.path().string()))
      << miss.err;
  EXPECT_FALSE(contains(miss.out, "mkdir after")) << miss.out;
  EXPECT_FALSE(fs::exists(in_repo("after")));
}

// No HOME, no XDG_CACHE_HOME (core/locations.h: no cache kept between runs): the download
// goes through a cache made for this setup in $TMPDIR and removed after it, never ./.cache.
TEST_F(SetupCommand, WithoutAHomeADownloadGoesThroughAThrowAwayCache) {
  const std::string url = served_library();
  TempDir tmp;
  const char* path = std::getenv("PATH");
  const auto result =
      run_tipc(repo_.path().string(), {"setup", "--", "cd . && wget " + url},
               {"-u", "HOME", "-u", "XDG_CACHE_HOME", "-u", "TIPC_DOWNLOAD_CACHE", "TMPDIR=" + tmp.path().string(),
                "PATH=" + (tools_.path() / "bin").string() + ":" + (path ? path : "/usr/bin:/bin")});
  ASSERT_EQ(result.exit_code, 0) << result.out << result.err;
  EXPECT_TRUE(contains(result.out, "downloaded " + url + " -> paddle_inference.tgz")) << result.out;
  EXPECT_TRUE(fs::is_regular_file(in_repo("paddle_inference.tgz")));
  EXPECT_FALSE(fs::exists(in_repo(".cache")));
  EXPECT_TRUE(fs::is_empty(tmp.path())) << "the throw-away cache is removed";
}

TEST_F(SetupCommand, AFailedDownloadStopsTheSetupAndCachesNothing) {
  const std::string url = "file://" + (served_.path() / "missing.tgz").string();
  const auto result = setup({"cd . && wget -nc " + url, "cd . && tar xf missing.tgz"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_TRUE(contains(result.err, "cannot download " + url + ": ERROR 404: Not Found.")) << result.err;
  EXPECT_FALSE(contains(result.out, "tar xf")) << result.out;
  EXPECT_TRUE(fs::is_empty(cache_.path()));
  EXPECT_FALSE(fs::exists(in_repo("missing.tgz")));
}

TEST_F(SetupCommand, RefusesPathsOutsideTheRepositoryAlsoThroughSymlinks) {
  TempDir victim;
  victim.write("precious", "x");
  fs::create_directory_symlink(victim.path(), in_repo("build"));
  for (const std::string action :
       {"cd . && rm -rf build/", "cd . && rm -rf build/precious", "cd . && mkdir -p build/x"}) {
    const auto result = setup({action});
    EXPECT_EQ(result.exit_code, 1) << action;
    EXPECT_TRUE(contains(result.err, "refused: ")) << result.err;
    EXPECT_TRUE(contains(result.err, "once its symlinks are followed")) << result.err;
  }
  const auto absolute = setup({"cd . && rm -rf " + (victim.path() / "precious").string()});
  EXPECT_EQ(absolute.exit_code, 1);
  EXPECT_TRUE(contains(absolute.err, "removes a path outside the repository and its output tree")) << absolute.err;
  EXPECT_TRUE(fs::exists(victim.path() / "precious"));

  const auto allowed =
      setup({"cd . && mkdir -p " + (victim.path() / "out").string()}, {"--allow", victim.path().string()});
  EXPECT_EQ(allowed.exit_code, 0) << allowed.err;
  EXPECT_TRUE(fs::is_directory(victim.path() / "out"));
}

// rm removes a symlink, never what it points at (`rm -rf build/` would, and is refused above).
TEST_F(SetupCommand, RemovingASymlinkThatPointsOutsideRemovesTheLinkOnly) {
  TempDir victim;
  victim.write("precious", "x");
  fs::create_directory_symlink(victim.path(), in_repo("build"));
  fs::create_directories(in_repo("deploy"));
  fs::create_symlink(victim.path() / "precious", in_repo("deploy/model"));
  const auto result = setup({"cd . && rm -rf build", "cd deploy && rm -f model"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_FALSE(fs::exists(fs::symlink_status(in_repo("build"))));
  EXPECT_FALSE(fs::exists(fs::symlink_status(in_repo("deploy/model"))));
  EXPECT_EQ(slurp((victim.path() / "precious").string()), "x");
}

TEST_F(SetupCommand, ABuildDirectoryNewerThanItsSourcesIsKept) {
  repo_.write("deploy/cpp/src/main.cc", "int main() {}\n");
  repo_.write("deploy/cpp/build/CMakeCache.txt", "cache\n");
  repo_.write("deploy/cpp/build/main", "binary\n");
  const auto old = fs::last_write_time(in_repo("deploy/cpp/build/main")) - std::chrono::hours(1);
  fs::last_write_time(in_repo("deploy/cpp/src/main.cc"), old);
  fs::last_write_time(in_repo("deploy/cpp/build/CMakeCache.txt"), old);
  const std::vector<std::string> actions{"cd deploy/cpp && rm -rf build", "cd deploy/cpp && mkdir build"};
  const auto kept = setup(actions);
  ASSERT_EQ(kept.exit_code, 0) << kept.err;
  EXPECT_TRUE(contains(kept.out,
                       "kept deploy/cpp/build: up to date with its sources (newest build file "
                       "deploy/cpp/build/main, newest source deploy/cpp/src/main.cc)\n"))
      << kept.out;
  EXPECT_TRUE(contains(kept.out, "already there: deploy/cpp/build\n")) << kept.out;
  EXPECT_TRUE(fs::exists(in_repo("deploy/cpp/build/main")));

  fs::last_write_time(in_repo("deploy/cpp/src/main.cc"),
                      fs::last_write_time(in_repo("deploy/cpp/build/main")) + std::chrono::seconds(1));
  const auto rebuilt = setup(actions);
  ASSERT_EQ(rebuilt.exit_code, 0) << rebuilt.err;
  EXPECT_TRUE(contains(rebuilt.out, "removed deploy/cpp/build\n")) << rebuilt.out;
  EXPECT_TRUE(contains(rebuilt.out, "made deploy/cpp/build\n")) << rebuilt.out;
  EXPECT_FALSE(fs::exists(in_repo("deploy/cpp/build/main")));
}

TEST_F(SetupCommand, CloneGoesThroughAMirrorAndIsNotRepeated) {
  const std::string origin = (served_.path() / "faiss").string();
  const std::string make = "git init -q " + shell_quote(origin) + " && cd " + shell_quote(origin) +
                           " && echo x > f && git add f && git -c user.name=t -c user.email=t@t commit -qm one";
  ASSERT_EQ(std::system(make.c_str()), 0);
  const std::string url = "file://" + origin;
  const auto first = setup({"cd . && git clone " + url});
  ASSERT_EQ(first.exit_code, 0) << first.out << first.err;
  EXPECT_TRUE(contains(first.out, "cloned " + url + " into faiss (through the mirror ")) << first.out;
  EXPECT_EQ(slurp(in_repo("faiss/f").string()), "x\n");
  EXPECT_EQ(std::system(("test \"$(git -C " + shell_quote(in_repo("faiss").string()) +
                         " remote get-url origin)\" = " + shell_quote(url))
                            .c_str()),
            0);
  const auto second = setup({"cd . && git clone " + url});
  EXPECT_TRUE(contains(second.out, "skipped: faiss is already a git checkout\n")) << second.out;

  fs::remove_all(in_repo("faiss"));
  fs::remove_all(origin);  // the mirror is enough, offline too
  const auto offline = setup({"cd . && git clone " + url}, {"--offline"});
  ASSERT_EQ(offline.exit_code, 0) << offline.out << offline.err;
  EXPECT_EQ(slurp(in_repo("faiss/f").string()), "x\n");
  const auto no_mirror = setup({"cd . && git clone https://example.invalid/other.git"}, {"--offline"});
  EXPECT_EQ(no_mirror.exit_code, 1);
  EXPECT_TRUE(contains(no_mirror.err, "--offline: https://example.invalid/other.git has no mirror")) << no_mirror.err;
}

TEST_F(SetupCommand, UsageErrorsRunNothing) {
  EXPECT_EQ(setup({}).exit_code, 2);
  const auto unknown = setup({"cd . && mkdir first", "cd . && tar -xqf a.tar"});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_TRUE(contains(unknown.err, "unknown option '-q' in '-xqf'")) << unknown.err;
  EXPECT_FALSE(fs::exists(in_repo("first")));
  const auto not_a_word = setup({"mkdir x"});
  EXPECT_EQ(not_a_word.exit_code, 2);
  EXPECT_TRUE(contains(not_a_word.err, "a setup action is 'cd DIR && PROGRAM ARG...'")) << not_a_word.err;
}

// Alive and not a zombie.
bool alive(pid_t pid) {
  const std::string stat = slurp("/proc/" + std::to_string(pid) + "/stat");
  const std::size_t state = stat.rfind(')');
  return state != std::string::npos && state + 2 < stat.size() && stat[state + 2] != 'Z';
}

// The tool runs in a process group of its own; the SIGTERM that stops the setup stage's
// group reaches it all the same.
TEST_F(SetupCommand, ATerminatedSetupTakesItsRunningDownloadWithIt) {
  const std::string pid_file = (tools_.path() / "wget.pid").string();
  install_tool("wget", "echo $$ > " + pid_file + ".tmp && mv " + pid_file + ".tmp " + pid_file + "\nexec sleep 30\n");
  const char* path = std::getenv("PATH");
  const ScopedEnv cache("TIPC_DOWNLOAD_CACHE", cache_.path().string());
  const ScopedEnv tools("PATH", (tools_.path() / "bin").string() + ":" + (path ? path : "/usr/bin:/bin"));
  const pid_t setup_pid = start_tipc(repo_.path().string(), {"setup", "--", "cd . && wget https://h/big.tgz"});
  for (int i = 0; i < 500 && !fs::exists(pid_file); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  ASSERT_TRUE(fs::exists(pid_file));
  const pid_t wget_pid = std::stoi(slurp(pid_file));
  ASSERT_TRUE(alive(wget_pid));
  ASSERT_EQ(::kill(setup_pid, SIGTERM), 0);
  int status = 0;
  ASSERT_EQ(::waitpid(setup_pid, &status, 0), setup_pid);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM) << status;
  for (int i = 0; i < 200 && alive(wget_pid); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_FALSE(alive(wget_pid));
  EXPECT_FALSE(fs::exists(in_repo("big.tgz")));
}

TEST_F(SetupCommand, AMissingDirectoryIsAClearFailure) {
  const auto result = setup({"cd deploy/cpp && mkdir build"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_TRUE(contains(result.err, "the directory deploy/cpp does not exist")) << result.err;
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::test
