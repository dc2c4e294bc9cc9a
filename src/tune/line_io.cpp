#include "tune/line_io.hpp"

#include <cerrno>
#include <cstring>

#include <sys/socket.h>
#include <unistd.h>

#include "gemmforge/types.hpp"

namespace gemmforge::tune {

std::optional<std::string> FdLineReader::next() {
  for (;;) {
    if (auto nl = buf_.find('\n'); nl != std::string::npos) {
      std::string line = buf_.substr(0, nl);
      buf_.erase(0, nl + 1);
      return line;
    }
    if (buf_.size() > kMaxLineBytes) throw Error("input line longer than " + std::to_string(kMaxLineBytes) + " bytes");
    if (eof_) {
      if (buf_.empty()) return std::nullopt;
      std::string line;
      line.swap(buf_);
      return line;
    }
    char chunk[65536];
    const ssize_t n = ::read(fd_, chunk, sizeof chunk);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw Error(std::string("reading protocol input failed: ") + std::strerror(errno));
    }
    if (n == 0) eof_ = true;
    else buf_.append(chunk, size_t(n));
  }
}

void write_line(int fd, const std::string& line) {
  const std::string data = line + "\n";
  size_t done = 0;
  bool socket = true;
  while (done < data.size()) {
    ssize_t n = socket ? ::send(fd, data.data() + done, data.size() - done, MSG_NOSIGNAL) : -1;
    if (socket && n < 0 && errno == ENOTSOCK) {
      socket = false;  // a pipe or a file: plain write()
      continue;
    }
    if (!socket) n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw Error(std::string("writing a protocol line failed: ") + std::strerror(errno));
    }
    done += size_t(n);
  }
}

}  // namespace gemmforge::tune
