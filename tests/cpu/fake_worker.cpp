// A stand-in for `gemmforge worker` that needs no GPU: it speaks the worker protocol with the
// pretend device of fake_device.hpp, and misbehaves on cue for chosen candidates, so the
// tuner's supervision, resume and decisions are tested on CPU.
//   --crash NAME    die of SIGSEGV when asked to measure NAME
//   --hang NAME     never answer
//   --garbage NAME  answer with a line that is not JSON
//   --exit NAME     exit with code 7 without answering
//   --fatal NAME    answer "fatal" (a lost CUDA context) and exit, as the real worker does
//   --wrong NAME    fail the gate
//   --open-fails MxNxK   cannot set up that shape (out of memory)
//   --gpu NAME      the GPU it claims to be; --no-gpu: none at all
//   --baseline-scale X   the baseline's time times X
//   --sm80-speedup X     sm80-family kernels X times faster than their Hopper model
//   --specialized-speedup X   builds for one shape X times faster than the generic build
//   --raster-speedup X        launches with an explicit raster group (group_m > 0) X times faster
//   --parts-apart-speedup X   builds with a split tile's parts apart X times faster
//   --wide-cluster-speedup X  builds in clusters of 4 or more CTAs X times faster
//   --cluster-push-speedup X  builds that push their in-cluster sums X times faster
//   --ksplit-speedup X        builds with two k-split consumers X times faster
//   --lean-sync-speedup X     builds with lean cluster sync X times faster
//   --uniform-warpgroup-speedup X  builds with the uniform warpgroup index X times faster
//   --steady-slower NAME      config NAME 1.5x slower in the final comparison than in its estimate
//                             (as a kernel that loses more than others at the power cap)
//   --log FILE      one line per request: "op M N K layout name"
#include <sys/resource.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <thread>

#include "fake_device.hpp"
#include "tune/line_io.hpp"
#include "tune/worker_protocol.hpp"

using namespace gemmforge;
using namespace gemmforge::tune;

namespace {

struct Plan {
  std::map<std::string, std::string> misbehave;  // candidate name -> crash | hang | garbage | exit | fatal | wrong
  std::set<std::string> open_fails;
  std::string gpu = "Fake GPU";
  bool no_gpu = false;
  double baseline_scale = 1.0;
  testing::FakeSpeedups speedups;
  std::set<std::string> steady_slower;
  std::string log;
};

void log_line(const Plan& p, const std::string& line) {
  if (p.log.empty()) return;
  std::ofstream(p.log, std::ios::app) << line << "\n";
}

// What a misbehaving candidate does instead of answering; returns only for "wrong".
void misbehave(const std::string& how) {
  if (how == "crash") std::raise(SIGSEGV);
  if (how == "hang")
    for (;;) std::this_thread::sleep_for(std::chrono::seconds(60));
  if (how == "garbage") {
    std::printf("this is not a reply\n");
    std::fflush(stdout);
    for (;;) std::this_thread::sleep_for(std::chrono::seconds(60));
  }
  if (how == "exit") _exit(7);
}

}  // namespace

int main(int argc, char** argv) {
  const rlimit no_core{0, 0};
  setrlimit(RLIMIT_CORE, &no_core);  // crashes on cue should not leave core files behind
  Plan plan;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "fake_worker: %s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "worker") continue;
    if (a == "--cache-dir") value();
    else if (a == "--log") plan.log = value();
    else if (a == "--gpu") plan.gpu = value();
    else if (a == "--no-gpu") plan.no_gpu = true;
    else if (a == "--baseline-scale") plan.baseline_scale = std::stod(value());
    else if (a == "--open-fails") plan.open_fails.insert(value());
    else if (a == "--sm80-speedup") plan.speedups.sm80 = std::stod(value());
    else if (a == "--specialized-speedup") plan.speedups.specialized = std::stod(value());
    else if (a == "--raster-speedup") plan.speedups.raster = std::stod(value());
    else if (a == "--parts-apart-speedup") plan.speedups.parts_apart = std::stod(value());
    else if (a == "--wide-cluster-speedup") plan.speedups.cluster = std::stod(value());
    else if (a == "--cluster-push-speedup") plan.speedups.cluster_push = std::stod(value());
    else if (a == "--ksplit-speedup") plan.speedups.ksplit = std::stod(value());
    else if (a == "--lean-sync-speedup") plan.speedups.lean_sync = std::stod(value());
    else if (a == "--uniform-warpgroup-speedup") plan.speedups.uniform_warpgroup = std::stod(value());
    else if (a == "--dynamic-walk-speedup") plan.speedups.dynamic_walk = std::stod(value());
    else if (a == "--walk-n-speedup") plan.speedups.walk_n = std::stod(value());
    else if (a == "--steady-slower") plan.steady_slower.insert(value());
    else if (a == "--crash" || a == "--hang" || a == "--garbage" || a == "--exit" || a == "--fatal" || a == "--wrong")
      plan.misbehave[value()] = a.substr(2);
    else {
      std::fprintf(stderr, "fake_worker: unknown argument %s\n", a.c_str());
      return 2;
    }
  }
  Reply hello;
  if (plan.no_gpu) {
    hello.status = "fatal";
    hello.why = "no usable NVIDIA GPU: the fake worker has none";
    write_line(1, encode_reply(hello));
    return 3;
  }
  hello.environment = testing::fake_environment(plan.gpu);
  write_line(1, encode_reply(hello));
  FdLineReader in(0);
  Shape shape;
  while (auto line = in.next()) {
    const DecodedRequest d = decode_request(*line);
    Reply r;
    r.id = d.id;
    if (const auto* q = std::get_if<OpenShape>(&d.request)) {
      shape = q->shape;
      log_line(plan, "open " + std::to_string(shape.M) + " " + std::to_string(shape.N) + " " + std::to_string(shape.K));
      if (plan.open_fails.count(to_string(shape))) {
        r.status = "error";
        r.why = "out of memory for " + to_string(shape);
        shape = {};
      }
    } else if (const auto* q = std::get_if<MeasureCandidate>(&d.request)) {
      const std::string name = q->candidate.name();
      log_line(plan, "measure " + std::to_string(shape.M) + " " + std::to_string(shape.N) + " " +
                         std::to_string(shape.K) + " " + to_string(q->layout) + " " + name);
      if (shape.M == 0) {
        r.status = "error";
        r.why = "no shape is open";
      } else if (auto it = plan.misbehave.find(q->candidate.config_name()); it != plan.misbehave.end()) {
        misbehave(it->second);
        if (it->second == "fatal") {
          r.status = "fatal";
          r.why = "cudaErrorIllegalAddress: an illegal memory access was encountered";
          write_line(1, encode_reply(r));
          return 4;
        }
        r.status = "fail";
        r.why = "fail: random-normal: 12 elements out of tolerance";
      } else if (auto why = why_not_specialized_for(q->candidate.built_for, shape); !why.empty()) {
        r.status = "fail";  // as the real worker refuses a build for another shape
        r.why = why;
      } else {
        r.us = testing::fake_candidate_us(shape, q->candidate, plan.speedups);
      }
    } else if (const auto* q = std::get_if<MeasureBaseline>(&d.request)) {
      log_line(plan, "baseline " + std::to_string(shape.M) + " " + std::to_string(shape.N) + " " +
                         std::to_string(shape.K) + " " + to_string(q->layout) + " " + q->impl);
      r.us = testing::fake_baseline_us(shape) * plan.baseline_scale;
      r.note = "algo 1 of 8 timed";
    } else if (const auto* q = std::get_if<CompareFinal>(&d.request)) {
      log_line(plan, "compare " + std::to_string(shape.M) + " " + std::to_string(shape.N) + " " +
                         std::to_string(shape.K) + " " + to_string(q->layout) + " " + std::to_string(q->entries.size()));
      for (const auto& e : q->entries) {
        EntryResult x;
        if (e.candidate) {
          if (auto it = plan.misbehave.find(e.candidate->config_name()); it != plan.misbehave.end()) misbehave(it->second);
        }
        double t = e.candidate ? testing::fake_candidate_us(shape, *e.candidate, plan.speedups)
                               : testing::fake_baseline_us(shape) * plan.baseline_scale;
        if (e.candidate && plan.steady_slower.count(e.candidate->config_name())) t *= 1.5;
        x.median_us = t;
        x.p25_us = t * 0.997;
        x.p75_us = t * 1.003;
        x.min_us = t * 0.99;
        x.note = std::string(e.candidate ? "" : "algo 1 of 8 timed; ") + "sm_clock_mhz 1980, power_w 120";
        r.results.push_back(x);
      }
    } else {
      break;  // quit
    }
    write_line(1, encode_reply(r));
  }
  return 0;
}
