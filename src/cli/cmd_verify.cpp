#include <filesystem>
#include <iostream>
#include <map>

#include "cli/commands.hpp"
#include "cli/common_options.hpp"
#include "core/summary.hpp"

namespace gemmforge::cli {
namespace {

struct VerifyArgs {
  ProblemOptions problem;
  int calls_between = 20;
  std::string out;
  bool verbose = false;
};

int run(const VerifyArgs& a, int argc, char** argv) {
  bool wants_torch = false;
  BenchOptions o;
  try {
    o = resolve_problem_options(a.problem, wants_torch);
    if (wants_torch)
      throw Error("verify runs C++ implementations in this process; torch is checked by its own script during "
                  "'gemmforge bench --impl torch'");
    if (a.calls_between < 0) throw Error("--calls-between must not be negative");
  } catch (const UsageError&) {
    throw;
  } catch (const Error& e) {
    throw UsageError(e.what());
  }
  ResultFile f;
  f.command = command_line(argc, argv);
  f.started_utc = utc_now_iso8601();
  DeviceContext ctx;
  f.environment = environment_json(ctx.info());
  const nlohmann::json sweep = prepare_gemmforge(a.problem, o, ctx);
  f.settings = settings_json(o);
  if (!sweep.is_null()) f.settings["gemmforge_sweep"] = sweep;
  f.settings["calls_between"] = a.calls_between;
  f.records = run_verify(ctx, o, a.calls_between);
  f.finished_utc = utc_now_iso8601();
  f.complete = true;

  // One line per shape: every candidate's verdict at a glance; all of them with --verbose or
  // few shapes, otherwise only the shapes where something failed.
  std::map<Shape, std::vector<const BenchRecord*>> by_shape;
  for (const auto& r : f.records) by_shape[r.shape].push_back(&r);
  const bool all_lines = a.verbose || by_shape.size() <= 50;
  size_t pass = 0, fail = 0;
  for (const auto& [shape, recs] : by_shape) {
    bool ok = true;
    std::string line = to_string(shape) + " (" + to_string(classify(shape)) + "):";
    for (const auto* r : recs) {
      ok &= r->verdict == "pass";
      line += "  " + r->impl + "/" + to_string(r->layout) + " " + (r->verdict == "pass" ? "PASS" : "FAIL");
    }
    (ok ? pass : fail)++;
    if (all_lines || !ok) std::cout << line << "\n";
    if (!ok)
      for (const auto* r : recs)
        if (r->verdict != "pass") std::cout << "    " << r->impl << "/" << to_string(r->layout) << ": " << r->verdict << "\n";
  }
  std::cout << "\nverify: " << pass << " shapes passed, " << fail << " failed (" << f.records.size()
            << " verdicts; gate = design.md section 6, items 1-7)\n";
  if (!a.out.empty()) {
    write_file_atomically(a.out, to_json(f).dump(1) + "\n");
    std::cout << "wrote " << a.out << "\n";
  }
  return fail ? kExitFailedVerdicts : kExitOk;
}

}  // namespace

void add_verify(CLI::App& app, int& exit_code, int argc, char** argv) {
  auto args = std::make_shared<VerifyArgs>();
  auto* cmd = app.add_subcommand("verify", "Run the correctness gate on implementations and print a verdict per shape");
  cmd->footer(
      "The gate (design.md section 6), per shape, layout and implementation:\n"
      "  1. two random-normal trials with fresh seeds against an fp32 reference kernel (tolerance grows\n"
      "     with sqrt(K)), plus fp64 spot checks on the CPU (corners first)\n"
      "  2. binary 0/1 inputs: bit-exact\n"
      "  3. accumulator probes for f32: A=B=ones must give exactly K (K > 2048), and a +4096/.../-4096\n"
      "     cancellation pattern must keep every 1 in between (K >= 64)\n"
      "  4. output poisoned with NaN before every call   5. guard bands around A, B and C\n"
      "  6. fresh inputs again after --calls-between calls   7. no threads, persisting-L2 windows or\n"
      "     off-stream work left behind (results are read after waiting on our stream only)\n\n"
      "Examples:\n"
      "  gemmforge verify --shape 77x4095x1000 --impl cublas,cublaslt-autotune\n"
      "  gemmforge verify --shapes grid --impl cublas --out verify.json\n"
      "Exit status 1 when any verdict fails.");
  add_problem_options(*cmd, args->problem, "cublas");
  cmd->add_option("--calls-between", args->calls_between, "calls between the check and the re-check")
      ->capture_default_str();
  cmd->add_option("--out", args->out, "write every verdict to this JSON file");
  cmd->add_flag("--verbose,-v", args->verbose, "one line per shape even for long lists");
  cmd->callback([args, &exit_code, argc, argv] { exit_code = run(*args, argc, argv); });
}

}  // namespace gemmforge::cli
