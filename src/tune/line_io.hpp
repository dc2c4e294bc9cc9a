// Lines over file descriptors, for both ends of the worker protocol: the worker reads requests
// from its standard input, and the tuner reads replies under a deadline (worker_process).
#pragma once
#include <optional>
#include <string>

namespace gemmforge::tune {

// A protocol line longer than this is garbage, not a reply.
inline constexpr size_t kMaxLineBytes = size_t(16) << 20;

// Blocking reads of '\n'-terminated lines.
class FdLineReader {
 public:
  explicit FdLineReader(int fd) : fd_(fd) {}
  // The next line without its newline; nullopt at end of input (a last unterminated line is
  // returned first). Throws Error on a read error or a line over kMaxLineBytes.
  std::optional<std::string> next();

 private:
  int fd_;
  std::string buf_;
  bool eof_ = false;
};

// Writes the whole line and a newline; retries short writes and EINTR. Throws Error on failure.
// Uses send() with MSG_NOSIGNAL on sockets, so a vanished reader is an error, not a SIGPIPE.
void write_line(int fd, const std::string& line);

}  // namespace gemmforge::tune
