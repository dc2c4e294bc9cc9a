// The one-line progress report of long runs: what is done, what is left, time, and a status.
#pragma once
#include <chrono>
#include <cstdio>
#include <string>

namespace gemmforge {

class Progress {
 public:
  Progress(std::string label, size_t total, std::FILE* out = stderr);
  // Call after each item; `status` is appended (e.g. the current shape, failures so far).
  void update(size_t done, const std::string& status);
  void finish(const std::string& status);
  static std::string format_duration(double seconds);  // "1m05s", "12s", "1h02m"

 private:
  std::string label_;
  size_t total_;
  std::FILE* out_;
  bool tty_;
  std::chrono::steady_clock::time_point start_, last_print_;
  int last_percent_bucket_ = -1;
};

}  // namespace gemmforge
