// When a bench run stops early: before each shape, a pending stop signal or a time limit that the
// next shape would overrun ends the run there (the shapes before keep their records). Host-only;
// the clock and the signal are passed in, so the rules are tested without either.
#pragma once
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <functional>
#include <optional>
#include <string>

namespace gemmforge::cli {

inline std::string signal_text(int sig) {
  const char* name = strsignal(sig);
  return "signal " + std::to_string(sig) + (name ? std::string(" (") + name + ")" : std::string());
}

struct StopPolicy {
  using Clock = std::chrono::steady_clock;
  double time_limit_s = 0;                // 0: none
  std::function<int()> pending_signal;    // the stop signal received so far, 0 if none
  std::function<Clock::time_point()> now = [] { return Clock::now(); };

  Clock::time_point start = Clock::now();
  std::optional<Clock::time_point> last_start;
  double longest_shape_s = 0;
  size_t shapes_started = 0;
  std::string reason;  // empty while the run goes on

  // Asked before each shape: true ends the run. With a time limit, a shape starts only if the
  // longest shape so far would still end inside it.
  bool operator()() {
    const auto t = now();
    if (last_start) longest_shape_s = std::max(longest_shape_s, std::chrono::duration<double>(t - *last_start).count());
    const double elapsed = std::chrono::duration<double>(t - start).count();
    if (const int sig = pending_signal ? pending_signal() : 0) {
      reason = signal_text(sig);
    } else if (time_limit_s > 0 && elapsed + longest_shape_s > time_limit_s) {
      reason = "time limit of " + std::to_string(int(time_limit_s)) + " s (" + std::to_string(int(elapsed)) +
               " s gone, the longest shape took " + std::to_string(int(std::ceil(longest_shape_s))) + " s)";
    }
    if (!reason.empty()) return true;
    last_start = t;
    ++shapes_started;
    return false;
  }
};

}  // namespace gemmforge::cli
