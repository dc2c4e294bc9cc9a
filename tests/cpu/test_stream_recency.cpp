// The runtime's record of when its calls returned, per stream (src/runtime/stream_recency.hpp),
// with a clock the test sets: which calls count as back to back, and how streams are forgotten.
#include <gtest/gtest.h>

#include "runtime/stream_recency.hpp"

namespace gemmforge::testing {
namespace {

struct FakeClock {
  using duration = std::chrono::nanoseconds;
  using rep = duration::rep;
  using period = duration::period;
  using time_point = std::chrono::time_point<FakeClock>;
};

FakeClock::time_point at_us(long us) { return FakeClock::time_point(std::chrono::microseconds(us)); }

int streams[32];

TEST(StreamRecency, ACallWithinTheWindowOfTheLastReturnIsBackToBack) {
  StreamRecency<FakeClock> r;
  EXPECT_FALSE(r.back_to_back(&streams[0], at_us(100)));  // nothing on it yet
  r.returned(&streams[0], at_us(100));
  EXPECT_TRUE(r.back_to_back(&streams[0], at_us(100)));
  EXPECT_TRUE(r.back_to_back(&streams[0], at_us(119)));
  EXPECT_FALSE(r.back_to_back(&streams[0], at_us(120)));
  EXPECT_FALSE(r.back_to_back(&streams[0], at_us(400)));
  r.returned(&streams[0], at_us(400));  // the latest return counts
  EXPECT_TRUE(r.back_to_back(&streams[0], at_us(405)));
}

TEST(StreamRecency, StreamsAreTrackedApartAndTheDefaultStreamIsOne) {
  StreamRecency<FakeClock> r;
  r.returned(nullptr, at_us(0));  // the legacy default stream is a null handle
  r.returned(&streams[1], at_us(50));
  EXPECT_FALSE(r.back_to_back(nullptr, at_us(55)));
  EXPECT_TRUE(r.back_to_back(&streams[1], at_us(55)));
  EXPECT_FALSE(r.back_to_back(&streams[2], at_us(55)));
  r.returned(nullptr, at_us(60));
  EXPECT_TRUE(r.back_to_back(nullptr, at_us(61)));
}

TEST(StreamRecency, TheStreamReturnedFromLongestAgoIsForgottenFirst) {
  StreamRecency<FakeClock> r;
  constexpr size_t n = StreamRecency<FakeClock>::kStreams;
  for (size_t i = 0; i < n; ++i) r.returned(&streams[i], at_us(long(i)));
  r.returned(&streams[0], at_us(16));  // stream 0 is now the most recent, stream 1 the oldest
  r.returned(&streams[n], at_us(17));  // one more stream: stream 1 makes room
  EXPECT_TRUE(r.back_to_back(&streams[n], at_us(18)));
  EXPECT_TRUE(r.back_to_back(&streams[0], at_us(18)));
  EXPECT_FALSE(r.back_to_back(&streams[1], at_us(18)));  // forgotten: counts as idle
  for (size_t i = 2; i < n; ++i) EXPECT_TRUE(r.back_to_back(&streams[i], at_us(18))) << i;
}

}  // namespace
}  // namespace gemmforge::testing
