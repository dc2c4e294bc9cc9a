// The dispatch table the runtime library serves from (tables/*.json, written by the tuner): for
// exact (M, N, K, layout, accumulator) problems the kernel config that won, or "cublaslt" where
// no gemmforge kernel beat it; per shape class and layout, a rule for shapes the tuner never saw.
// A table belongs to one GPU model, architecture and kernel source: any other is refused.
#pragma once
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "core/kernel_candidate.hpp"
#include "core/sm80_config.hpp"
#include "core/shape.hpp"

namespace gemmforge {

inline constexpr const char* kTableSchema = "gemmforge.table/1";
// How the tuner's baseline (cuBLASLt-autotune) asks cuBLASLt for algorithms; the runtime asks the
// same way to find the algorithm a table names.
inline constexpr int kLtHeuristicCount = 100;
inline constexpr size_t kLtWorkspaceBytes = size_t(64) << 20;

// The fastest Hopper kernel of ours a tune measured on a problem whose entry names cuBLASLt (it
// lost or tied there), with its speedup then. Calls that cuBLASLt serves badly take it: a staged
// call (rows TMA cannot take, core/staging.hpp), whose cuBLASLt alternative runs without TMA at
// a quarter of the speed (session 33), is served by its aligned neighbour's kernel.
struct FastestKernel {
  KernelConfig config;
  LaunchKnobs knobs;
  double speedup = 0;  // against cuBLASLt-autotune when the table was made (below or about 1)
  bool operator==(const FastestKernel&) const = default;
  // Whether a staged call `distance` away (nearest_kernels' measure) takes it rather than the
  // kernels that won on tuned shapes further off: only if it nearly tied cuBLASLt on a shape close
  // to the call's. Session 34's call 1 (21 unaligned shapes, H100) took every fastest kernel by
  // distance alone: those near and close to cuBLASLt did better than the nearest winners (8191³
  // tn 1980 µs against 2422, 4096×11007×4096 tn 640 against 786), those that lost by more on
  // their own shape or sat far away did worse (1024×1024×1023 tn with 1024³'s at 0.70×: 14.4 µs
  // against 12.5; 77×32001×4096 tn with 64×16384×4096's, distance 1.0: 160 against 110).
  bool serves_staged_calls_at(double distance) const { return speedup >= 0.9 && distance <= 0.5; }
};

struct TableEntry {
  std::optional<KernelConfig> config;  // a Hopper kernel serves this problem
  std::optional<Sm80Config> sm80;      // an sm80-family kernel serves it; neither: cuBLASLt does
  double speedup = 0;                  // measured against cuBLASLt-autotune when the table was made
  LaunchKnobs knobs;                   // how the config is launched (raster group, split-K)
  // With no config: which of cuBLASLt's heuristic algorithms autotuning picked for this exact
  // problem (its index among up to kLtHeuristicCount asked for with kLtWorkspaceBytes of
  // workspace and 256-byte aligned operands); -1: the heuristic's first.
  int cublaslt_algo = -1;
  // The kernel is built for this entry's exact shape (JIT shape specialization); exact entries only.
  bool specialized = false;
  // Set by lookup() and nearest_kernels(): tuned for another shape (a class rule, a neighbour).
  bool from_rule = false;
  // Exact entries that name cuBLASLt only: our fastest kernel there, if the tune measured one.
  std::optional<FastestKernel> fastest;
  bool operator==(const TableEntry&) const = default;
  bool names_a_kernel() const { return config || sm80; }
  // The entry as if it named its fastest kernel, launched as it was measured; nullopt without one.
  std::optional<TableEntry> as_fastest() const;
};

struct Table {
  std::string gpu, arch, kernel_source_hash;
  std::map<std::tuple<int64_t, int64_t, int64_t, Layout, Accum>, TableEntry> exact;
  std::map<std::tuple<ShapeClass, Layout, Accum>, TableEntry> rules;

  // The entry for this problem: the exact one, else its class's rule, else nullopt.
  std::optional<TableEntry> lookup(const Shape&, Layout, Accum) const;
  // For a shape the table does not name: the Hopper kernels of the tuned shapes nearest to it
  // (same layout and accumulator; distance: the summed squares of log2 ratios of M, N and K),
  // nearest first, one entry per distinct config and launch, at most `count`. Each comes back
  // with from_rule set and specialized cleared: it was tuned for another shape. with_fastest:
  // a tuned shape whose entry names cuBLASLt counts with its fastest kernel, where that serves
  // staged calls at its distance (FastestKernel::serves_staged_calls_at).
  std::vector<TableEntry> nearest_kernels(const Shape&, Layout, Accum, size_t count, bool with_fastest = false) const;
  // Throws Error for an entry table_from_json would refuse (both kernel kinds, a specialized rule).
  nlohmann::json to_json() const;
};

// What the table must match to be used (the running GPU and the kernel headers in use).
struct TableExpectation {
  std::string gpu, arch, kernel_source_hash;
  // Accept a table made on another GPU model of the same architecture and kernel sources (its
  // kernels run here; its timings and decisions describe the other GPU).
  bool other_gpu_allowed = false;
};

// Reads and checks a table. Throws Error with the reason when the file is unreadable, not a
// table, made for another GPU (unless allowed), architecture or kernel source, or holds an
// invalid entry.
Table load_table(const std::filesystem::path&, const TableExpectation&);
Table table_from_json(const nlohmann::json&, const TableExpectation&);
// A table file as the tools that prepare tables read it (no GPU): expected to be of the GPU and
// architecture it names, and of `kernel_source_hash` (empty: the one it names). An Error about
// the file itself (unreadable, not JSON) names its path; about its content, the caller names it.
Table read_table_file(const std::filesystem::path&, const std::string& kernel_source_hash);

// The model a GPU's shipped table is named for: the first word of its name that is a letter
// followed by digits, up to its first character that is neither, in lower case ("NVIDIA H100 80GB
// HBM3" -> "h100", so tables/h100.json; "NVIDIA A100-SXM4-80GB" -> "a100"); "" if no word is.
std::string shipped_table_model(const std::string& gpu_name);

}  // namespace gemmforge
