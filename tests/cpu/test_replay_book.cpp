// The runtime's bookkeeping of replayed calls (src/runtime/replay_book.hpp), with a stand-in for
// a CUDA graph: which call captures, which replays, and when replays stop.
#include <gtest/gtest.h>

#include "runtime/replay_book.hpp"

namespace gemmforge::testing {
namespace {

struct FakeGraph {
  int id = 0;
  explicit operator bool() const { return id != 0; }
};

int buffers[64];
ReplayKey key(int set, int stream = 0) { return {&buffers[32 + stream], &buffers[set], &buffers[set] + 1, &buffers[set] + 2}; }

TEST(ReplayBook, TheSecondCallCapturesAndLaterOnesReplayThatGraph) {
  ReplayBook<FakeGraph> book;
  int made = 0;
  auto make = [&] { return FakeGraph{++made}; };
  EXPECT_EQ(book.graph_for(key(0), make), nullptr);  // first call: direct
  EXPECT_EQ(made, 0);
  const FakeGraph* g = book.graph_for(key(0), make);  // second: captured, and launched
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(g->id, 1);
  for (int i = 0; i < 5; ++i) {
    const FakeGraph* again = book.graph_for(key(0), make);
    ASSERT_NE(again, nullptr);
    EXPECT_EQ(again->id, 1);
  }
  EXPECT_EQ(made, 1);
  EXPECT_EQ(book.captures(), 1u);
  EXPECT_EQ(book.replays(), 5u);
}

TEST(ReplayBook, EveryStreamAndOperandSetHasItsOwnGraph) {
  ReplayBook<FakeGraph> book;
  int made = 0;
  auto make = [&] { return FakeGraph{++made}; };
  for (const ReplayKey& k : {key(0), key(1), key(0, 1)}) EXPECT_EQ(book.graph_for(k, make), nullptr);
  EXPECT_EQ(book.graph_for(key(0, 1), make)->id, 1);
  EXPECT_EQ(book.graph_for(key(1), make)->id, 2);
  EXPECT_EQ(book.graph_for(key(0), make)->id, 3);
  EXPECT_EQ(book.graph_for(key(0, 1), make)->id, 1);
  ReplayKey other_c = key(2);
  other_c.c = &buffers[40];
  EXPECT_EQ(book.graph_for(key(2), make), nullptr);
  EXPECT_EQ(book.graph_for(other_c, make), nullptr);  // C differs: a new set
}

TEST(ReplayBook, OperandsThatNeverRepeatCaptureNothing) {
  ReplayBook<FakeGraph> book;
  int made = 0;
  auto make = [&] { return FakeGraph{++made}; };
  for (int round = 0; round < 4; ++round)
    for (int set = 0; set < int(ReplayBook<FakeGraph>::kCapacity) + 1; ++set) EXPECT_EQ(book.graph_for(key(set), make), nullptr);
  EXPECT_EQ(made, 0);  // more sets than it remembers, in turn: each is forgotten before it comes back
  EXPECT_FALSE(book.off());
  EXPECT_LE(book.remembered(), ReplayBook<FakeGraph>::kCapacity);
}

TEST(ReplayBook, GraphsNeverReplayedSwitchReplaysOff) {
  ReplayBook<FakeGraph> book;
  int made = 0;
  auto make = [&] { return FakeGraph{++made}; };
  // Each set called exactly twice: every second call captures a graph that is never replayed.
  int set = 0;
  while (!book.off() && set < 1000) {
    book.graph_for(key(set % 30), make);
    book.graph_for(key(set % 30), make);
    ++set;
  }
  ASSERT_TRUE(book.off());
  EXPECT_NE(book.why_off().find("never replayed"), std::string::npos) << book.why_off();
  EXPECT_LE(made, int(ReplayBook<FakeGraph>::kMaxUnreplayed) + 1);
  const int before = made;
  EXPECT_EQ(book.graph_for(key(0), make), nullptr);
  EXPECT_EQ(book.graph_for(key(0), make), nullptr);
  EXPECT_EQ(made, before);
}

TEST(ReplayBook, ACallThatCannotBeCapturedSwitchesReplaysOffWithTheReason) {
  ReplayBook<FakeGraph> book;
  int tries = 0;
  EXPECT_EQ(book.graph_for(key(0), [&] { return FakeGraph{}; }), nullptr);
  EXPECT_EQ(book.graph_for(key(0), [&] {
    ++tries;
    book.switch_off("cudaStreamBeginCapture: not permitted");
    return FakeGraph{};
  }), nullptr);
  EXPECT_TRUE(book.off());
  EXPECT_EQ(book.why_off(), "cudaStreamBeginCapture: not permitted");
  EXPECT_EQ(book.graph_for(key(0), [&] { return ++tries, FakeGraph{7}; }), nullptr);
  EXPECT_EQ(tries, 1);
}

}  // namespace
}  // namespace gemmforge::testing
