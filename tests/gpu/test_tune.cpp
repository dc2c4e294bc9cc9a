// The tuner on a GPU with planted bad kernels (planted_worker.cpp): a crash, an illegal address,
// a trap and a hang each cost only the worker and are recorded as failed with the reason, a
// wrong result is rejected by the gate, good candidates are measured, the run finishes with a
// decision and a table, and a rerun measures nothing that was measured.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>

#include "eval/device.hpp"
#include "jit/cache_key.hpp"
#include "planted_tune_configs.hpp"
#include "runtime/sm90_kernel.hpp"
#include "runtime/table.hpp"
#include "tune/decisions.hpp"
#include "tune/tuner.hpp"
#include "tune/worker_backend.hpp"

namespace gemmforge::tune {
namespace {

using testing::Flaw;

std::string planted_worker() {
  return (std::filesystem::read_symlink("/proc/self/exe").parent_path() / "gemmforge_planted_worker").string();
}

// The tuner records each launch variant under its own name (config + launch knobs); with
// max_splits = 1 there is one variant per config, launched as the tuner launches it.
std::string measured_name(const KernelConfig& c) {
  return launch_variants(c, {256, 256, 1024}, 132, 1).front().name();
}

// Why these tests cannot run here; empty on an sm_90 GPU.
std::string why_no_tune_gpu() {
  const GpuInfo info = probe_gpu();
  if (!info.present) return "no usable NVIDIA GPU (" + info.why_absent + "); GPU tests run on the device machine";
  if (info.cc_major != 9) return "gemmforge's kernels need an sm_90 GPU";
  return "";
}

// A tune of `shapes` (tn) over `configs` in the order given, each launched once (no split-K, no
// seeds, three final rounds), its database and table in a fresh folder named after `tag`.
TuneOptions gpu_tune_options(const std::string& tag, std::vector<Shape> shapes, std::vector<KernelConfig> configs) {
  const auto dir = std::filesystem::temp_directory_path() / ("gemmforge_tune_gpu_" + tag + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  TuneOptions o;
  o.shapes = std::move(shapes);
  o.layouts = {Layout::tn};
  o.strategy = "exhaustive";
  o.configs = std::move(configs);
  o.budget = int(o.configs.size());
  o.max_splits = 1;  // one launch per config
  o.seeds = 0;
  o.compile_whole_space = false;
  o.final_rounds = 3;
  o.kernel_source_hash = jit::include_dirs_fingerprint({kernel_include_dir()});
  o.db = dir / "tune.sqlite";
  o.out = dir / "table.json";
  o.command = "TuneOnGpu";
  return o;
}

std::string verdict_of(const std::vector<Measurement>& ms, const KernelConfig& c) {
  for (const auto& m : ms)
    if (m.config == measured_name(c)) return m.verdict;
  return "not measured";
}

TEST(TuneOnGpu, BadCandidatesCostOnlyTheWorkerAndARerunMeasuresNothingAgain) {
  if (const std::string why = why_no_tune_gpu(); !why.empty()) GTEST_SKIP() << why;
  const std::vector<KernelConfig> good = {testing::space_config(128, 128, 4, 2), testing::space_config(128, 64, 4, 2),
                                          testing::space_config(64, 128, 4, 1)};
  const auto& planted = testing::planted_tune_configs();
  // One launch per config: the test is about isolation, not split-K.
  TuneOptions o = gpu_tune_options("", {{256, 256, 1024}},
                                   {good[0], planted[0].config, planted[1].config, good[1], planted[2].config,
                                    planted[3].config, planted[4].config, good[2]});
  const auto dir = o.db.parent_path();

  jit::KernelCache cache;  // the user's cache: shared with the other GPU tests and runs
  const std::vector<std::string> argv = {planted_worker(), "worker", "--cache-dir", cache.dir().string()};
  WorkerTimeouts timeouts;
  timeouts.candidate_s = 15;  // what the planted hang costs
  nlohmann::json device;
  {
    WorkerBackend backend(argv, timeouts);
    CompileAhead source(cache, 2);
    const TuneResult r = run_tune(o, backend, source);
    device = backend.environment();
    EXPECT_EQ(r.tuned_now, 1u);
    EXPECT_EQ(r.measured, 8);
    EXPECT_EQ(r.failed, 5);
    EXPECT_GE(backend.worker_starts(), 5);  // a fresh worker after each of the four that took it down
  }

  ResultsDb db(o.db, db_environment(device, o.kernel_source_hash));
  const auto ms = db.measurements_of(o.shapes[0], Layout::tn, Accum::f32, "gemmforge", "estimate");
  ASSERT_EQ(ms.size(), 8u);
  auto planted_verdict = [&](Flaw f) {
    for (const auto& p : planted)
      if (p.flaw == f) return verdict_of(ms, p.config);
    return std::string("no such flaw");
  };
  EXPECT_NE(planted_verdict(Flaw::illegal_address).find("illegal memory access"), std::string::npos)
      << planted_verdict(Flaw::illegal_address);
  EXPECT_NE(planted_verdict(Flaw::illegal_address).find("CUDA context was lost"), std::string::npos);
  EXPECT_NE(planted_verdict(Flaw::device_trap).find("CUDA context was lost"), std::string::npos)
      << planted_verdict(Flaw::device_trap);
  EXPECT_NE(planted_verdict(Flaw::hang).find("timeout"), std::string::npos) << planted_verdict(Flaw::hang);
  EXPECT_NE(planted_verdict(Flaw::host_crash).find("signal 11"), std::string::npos) << planted_verdict(Flaw::host_crash);
  EXPECT_NE(planted_verdict(Flaw::skip_last_row).find("never written"), std::string::npos)
      << planted_verdict(Flaw::skip_last_row);
  for (const auto& g : good) {
    EXPECT_EQ(verdict_of(ms, g), "pass") << g.name();
    const auto m = db.find(o.shapes[0], Layout::tn, Accum::f32, "gemmforge", measured_name(g), "estimate");
    ASSERT_TRUE(m && m->median_us);
    EXPECT_GT(*m->median_us, 0);
  }

  const auto d = db.decision(o.shapes[0], Layout::tn, Accum::f32);
  ASSERT_TRUE(d.has_value());
  EXPECT_TRUE(d->outcome == "win" || d->outcome == "tie" || d->outcome == "loss") << d->outcome;
  EXPECT_TRUE(d->baseline_us.has_value());
  for (const auto& p : planted) EXPECT_NE(d->served, measured_name(p.config));
  const Table table = load_table(o.out, {db_environment(device, "").gpu, db_environment(device, "").arch,
                                         o.kernel_source_hash});
  EXPECT_EQ(table.exact.size(), 1u);

  // The same command again: the problem is done, nothing is measured.
  {
    WorkerBackend backend(argv, timeouts);
    CompileAhead source(cache, 2);
    const TuneResult again = run_tune(o, backend, source);
    EXPECT_EQ(again.already_done, 1u);
    EXPECT_EQ(again.measured, 0);
  }
  // A larger budget searches on, but the space holds nothing unmeasured: only the final again.
  o.budget += 4;
  {
    WorkerBackend backend(argv, timeouts);
    CompileAhead source(cache, 2);
    const TuneResult more = run_tune(o, backend, source);
    EXPECT_EQ(more.tuned_now, 1u);
    EXPECT_EQ(more.measured, 0);
    EXPECT_EQ(more.reused, 8);
  }
  std::filesystem::remove_all(dir);
}

// The baseline is autotuned once per problem in a worker: the final comparison runs the algorithm
// the estimate picked (the note names it), instead of timing every algorithm a second time.
TEST(TuneOnGpu, TheFinalRunsTheBaselinePickOfTheEstimate) {
  if (const std::string why = why_no_tune_gpu(); !why.empty()) GTEST_SKIP() << why;
  const TuneOptions o =
      gpu_tune_options("pick_", {{512, 512, 512}}, {testing::space_config(128, 128, 4, 2), testing::space_config(128, 64, 4, 2)});
  const auto dir = o.db.parent_path();
  jit::KernelCache cache;
  nlohmann::json device;
  {
    WorkerBackend backend({planted_worker(), "worker", "--cache-dir", cache.dir().string()}, WorkerTimeouts{});
    CompileAhead source(cache, 2);
    const TuneResult r = run_tune(o, backend, source);
    device = backend.environment();
    EXPECT_EQ(r.failed, 0);
    EXPECT_EQ(backend.worker_starts(), 1);
  }
  ResultsDb db(o.db, db_environment(device, o.kernel_source_hash));
  auto algo_of = [](const std::string& note) {  // "algo 3 of 8 returned, ..." -> "algo 3 of 8"
    const auto at = note.find("algo ");
    return at == std::string::npos ? std::string() : note.substr(at, note.find(" returned", at) - at);
  };
  const auto estimates = db.measurements_of(o.shapes[0], Layout::tn, Accum::f32, "cublaslt-autotune", "estimate");
  const auto finals = db.measurements_of(o.shapes[0], Layout::tn, Accum::f32, "cublaslt-autotune", "gpu");
  ASSERT_EQ(estimates.size(), 1u);
  ASSERT_EQ(finals.size(), 1u);
  EXPECT_FALSE(algo_of(estimates[0].note).empty()) << estimates[0].note;
  EXPECT_EQ(algo_of(finals[0].note), algo_of(estimates[0].note)) << finals[0].note << " | " << estimates[0].note;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace gemmforge::tune
