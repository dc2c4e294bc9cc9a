#include "core/progress.hpp"

#include <unistd.h>

namespace gemmforge {

Progress::Progress(std::string label, size_t total, std::FILE* out)
    : label_(std::move(label)), total_(total), out_(out), tty_(isatty(fileno(out)) != 0),
      start_(std::chrono::steady_clock::now()), last_print_(start_) {}

std::string Progress::format_duration(double s) {
  char buf[32];
  if (s < 60) std::snprintf(buf, sizeof buf, "%.0fs", s);
  else if (s < 3600) std::snprintf(buf, sizeof buf, "%dm%02ds", int(s) / 60, int(s) % 60);
  else std::snprintf(buf, sizeof buf, "%dh%02dm", int(s) / 3600, (int(s) % 3600) / 60);
  return buf;
}

void Progress::update(size_t done, const std::string& status) {
  const auto now = std::chrono::steady_clock::now();
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const double left = done ? elapsed / double(done) * double(total_ - done) : 0;
  const int pct = total_ ? int(100 * done / total_) : 100;
  // On a terminal, redraw in place; in a log, a line every 10% or every 30 s is enough.
  const bool log_line = pct / 10 != last_percent_bucket_ ||
                        std::chrono::duration<double>(now - last_print_).count() > 30 || done == total_;
  if (!tty_ && !log_line) return;
  last_percent_bucket_ = pct / 10;
  last_print_ = now;
  std::fprintf(out_, "%s[%s] %zu/%zu (%d%%) elapsed %s, left ~%s | %s%s", tty_ ? "\r\033[K" : "", label_.c_str(),
               done, total_, pct, format_duration(elapsed).c_str(), done ? format_duration(left).c_str() : "?",
               status.c_str(), tty_ ? "" : "\n");
  std::fflush(out_);
}

void Progress::finish(const std::string& status) {
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  std::fprintf(out_, "%s[%s] done: %zu in %s | %s\n", tty_ ? "\r\033[K" : "", label_.c_str(), total_,
               format_duration(elapsed).c_str(), status.c_str());
  std::fflush(out_);
}

}  // namespace gemmforge
