// Variables passed into a trace (issue 38, item 6): the runner sees them, every call it
// starts carries them into the plan as the runner left them, they are part of the trace's
// cache key, and the names the trace's own machinery depends on are refused.
#include "trace/passed_env.h"

#include <gtest/gtest.h>

#include "support/fake_trace_repo.h"
#include "support/temp_dir.h"
#include "trace/tracer.h"

namespace tipc::trace {
namespace {
namespace TIPC_TEST_FILE {

// The runner refuses to start without $TEST_DIR, as the one of the issue does.
constexpr const char* kRunner = R"([ -n "$TEST_DIR" ] || { echo "TEST_DIR is not set" >&2; exit 3; }
python3.7 tools/train.py "--data=${TEST_DIR}/train"
unset TEST_DIR
python3.7 tools/infer.py
)";

TEST(PassedEnv, TheRunnerSeesThePassedVariableAndEachCallCarriesItAsTheRunnerLeftIt) {
  test::FakeTraceRepo repo(kRunner);
  const auto without = trace_runner(repo.request());
  ASSERT_FALSE(without);
  EXPECT_NE(without.error().str().find("TEST_DIR is not set"), std::string::npos) << without.error().str();

  auto request = repo.request();
  const std::string value = "/data/lite set $(touch expanded)";  // data: never evaluated
  request.passed_env = {{"TEST_DIR", value}};
  const auto trace = trace_runner(request);
  ASSERT_TRUE(trace) << trace.error().str();
  ASSERT_EQ(trace->calls.size(), 2u);
  EXPECT_EQ(trace->calls[0].args, (std::vector<std::string>{"tools/train.py", "--data=" + value + "/train"}));
  EXPECT_EQ(trace->calls[0].env.at("TEST_DIR"), value) << "the stage runs with the value traced";
  EXPECT_EQ(trace->calls[1].env.at("TEST_DIR"), std::nullopt) << "the runner unset it";
}

TEST(PassedEnv, TheCacheKeepsTracesOfOtherValuesApart) {
  test::FakeTraceRepo repo(kRunner);
  test::TempDir cache;
  auto request = repo.request();
  request.cache_dir = cache.path().string();
  request.passed_env = {{"TEST_DIR", "/a"}};
  const auto first = trace_runner(request);
  request.passed_env = {{"TEST_DIR", "/b"}};
  const auto second = trace_runner(request);
  ASSERT_TRUE(first && second);
  EXPECT_EQ(first->calls[0].args.back(), "--data=/a/train");
  EXPECT_EQ(second->calls[0].args.back(), "--data=/b/train") << "not the cached trace of /a";
}

TEST(PassedEnv, NamesTheTraceReliesOnAreRefusedAndNeverReachTheRunner) {
  for (const char* name :
       {"PATH", "HOME", "TMPDIR", "LC_ALL", "BASH_ENV", "BASHOPTS", "SHELLOPTS", "ENV", "POSIXLY_CORRECT",
        "TIPC_TRACE_CALLS", "TIPC_STAND_IN", "CUDA_VISIBLE_DEVICES", "", "1X", "A-B", "A=B", "BASH_FUNC_f%%"}) {
    EXPECT_TRUE(passed_variable_refusal(name)) << name;
  }
  for (const char* name : {"TEST_DIR", "_x", "FLAGS_use_mkldnn", "LD_LIBRARY_PATH", "PYTHONPATH"}) {
    EXPECT_FALSE(passed_variable_refusal(name)) << name;
  }
  test::FakeTraceRepo repo("python3.7 x.py\n");
  auto request = repo.request();
  request.passed_env = {{"TIPC_TRACE_CALLS", "/dev/null"}};
  const auto refused = trace_runner(request);
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().str().find("TIPC_TRACE_CALLS cannot be passed into the trace"), std::string::npos)
      << refused.error().str();
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::trace
