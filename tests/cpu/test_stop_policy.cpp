// When a bench run stops early (src/cli/stop_policy.hpp): a stop signal, or a time limit the next
// shape would overrun. A pretend clock and signal, so no time passes and no signal is sent.
#include <gtest/gtest.h>

#include <csignal>

#include "cli/stop_policy.hpp"

namespace gemmforge::cli {
namespace {

struct PretendClock {
  StopPolicy::Clock::time_point t{};
  void advance(double seconds) {
    t += std::chrono::duration_cast<StopPolicy::Clock::duration>(std::chrono::duration<double>(seconds));
  }
};

StopPolicy policy(PretendClock& clock, double limit_s, int& signal) {
  StopPolicy p;
  p.time_limit_s = limit_s;
  p.now = [&clock] { return clock.t; };
  p.pending_signal = [&signal] { return signal; };
  p.start = clock.t;
  return p;
}

TEST(StopPolicy, ASignalStopsBeforeTheNextShape) {
  PretendClock clock;
  int signal = 0;
  StopPolicy stop = policy(clock, 0, signal);
  EXPECT_FALSE(stop());
  EXPECT_FALSE(stop());
  signal = SIGTERM;
  EXPECT_TRUE(stop());
  EXPECT_EQ(stop.shapes_started, 2u);
  EXPECT_NE(stop.reason.find("signal 15"), std::string::npos) << stop.reason;
}

TEST(StopPolicy, AShapeStartsOnlyIfTheLongestSoFarStillFitsTheLimit) {
  PretendClock clock;
  int signal = 0;
  StopPolicy stop = policy(clock, 100, signal);
  EXPECT_FALSE(stop());  // shape 1 at 0 s
  clock.advance(30);
  EXPECT_FALSE(stop());  // shape 2 at 30 s: 30 + 30 ≤ 100
  clock.advance(10);
  EXPECT_FALSE(stop());  // shape 3 at 40 s: 40 + 30 ≤ 100
  clock.advance(35);
  EXPECT_TRUE(stop());   // at 75 s the longest shape (35 s) would end at 110 s
  EXPECT_EQ(stop.shapes_started, 3u);
  EXPECT_NE(stop.reason.find("time limit of 100 s"), std::string::npos) << stop.reason;
  EXPECT_NE(stop.reason.find("longest shape took 35 s"), std::string::npos) << stop.reason;
}

TEST(StopPolicy, WithoutALimitOrSignalEveryShapeRuns) {
  PretendClock clock;
  int signal = 0;
  StopPolicy stop = policy(clock, 0, signal);
  for (int i = 0; i < 5; ++i) {
    clock.advance(1000);
    EXPECT_FALSE(stop());
  }
  EXPECT_EQ(stop.shapes_started, 5u);
  EXPECT_TRUE(stop.reason.empty());
}

}  // namespace
}  // namespace gemmforge::cli
