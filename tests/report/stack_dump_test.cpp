// A timed-out stage's first frames where it hung, read from the stacks tipc-run wrote into its log.
#include "report/stack_dump.h"

#include <gtest/gtest.h>

#include <string>

#include <fmt/format.h>

#include "run/stack_dump.h"
#include "support/temp_dir.h"

namespace tipc::report {
namespace {
namespace TIPC_TEST_FILE {

using Frames = std::vector<std::string>;

const std::string kMarker = std::string(run::kStackDumpMarker) + "\n";

// What faulthandler prints on SIGABRT for a process with a worker thread and a hung main thread.
const std::string kPythonDump =
    "Fatal Python error: Aborted\n"
    "\n"
    "Thread 0x00007f4b6a1fc640 (most recent call first):\n"
    "  File \"/usr/lib/python3.11/threading.py\", line 320 in wait\n"
    "  File \"worker.py\", line 12 in loop\n"
    "\n"
    "Current thread 0x00007f4b6b3c8740 (most recent call first):\n"
    "  File \"/repo/hang.py\", line 5 in spin\n"
    "  File \"/repo/hang.py\", line 9 in <module>\n"
    "\n"
    "Extension modules: numpy.core._multiarray_umath (total: 1)\n";

// eu-stack's output for a two-threaded process 1234, its worker thread listed first.
const std::string kEuStack =
    "tipc-run: native stack of pid 1234 (python3 hang.py) from eu-stack:\n"
    "PID 1234 - process\n"
    "TID 1240:\n"
    "#0  0x00007f2a1c0a1234 __futex_abstimed_wait_common\n"
    "#1  0x00007f2a1c0a5678 pthread_cond_wait\n"
    "TID 1234:\n"
    "#0  0x00007f2a1c0e4d3f __select\n"
    "#1  0x000055d4c0a01234 time_sleep\n"
    "#2  0x000055d4c0a05678 _PyEval_EvalFrameDefault\n";

TEST(StackFrames, TheCurrentThreadOfAFaulthandlerDumpWithSeveralThreads) {
  EXPECT_EQ(first_stack_frames("step 1\n" + kMarker + kEuStack + kPythonDump),
            (Frames{"hang.py:5 in spin", "hang.py:9 in <module>"}));
}

// A current thread in C code has no Python frame: the first thread that has one stands for it.
TEST(StackFrames, ACurrentThreadWithOnlyNativeFramesGivesWayToTheFirstThreadWithPythonFrames) {
  const std::string dump =
      "Fatal Python error: Aborted\n\n"
      "Thread 0x00007f4b6a1fc640 (most recent call first):\n"
      "  <no Python frame>\n\n"
      "Thread 0x00007f4b6a9fd640 (most recent call first):\n"
      "  File \"/repo/loader.py\", line 40 in fetch\n\n"
      "Current thread 0x00007f4b6b3c8740 (most recent call first):\n"
      "  <no Python frame>\n";
  EXPECT_EQ(first_stack_frames(kMarker + dump), (Frames{"loader.py:40 in fetch"}));
}

TEST(StackFrames, WithoutAPythonDumpTheNativeFramesOfTheMainThread) {
  EXPECT_EQ(first_stack_frames(kMarker + kEuStack), (Frames{"__select", "time_sleep", "_PyEval_EvalFrameDefault"}));
  // gdb lists the main thread last; an address without a name stands for the frame.
  const std::string gdb =
      "tipc-run: native stack of pid 77 (infer) from gdb:\n"
      "Thread 2 (Thread 0x7f0000001700 (LWP 78) \"infer\"):\n"
      "#0  0x00007f0000a1 in __futex_abstimed_wait_common () from /lib/x86_64-linux-gnu/libc.so.6\n"
      "Thread 1 (Thread 0x7f0000000740 (LWP 77) \"infer\"):\n"
      "#0  0x00007f0000b2 in __GI___clock_nanosleep (clock_id=0) at ../sysdeps/nanosleep.c:78\n"
      "#1  spin (n=3) at hang.c:5\n"
      "#2  0x000055550000c3 in main () at hang.c:12\n"
      "#3  0x000055550000d4\n";
  EXPECT_EQ(first_stack_frames(kMarker + gdb), (Frames{"__GI___clock_nanosleep", "spin", "main", "0x000055550000d4"}));
}

// The first process whose tool gave frames: eu-stack could not attach to the launcher.
TEST(StackFrames, ANativeStackWithoutFramesGivesWayToTheNextProcesses) {
  const std::string failed =
      "tipc-run: native stack of pid 1200 (bash) from eu-stack:\n"
      "eu-stack: dwfl_linux_proc_attach: Operation not permitted\n";
  EXPECT_EQ(first_stack_frames(kMarker + failed + kEuStack).front(), "__select");
}

TEST(StackFrames, ATruncatedDumpKeepsItsWholeFrameLinesOnly) {
  const std::string cut =
      "Fatal Python error: Aborted\n\n"
      "Current thread 0x00007f4b6b3c8740 (most recent call first):\n"
      "  File \"/repo/hang.py\", line 5 in spin\n"
      "  File \"/repo/hang.py\", line 9 in <mo";  // killed mid-line
  EXPECT_EQ(first_stack_frames(kMarker + cut), (Frames{"hang.py:5 in spin"}));
  // Cut before its first frame: the native frames written before it stand for it.
  const std::string no_frame = "Fatal Python error: Aborted\n\nCurrent thread 0x00007f4b6b3c8740 (most";
  EXPECT_EQ(first_stack_frames(kMarker + kEuStack + no_frame),
            (Frames{"__select", "time_sleep", "_PyEval_EvalFrameDefault"}));
}

TEST(StackFrames, AtMostFiveFramesMostRecentFirstAndOnlyTheFirstDump) {
  std::string deep = "Fatal Python error: Aborted\n\nCurrent thread 0x1 (most recent call first):\n";
  for (int i = 1; i <= 8; ++i) deep += fmt::format("  File \"/repo/r.py\", line {0} in f{0}\n", i);
  const std::string other =
      "Fatal Python error: Aborted\n\nCurrent thread 0x2 (most recent call first):\n  File \"b.py\", line 1 in b\n";
  EXPECT_EQ(first_stack_frames(kMarker + deep + other),
            (Frames{"r.py:1 in f1", "r.py:2 in f2", "r.py:3 in f3", "r.py:4 in f4", "r.py:5 in f5"}));
}

TEST(StackFrames, OnlyWhatFollowsTheLastMarkerCounts) {
  EXPECT_TRUE(first_stack_frames(kPythonDump).empty());  // a crash of its own, no timeout
  EXPECT_TRUE(first_stack_frames(kPythonDump + kMarker).empty());
  EXPECT_TRUE(first_stack_frames("").empty());
  // "Stack" is faulthandler's header when it dumps the current thread alone.
  EXPECT_EQ(first_stack_frames(kMarker + "Stack (most recent call first):\n  File \"a.py\", line 3 in run\n"),
            (Frames{"a.py:3 in run"}));
}

// A log is hostile: the frames are its text, cut, and every report escapes them.
TEST(StackFrames, AHostileFrameIsKeptAsTextAndCut) {
  const std::string hostile = "  File \"/x/<img src=x onerror=alert(1)>.py\", line 7 in \x1b]0;title\x07<b>f</b>\n";
  const std::string long_name = "  File \"a.py\", line 1 in " + std::string(1000, 'x') + "\n";
  const Frames frames =
      first_stack_frames(kMarker + "Current thread 0x1 (most recent call first):\n" + hostile + long_name);
  ASSERT_EQ(frames.size(), 2u);
  EXPECT_EQ(frames[0], "<img src=x onerror=alert(1)>.py:7 in \x1b]0;title\x07<b>f</b>");
  EXPECT_EQ(frames[1], "a.py:1 in " + std::string(kStackFrameMaxBytes - 10, 'x') + "...");
  // Not frames: a line that only looks like one.
  EXPECT_TRUE(
      first_stack_frames(kMarker + "Current thread 0x1 (most recent call first):\n  File \"a.py\", line x in f\n")
          .empty());
}

TEST(StackFrames, AFileIsReadFromItsTailOnly) {
  test::TempDir dir;
  const std::string near_end = dir.write("near.log", std::string(kStackDumpWindow, '.') + "\n" + kMarker + kPythonDump);
  EXPECT_EQ(first_stack_frames_of_file(near_end).front(), "hang.py:5 in spin");
  // The marker beyond the window: the stacks are not looked for in the whole log.
  const std::string far = dir.write("far.log", kMarker + kPythonDump + std::string(kStackDumpWindow, '.') + "\n");
  EXPECT_TRUE(first_stack_frames_of_file(far).empty());
  EXPECT_TRUE(first_stack_frames_of_file((dir.path() / "missing.log").string()).empty());
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::report
