// The worker supervisor against small /bin/sh children (no GPU): a child that answers, crashes,
// hangs, exits early, never says hello, or cannot be executed. Each failure kills the child's
// whole process group, reaps it, says why, and the next start gives a fresh child.
#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "tune/worker_process.hpp"

namespace gemmforge::tune {
namespace {

std::vector<std::string> sh(const std::string& script) { return {"/bin/sh", "-c", script}; }

std::string death(WorkerProcess& w, const std::string& line, double timeout_s) {
  try {
    w.request(line, timeout_s);
  } catch (const WorkerDied& e) {
    return e.what();
  }
  return "still alive";
}

// Processes of the group that are still running (zombies waiting for a reaper do not count).
int live_members(pid_t pgid) {
  int n = 0;
  for (const auto& e : std::filesystem::directory_iterator("/proc")) {
    std::ifstream stat(e.path() / "stat");
    std::string text;
    if (!stat || !std::getline(stat, text)) continue;
    const auto close = text.rfind(')');  // the command name may hold spaces and parentheses
    if (close == std::string::npos) continue;
    std::istringstream rest(text.substr(close + 2));
    char state = 0;
    long ppid = 0, pgrp = 0;
    rest >> state >> ppid >> pgrp;
    if (pgrp == pgid && state != 'Z' && state != 'X') ++n;
  }
  return n;
}

// SIGKILL is delivered asynchronously: wait for the group to empty (a bounded wait, no timing
// claim: the test fails only if members are still alive after it).
bool group_gone(pid_t pgid) {
  for (int i = 0; i < 500; ++i) {
    if (live_members(pgid) == 0) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

TEST(WorkerProcess, AnswersOneLinePerRequest) {
  WorkerProcess w(sh("echo hello; while read line; do echo \"got $line\"; done"));
  EXPECT_EQ(w.start(10), "hello");
  EXPECT_EQ(w.request("one", 10), "got one");
  EXPECT_EQ(w.request("two", 10), "got two");
  EXPECT_EQ(w.stop(), "exited with code 0");  // end of input ends it
  EXPECT_FALSE(w.running());
}

TEST(WorkerProcess, ACrashIsReportedWithItsSignalAndLastWords) {
  WorkerProcess w(sh("echo hello; read line; echo 'CUDA error: an illegal memory access' >&2; kill -SEGV $$"));
  w.start(10);
  const std::string why = death(w, "measure", 10);
  EXPECT_NE(why.find("signal 11"), std::string::npos) << why;
  EXPECT_NE(why.find("illegal memory access"), std::string::npos) << why;
  EXPECT_FALSE(w.running());
}

TEST(WorkerProcess, AHangIsKilledAtTheDeadlineWithEverythingItStarted) {
  // The shell starts a sleeping child of its own: the kill must reach the whole group.
  WorkerProcess w(sh("echo hello; read line; sleep 1000 & wait"));
  w.start(10);
  const pid_t pgid = w.pid();
  const std::string why = death(w, "measure", 0.3);
  EXPECT_NE(why.find("timeout after 0.3 s"), std::string::npos) << why;
  EXPECT_FALSE(w.running());
  EXPECT_TRUE(group_gone(pgid));
}

TEST(WorkerProcess, AnEarlyExitIsReportedWithItsCode) {
  WorkerProcess w(sh("echo hello; read line; echo 'out of memory' >&2; exit 5"));
  w.start(10);
  const std::string why = death(w, "open", 10);
  EXPECT_NE(why.find("exited with code 5"), std::string::npos) << why;
  EXPECT_NE(why.find("out of memory"), std::string::npos) << why;
}

TEST(WorkerProcess, AChildThatIsAlreadyGoneIsAnErrorNotASignal) {
  // It exits before reading the request: writing to it must not raise SIGPIPE in the tuner.
  WorkerProcess w(sh("echo hello; exit 0"));
  w.start(10);
  const std::string why = death(w, "measure", 10);
  EXPECT_NE(why.find("exited with code 0"), std::string::npos) << why;
}

TEST(WorkerProcess, GarbageIsTheCallersToJudgeAndAbandonKillsTheChild) {
  WorkerProcess w(sh("echo hello; read line; echo 'Segmentation fault (core dumped)'; sleep 1000"));
  w.start(10);
  const pid_t pgid = w.pid();
  EXPECT_EQ(w.request("measure", 10), "Segmentation fault (core dumped)");
  try {
    w.abandon("sent garbage");
    FAIL() << "abandon returned";
  } catch (const WorkerDied& e) {
    EXPECT_NE(std::string(e.what()).find("sent garbage; killed it"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(w.running());
  EXPECT_TRUE(group_gone(pgid));
}

TEST(WorkerProcess, NoHelloInTimeIsATimeout) {
  WorkerProcess w(sh("sleep 1000"));
  try {
    w.start(0.2);
    FAIL() << "started";
  } catch (const WorkerDied& e) {
    EXPECT_NE(std::string(e.what()).find("timeout"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(w.running());
}

TEST(WorkerProcess, AMissingExecutableSaysSo) {
  WorkerProcess w({"/nonexistent/gemmforge-worker", "worker"});
  try {
    w.start(10);
    FAIL() << "started";
  } catch (const WorkerDied& e) {
    EXPECT_NE(std::string(e.what()).find("exited with code 127"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("cannot execute"), std::string::npos) << e.what();
  }
}

TEST(WorkerProcess, AFreshChildStartsAfterADeath) {
  WorkerProcess w(sh("echo hello; read line; case \"$line\" in crash) kill -KILL $$;; esac; echo ok; "
                     "while read line; do echo ok; done"));
  w.start(10);
  EXPECT_NE(death(w, "crash", 10).find("signal 9"), std::string::npos);
  EXPECT_EQ(w.start(10), "hello");
  EXPECT_EQ(w.request("measure", 10), "ok");
  EXPECT_EQ(w.starts(), 2);
}

TEST(WorkerProcess, WaitStatusesInWords) {
  EXPECT_EQ(describe_wait_status(3 << 8), "exited with code 3");
  EXPECT_NE(describe_wait_status(SIGSEGV).find("killed by signal 11"), std::string::npos);
}

}  // namespace
}  // namespace gemmforge::tune
