// tune::add_fastest_kernels: beside each table entry that names cuBLASLt, the fastest of our
// kernels its decision measured (the best, else the runner-up when the best is sm80 or built for
// the one shape), with the speedup of the final round; entries that name a kernel are untouched.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>

#include "tune/fastest_kernels.hpp"

namespace gemmforge::tune {
namespace {

struct TempDb {
  std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("gemmforge_fastest_test_" + std::to_string(getpid()));
  TempDb() { std::filesystem::create_directories(dir); }
  ~TempDb() { std::filesystem::remove_all(dir); }
};

KernelCandidate hopper(int block_n, int splits = 1) {
  KernelConfig c;  // tn, f32
  c.block_n = block_n;
  LaunchKnobs k;
  k.splits = splits;
  return {c, k};
}

Decision lost(const Shape& s, const std::string& best, double best_us, const std::string& runner_up, double runner_up_us) {
  Decision d;
  d.shape = s;
  d.served = "cublaslt";
  d.outcome = "loss";
  d.best = best, d.best_us = best_us;
  d.runner_up = runner_up, d.runner_up_us = runner_up_us;
  d.baseline_us = 90;
  d.speedup = 90 / best_us;
  return d;
}

TEST(FastestKernels, EachCublasLtEntryKeepsTheFastestGenericHopperKernelItsDecisionMeasured) {
  TempDb tmp;
  ResultsDb db(tmp.dir / "tune.sqlite", {"NVIDIA H200", "sm_90a", "abc123", "580", "13.0"});
  const KernelCandidate fast = hopper(256, 2), second = hopper(128);
  const KernelCandidate special = hopper(192).specialized_for({2048, 2048, 2048});
  KernelCandidate nn = hopper(64);
  nn.config.layout = Layout::nn;
  for (const auto& c : {fast, second, special, nn}) db.add_candidate(c.name(), c.to_json().dump());
  db.record_decision(lost({4096, 4096, 4096}, fast.name(), 100, second.name(), 110));
  db.record_decision(lost({2048, 2048, 2048}, special.name(), 95, second.name(), 120));  // a build for one shape
  db.record_decision(lost({1024, 1024, 1024}, nn.name(), 95, "", 0));                   // another layout only
  Decision won = lost({512, 512, 512}, second.name(), 80, "", 0);
  won.served = second.name(), won.outcome = "win";
  db.record_decision(won);

  Table t;
  for (const Shape s : {Shape{4096, 4096, 4096}, Shape{2048, 2048, 2048}, Shape{1024, 1024, 1024}, Shape{8192, 8192, 8192}})
    t.exact[{s.M, s.N, s.K, Layout::tn, Accum::f32}] = TableEntry{};  // cuBLASLt
  t.exact[{512, 512, 512, Layout::tn, Accum::f32}].config = second.config;

  const FastestAdded r = add_fastest_kernels(t, db);
  EXPECT_EQ(r.cublaslt_entries, 4u);
  EXPECT_EQ(r.added, 2u);
  EXPECT_EQ(r.no_decision, 1u);   // 8192³
  EXPECT_EQ(r.none_generic, 1u);  // 1024³: its only kernel is nn
  const auto& big = t.exact.at({4096, 4096, 4096, Layout::tn, Accum::f32});
  ASSERT_TRUE(big.fastest);
  EXPECT_EQ(KernelCandidate(big.fastest->config, big.fastest->knobs).name(), fast.name());  // with its launch
  EXPECT_DOUBLE_EQ(big.fastest->speedup, 0.9);
  const auto& mid = t.exact.at({2048, 2048, 2048, Layout::tn, Accum::f32});
  ASSERT_TRUE(mid.fastest);  // the runner-up: the specialized build serves 2048³ alone
  EXPECT_EQ(mid.fastest->config, second.config);
  EXPECT_DOUBLE_EQ(mid.fastest->speedup, 0.75);
  EXPECT_FALSE(t.exact.at({512, 512, 512, Layout::tn, Accum::f32}).fastest);  // it names a kernel
  EXPECT_NO_THROW(table_from_json(t.to_json(), {"", "", ""}));  // what it wrote is a valid table
}

}  // namespace
}  // namespace gemmforge::tune
