#include "jit/nvrtc_compiler.hpp"

#include <chrono>

#include <nvrtc.h>

#include "gemmforge/types.hpp"
#include "jit/cache_key.hpp"
#include "jit/ptxas_info.hpp"

namespace gemmforge::jit {

namespace {

// The program's file name shows up in the log and in the cubin's line info. It is fixed, not
// the request's name, so that two requests differing only in name share one cache entry.
constexpr const char* kProgramName = "gemmforge_jit.cu";

void check(nvrtcResult r, const char* call, const CompileRequest& req) {
  if (r != NVRTC_SUCCESS)
    throw Error(std::string("NVRTC error ") + nvrtcGetErrorString(r) + " in " + call + " while compiling '" +
                req.name + "'");
}

struct Program {
  nvrtcProgram handle = nullptr;
  ~Program() {
    if (handle) nvrtcDestroyProgram(&handle);
  }
};

std::string program_log(nvrtcProgram prog, const CompileRequest& req) {
  size_t size = 0;
  check(nvrtcGetProgramLogSize(prog, &size), "nvrtcGetProgramLogSize", req);
  std::string log(size, '\0');
  if (size > 0) check(nvrtcGetProgramLog(prog, log.data()), "nvrtcGetProgramLog", req);
  while (!log.empty() && log.back() == '\0') log.pop_back();  // the size counts the terminator
  return log;
}

}  // namespace

std::vector<std::string> compile_options(const CompileRequest& req) {
  // NVRTC 13 accepts -std=c++20 (checked with 13.0), so there is no c++17 fallback.
  std::vector<std::string> opts = {"--gpu-architecture=" + req.arch, "-std=c++20", "-default-device",
                                   "--ptxas-options=-v", "-lineinfo"};
  for (const auto& dir : req.include_dirs) opts.push_back("-I" + dir);
  opts.insert(opts.end(), req.extra_options.begin(), req.extra_options.end());
  return opts;
}

CompileResult compile(const CompileRequest& req) {
  CompileResult res;
  res.key = cache_key(req);
  const auto opts = compile_options(req);
  std::vector<const char*> argv;
  for (const auto& o : opts) argv.push_back(o.c_str());

  const auto start = std::chrono::steady_clock::now();
  Program prog;
  check(nvrtcCreateProgram(&prog.handle, req.source.c_str(), kProgramName, 0, nullptr, nullptr),
        "nvrtcCreateProgram", req);
  const nvrtcResult compiled = nvrtcCompileProgram(prog.handle, int(argv.size()), argv.data());
  // A bad source or a bad option is the request's fault: report it in the result, as the tuner
  // expects some of its candidates to fail.
  if (compiled != NVRTC_ERROR_COMPILATION && compiled != NVRTC_ERROR_INVALID_OPTION)
    check(compiled, "nvrtcCompileProgram", req);
  res.log = program_log(prog.handle, req);

  if (compiled == NVRTC_SUCCESS) {
    size_t size = 0;
    check(nvrtcGetCUBINSize(prog.handle, &size), "nvrtcGetCUBINSize", req);
    res.cubin.resize(size);
    if (size > 0) check(nvrtcGetCUBIN(prog.handle, res.cubin.data()), "nvrtcGetCUBIN", req);
    res.ok = size > 0;
    if (!res.ok)
      res.log += "gemmforge: no SASS for --gpu-architecture=" + req.arch +
                 " (a virtual compute_* architecture gives PTX only); ask for a real one such as sm_90a\n";
  }
  res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  const PtxasInfo info = parse_ptxas_info(res.log);
  res.registers = info.registers;
  res.spill_bytes = info.spill_bytes;
  res.shared_bytes = info.shared_bytes;
  return res;
}

std::string nvrtc_version() {
  int major = 0, minor = 0;
  const nvrtcResult r = nvrtcVersion(&major, &minor);
  if (r != NVRTC_SUCCESS) throw Error(std::string("NVRTC error ") + nvrtcGetErrorString(r) + " in nvrtcVersion");
  return std::to_string(major) + "." + std::to_string(minor);
}

}  // namespace gemmforge::jit
