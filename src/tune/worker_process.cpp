#include "tune/worker_process.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <thread>

#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tune/line_io.hpp"

namespace gemmforge::tune {
namespace {

using Clock = std::chrono::steady_clock;
constexpr size_t kTailBytes = 4096;

std::string errno_text(const char* call) { return std::string(call) + " failed: " + std::strerror(errno); }

void set_nonblocking(int fd) {
  const int flags = fcntl(fd, F_GETFL);
  if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0) throw Error("worker pipe: " + errno_text("fcntl"));
}

std::string seconds_text(double s) {
  char b[32];
  std::snprintf(b, sizeof b, "%g", s);
  return b;
}

// The last non-empty line of what the child wrote to its error output, shortened.
std::string last_words(const std::string& tail) {
  size_t end = tail.find_last_not_of("\r\n \t");
  if (end == std::string::npos) return {};
  size_t begin = tail.rfind('\n', end);
  begin = begin == std::string::npos ? 0 : begin + 1;
  std::string line = tail.substr(begin, end + 1 - begin);
  if (line.size() > 400) line = "..." + line.substr(line.size() - 400);
  return line;
}

}  // namespace

std::string describe_wait_status(int status) {
  if (WIFEXITED(status)) return "exited with code " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    const char* name = strsignal(sig);
    return "killed by signal " + std::to_string(sig) + (name ? " (" + std::string(name) + ")" : std::string());
  }
  return "ended with wait status " + std::to_string(status);
}

WorkerProcess::WorkerProcess(std::vector<std::string> argv) : argv_(std::move(argv)) {
  if (argv_.empty() || argv_[0].empty()) throw Error("worker command is empty");
}

WorkerProcess::~WorkerProcess() {
  try {
    stop();
  } catch (...) {  // a destructor has no one to report to; the child is killed either way
  }
}

void WorkerProcess::close_fds() {
  for (int* fd : {&in_fd_, &out_fd_, &err_fd_})
    if (*fd >= 0) {
      ::close(*fd);
      *fd = -1;
    }
}

std::string WorkerProcess::start(double timeout_s) {
  if (running()) stop(0);
  out_buf_.clear();
  err_tail_.clear();
  int in[2], out[2], err[2];
  // A socket for the child's input, so that writing to a child that died is an error (send
  // with MSG_NOSIGNAL), not a SIGPIPE that would kill the tuner.
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, in) != 0) throw Error("worker: " + errno_text("socketpair"));
  if (pipe2(out, O_CLOEXEC) != 0) {
    const std::string why = errno_text("pipe2");
    ::close(in[0]), ::close(in[1]);
    throw Error("worker: " + why);
  }
  if (pipe2(err, O_CLOEXEC) != 0) {
    const std::string why = errno_text("pipe2");
    ::close(in[0]), ::close(in[1]), ::close(out[0]), ::close(out[1]);
    throw Error("worker: " + why);
  }
  std::vector<char*> args;
  for (auto& a : argv_) args.push_back(a.data());
  args.push_back(nullptr);
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid < 0) {
    const std::string why = errno_text("fork");
    for (int fd : {in[0], in[1], out[0], out[1], err[0], err[1]}) ::close(fd);
    throw Error("worker: " + why);
  }
  if (pid == 0) {
    // The child: only async-signal-safe calls until exec (the tuner has compile threads).
    setpgid(0, 0);  // its own group, so a kill reaches anything it started too
    prctl(PR_SET_PDEATHSIG, SIGKILL);  // and it dies with the thread that started it
    if (getppid() != parent) _exit(127);
    struct sigaction dfl{};
    dfl.sa_handler = SIG_DFL;
    sigaction(SIGPIPE, &dfl, nullptr);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    if (dup2(in[1], 0) < 0 || dup2(out[1], 1) < 0 || dup2(err[1], 2) < 0) _exit(127);
    execvp(args[0], args.data());
    const char* msg = "gemmforge: cannot execute the worker: ";
    [[maybe_unused]] ssize_t w = write(2, msg, std::strlen(msg));
    const char* why = std::strerror(errno);  // not async-signal-safe in theory; we exit next
    w = write(2, why, std::strlen(why));
    w = write(2, "\n", 1);
    _exit(127);
  }
  setpgid(pid, pid);  // both sides set it: whichever runs first wins the race with kill()
  ::close(in[1]), ::close(out[1]), ::close(err[1]);
  pid_ = pid;
  in_fd_ = in[0];
  out_fd_ = out[0];
  err_fd_ = err[0];
  ++starts_;
  set_nonblocking(out_fd_);
  set_nonblocking(err_fd_);
  switch (wait_for_line(timeout_s)) {
    case Wait::line: return take_line();
    case Wait::eof: die("before saying hello", true);
    case Wait::timeout:
      die("timeout after " + seconds_text(timeout_s) + " s waiting for the worker's hello; killed it", false);
  }
  return {};
}

std::string WorkerProcess::request(const std::string& line, double timeout_s) {
  if (!running()) throw Error("worker is not running");
  if (!out_buf_.empty()) abandon("wrote output nobody asked for: '" + out_buf_.substr(0, 120) + "'");
  try {
    write_line(in_fd_, line);
  } catch (const Error& e) {
    die(std::string("(a request could not be sent: ") + e.what() + ")", true);
  }
  switch (wait_for_line(timeout_s)) {
    case Wait::line: return take_line();
    case Wait::eof: die("", true);
    case Wait::timeout: die("timeout after " + seconds_text(timeout_s) + " s: no reply from the worker; killed it", false);
  }
  return {};
}

std::string WorkerProcess::take_line() {
  const size_t nl = out_buf_.find('\n');
  std::string line = out_buf_.substr(0, nl);
  out_buf_.erase(0, nl + 1);
  return line;
}

WorkerProcess::Wait WorkerProcess::wait_for_line(double timeout_s) {
  const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(timeout_s));
  bool out_open = true;
  for (;;) {
    if (out_buf_.find('\n') != std::string::npos) return Wait::line;
    if (out_buf_.size() > kMaxLineBytes) abandon("wrote a line over " + std::to_string(kMaxLineBytes) + " bytes");
    if (!out_open) return Wait::eof;
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) return Wait::timeout;
    pollfd fds[2] = {{out_fd_, POLLIN, 0}, {err_fd_, POLLIN, 0}};
    const int n = ::poll(fds, err_fd_ >= 0 ? 2 : 1, int(std::min<long long>(left, 1000)));
    if (n < 0) {
      if (errno == EINTR) continue;
      throw Error("worker: " + errno_text("poll"));
    }
    char chunk[65536];
    if (err_fd_ >= 0 && (fds[1].revents & (POLLIN | POLLHUP | POLLERR))) {
      const ssize_t r = ::read(err_fd_, chunk, sizeof chunk);
      if (r > 0) {
        err_tail_.append(chunk, size_t(r));
        if (err_tail_.size() > kTailBytes) err_tail_.erase(0, err_tail_.size() - kTailBytes);
      } else if (r == 0) {
        ::close(err_fd_);
        err_fd_ = -1;
      }
    }
    if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
      const ssize_t r = ::read(out_fd_, chunk, sizeof chunk);
      if (r > 0) out_buf_.append(chunk, size_t(r));
      else if (r == 0) out_open = false;
      else if (errno != EAGAIN && errno != EINTR) throw Error("worker: " + errno_text("read"));
    }
  }
}

std::string WorkerProcess::reap_within(double seconds) {
  const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  for (;;) {
    int status = 0;
    const pid_t r = waitpid(pid_, &status, WNOHANG);
    if (r == pid_) {
      kill(-pid_, SIGKILL);  // anything it left behind in its group
      pid_ = -1;
      return describe_wait_status(status);
    }
    if (r < 0 && errno != EINTR) {
      pid_ = -1;
      return errno_text("waitpid");
    }
    if (Clock::now() >= deadline) return {};
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

std::string WorkerProcess::kill_and_reap() {
  if (kill(-pid_, SIGKILL) != 0) kill(pid_, SIGKILL);  // the group may not exist yet if exec raced
  int status = 0;
  pid_t r;
  do {
    r = waitpid(pid_, &status, 0);
  } while (r < 0 && errno == EINTR);
  pid_ = -1;
  return r == -1 ? errno_text("waitpid") : describe_wait_status(status);
}

void WorkerProcess::die(const std::string& what, bool closed_output) {
  // A child that closed its output is usually exiting: let it, so its own exit code or signal
  // is what we report rather than our SIGKILL.
  std::string how = reap_within(closed_output ? 2.0 : 0.0);
  const bool ended_itself = !how.empty();
  if (!ended_itself) how = kill_and_reap();
  // Its last words, if the pipe still holds any.
  if (err_fd_ >= 0) {
    char chunk[65536];
    for (ssize_t r; (r = ::read(err_fd_, chunk, sizeof chunk)) > 0;) err_tail_.append(chunk, size_t(r));
    if (err_tail_.size() > kTailBytes) err_tail_.erase(0, err_tail_.size() - kTailBytes);
  }
  close_fds();
  out_buf_.clear();
  std::string msg;
  if (closed_output)
    msg = ended_itself ? "worker " + how + (what.empty() ? "" : " " + what)
                       : "worker closed its output " + what + " but kept running; killed it";
  else
    msg = what + (ended_itself ? " (the worker had " + how + ")" : "");
  if (const auto words = last_words(err_tail_); !words.empty()) msg += " [worker's last error output: " + words + "]";
  throw WorkerDied(msg);
}

void WorkerProcess::abandon(const std::string& why) {
  if (!running()) throw WorkerDied("worker " + why);
  die("worker " + why + "; killed it", false);
}

std::string WorkerProcess::stop(double grace_s) {
  if (!running()) return {};
  if (in_fd_ >= 0) {  // end of input: a worker finishes its request and exits
    ::close(in_fd_);
    in_fd_ = -1;
  }
  std::string how = grace_s > 0 ? reap_within(grace_s) : std::string();
  if (how.empty()) how = kill_and_reap();
  close_fds();
  out_buf_.clear();
  return how;
}

}  // namespace gemmforge::tune
