// A child process that answers one line per request line, supervised: every request has a
// deadline, and a child that crashes, hangs, exits or stops making sense is killed (its whole
// process group) and reaped, and the caller learns why. The next request starts a fresh child.
// This is what keeps a bad kernel from taking the tuner down (design.md section 6, item 8).
#pragma once
#include <string>
#include <vector>

#include <sys/types.h>

#include "gemmforge/types.hpp"

namespace gemmforge::tune {

// The child is gone; what() says how (signal, exit code, timeout, ...) and ends with the last
// line it wrote to its error output, if any.
class WorkerDied : public Error {
 public:
  using Error::Error;
};

class WorkerProcess {
 public:
  // argv[0] is run as given (a path, or a name looked up in PATH), with argv[1..] after it.
  explicit WorkerProcess(std::vector<std::string> argv);
  ~WorkerProcess();  // stop()
  WorkerProcess(const WorkerProcess&) = delete;
  WorkerProcess& operator=(const WorkerProcess&) = delete;

  // Starts a child and returns the first line it writes (its hello). Throws WorkerDied (the
  // child is then gone) and Error when no process can be started at all.
  std::string start(double timeout_s);
  bool running() const { return pid_ > 0; }
  // Sends one line and returns the child's next line. The child must be running. On a crash,
  // an exit, a closed output, no line within timeout_s, or an over-long line: kills, reaps and
  // throws WorkerDied.
  std::string request(const std::string& line, double timeout_s);
  // Kills the child for a reason of the caller's (e.g. a reply that is not valid JSON): the
  // process group gets SIGKILL, the child is reaped, and WorkerDied is thrown with the reason.
  [[noreturn]] void abandon(const std::string& why);
  // Closes the child's input (a worker exits at end of input), waits up to grace_s for it to
  // exit, then kills it. Returns how it ended; "" when nothing was running.
  std::string stop(double grace_s = 2.0);

  int starts() const { return starts_; }
  pid_t pid() const { return pid_; }
  const std::string& stderr_tail() const { return err_tail_; }

 private:
  // Reads whatever the child wrote (stdout into out_buf_, stderr into err_tail_) until a full
  // stdout line is there, the child closes stdout, or the deadline passes.
  enum class Wait { line, eof, timeout };
  Wait wait_for_line(double timeout_s);
  std::string take_line();
  // Reaps the child (letting it end by itself first when it closed its output, so its own exit
  // code or signal is reported), else kills it; then throws WorkerDied.
  [[noreturn]] void die(const std::string& what, bool closed_output);
  std::string kill_and_reap();                      // how the child ended
  std::string reap_within(double seconds);          // "" if it is still running after that
  void close_fds();

  std::vector<std::string> argv_;
  pid_t pid_ = -1;
  int in_fd_ = -1, out_fd_ = -1, err_fd_ = -1;  // our ends: child's stdin, stdout, stderr
  std::string out_buf_, err_tail_;
  int starts_ = 0;
};

// "killed by signal 11 (Segmentation fault)", "exited with code 3": a wait status in words.
std::string describe_wait_status(int status);

}  // namespace gemmforge::tune
