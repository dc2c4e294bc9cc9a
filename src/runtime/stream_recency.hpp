// When the handle's last call on each stream returned to the caller, so that a call can tell
// whether the previous one may still be running on its stream. A kernel launched with
// programmatic dependent launch (PDL) starts its prologue under the previous kernel's tail, which
// only pays when there is a previous kernel still running; after an idle gap a replayed graph,
// which costs less host time and starts sooner, is faster (bench/NOTES.md, sixteenth session:
// back-to-back PDL calls 11% slower replayed, isolated ones 12.5% faster). The host cannot see
// the device without a query that costs more than it saves (cudaStreamQuery cost 3% offline and
// found the timed stream busy with the timer's own event), so the clock between calls decides.
// The clock is a parameter so that the policy is tested without a GPU
// (tests/cpu/test_stream_recency.cpp).
#pragma once
#include <array>
#include <chrono>
#include <cstddef>

namespace gemmforge {

template <class Clock = std::chrono::steady_clock>
class StreamRecency {
 public:
  using time_point = typename Clock::time_point;
  // A call that comes within this long of the previous call's return on its stream counts as
  // back to back: a host loop issuing calls comes within ~1 µs, a server's idle gaps are tens to
  // hundreds of µs. An earlier kernel running longer than this is missed; its successor then loses
  // only the prologue overlap (< 1 µs) on a call that takes more than 20 µs.
  static constexpr std::chrono::microseconds kBackToBack{20};
  // Streams remembered; the one returned from longest ago makes room for a new one (a forgotten
  // stream counts as idle).
  static constexpr size_t kStreams = 16;

  // Whether the handle's previous call on `stream` returned less than kBackToBack before `now`.
  bool back_to_back(const void* stream, time_point now) const {
    for (const Slot& s : slots_)
      if (s.used && s.stream == stream) return now - s.returned < kBackToBack;
    return false;
  }

  // A call on `stream` returns at `now`.
  void returned(const void* stream, time_point now) {
    Slot* oldest = &slots_[0];
    for (Slot& s : slots_) {
      if (s.used && s.stream == stream) {
        s.returned = now;
        return;
      }
      if (!s.used || (oldest->used && s.returned < oldest->returned)) oldest = &s;
    }
    *oldest = Slot{true, stream, now};
  }

 private:
  struct Slot {
    bool used = false;
    const void* stream = nullptr;  // nullptr is the default stream
    time_point returned{};
  };
  std::array<Slot, kStreams> slots_{};
};

}  // namespace gemmforge
