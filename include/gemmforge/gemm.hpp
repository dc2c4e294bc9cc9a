// gemmforge's runtime library: fp16 matrix multiplication C = A·B dispatched per shape to the
// kernel the tuner found best (a dispatch table, tables/*.json), else to cuBLASLt.
//
//   gemmforge::Handle h;                                   // once per process and GPU
//   h.hgemm(M, N, K, A, B, C, gemmforge::Layout::tn, stream);
//
// Matrices are row-major fp16 with fp32 accumulation. Layout tn: B is N×K (x·Wᵀ, a linear
// layer); nn: B is K×N (torch.matmul(a, b)). Any M, N, K ≥ 1 is served: shapes the table does not
// name go to its class rule or cuBLASLt; operands whose row strides TMA cannot take (K or N not a
// multiple of 8) are staged at padded strides first (HandleOptions::stage_unaligned).
#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include <cuda_fp16.h>
#include <cuda_runtime_api.h>

#include "gemmforge/types.hpp"

namespace gemmforge {

struct HandleOptions {
  // A dispatch table. Empty: $GEMMFORGE_TABLE if set, else the table shipped for this GPU model
  // (tables/h200.json on an H200, tables/h100.json on an H100 80GB HBM3), else none. "none": no table (every call goes to cuBLASLt).
  // A table made for another GPU or other kernel sources, or a damaged one, is not used: the
  // handle falls back to cuBLASLt and table_status() says why.
  std::string table;
  bool use_gemmforge_kernels = true;  // false: cuBLASLt for everything (a reference run)
  // A shape the table does not name is measured when its plan is made: cuBLASLt's algorithms
  // (as cuBLASLt-autotune does) and the gemmforge kernels that won on the nearest tuned shapes
  // are timed on scratch operands, and the fastest serves it (a kernel only when it beats
  // cuBLASLt's best by more than 1% and then passes the correctness gate on this shape). This
  // costs 0.1-1 s per new shape (seconds for the largest, whose gate reference is slow; more when
  // a kernel has to be compiled), and it waits for the whole device (scratch memory is freed):
  // make such plans with plan() before a hot path or a graph capture. A plan made during a
  // capture is not measured. Off: the class rule or cuBLASLt's heuristic serves new shapes.
  // $GEMMFORGE_MEASURE_NEW_SHAPES=1 or =0 overrides this (anything else: UsageError).
  bool measure_new_shapes = false;
  // A table made on another GPU of the same architecture and kernel sources (the H200's on an
  // H100) is used for its kernels only: its timings describe the other GPU, so every plan is
  // measured when it is made, as a new shape's is above: the kernels of the shape's entry, its
  // class rule and its nearest tuned shapes against cuBLASLt's algorithms, on this GPU, the
  // winning kernel through the correctness gate (0.1-1 s per plan; the table's sm80-family
  // kernels are not timed). A plan made during a graph capture is not measured and serves the
  // table's entry. Off: such a table is refused and cuBLASLt serves every call.
  // $GEMMFORGE_TABLE_FROM_OTHER_GPU=1 or =0 overrides this (anything else: UsageError).
  bool table_from_other_gpu = false;
  // Calls repeated with the same operands on the same stream, outside a graph capture, can be
  // replayed from a CUDA graph made on the second such call: one cudaGraphLaunch then takes the
  // place of the backend's own launch, which costs less host time (cuBLASLt's path most) and
  // starts sooner after an idle gap. The first call with new operands is launched directly; up
  // to 16 operand sets per shape and layout keep a graph. Kernels launched with programmatic
  // dependent launch (PDL) start their prologue under the previous kernel's tail when launched
  // directly, which a graph launch gives up: back-to-back calls of such kernels were 11% slower
  // replayed, isolated ones 12% faster. `except_pdl_back_to_back`: every call but a PDL kernel's
  // that comes within 20 µs of the handle's previous call on its stream returning (so the
  // previous kernel may still run; the host clock decides, the device is not queried);
  // `except_pdl`: every call but a PDL kernel's; `all`: every call; `off`: none.
  // $GEMMFORGE_REPLAY=off|except-pdl|except-pdl-back-to-back|all overrides this (else UsageError).
  // A call whose K, or whose N, is not a multiple of 8 has rows that TMA cannot load (it needs
  // 16-byte row strides), and cuBLASLt then falls back to kernels 4-5x slower per FLOP. Staged,
  // each such operand is copied on the call's stream into a buffer with rows padded to 16 bytes
  // (A and B in, C out), and the call runs at full speed on those: as its aligned neighbour
  // (N and K rounded up to multiples of 8) is served by one of the table's Hopper kernels, on the
  // real dimensions; only where that should pay (at least 0.5 GFLOP, and copies cheap beside
  // cuBLASLt's unaligned kernel: core/staging.hpp), and never with another GPU's table. The copies
  // go to one buffer per stream, as large as the largest staged call on it needs (up to A, B and C
  // together; when a larger one is needed it grows by half again, and earlier ones are kept, since
  // graphs may point at them). A shape's first call on a stream places its copies and therefore
  // must not be captured. The copies' time is part of the call's. With measure_new_shapes, the
  // staged plan is measured too (each candidate kernel timed as a staged call, copies included).
  // Off: such calls go to cuBLASLt as they are.
  // $GEMMFORGE_STAGE_UNALIGNED=1 or =0 overrides this (anything else: UsageError).
  bool stage_unaligned = true;
  enum class Replay { off, except_pdl, except_pdl_back_to_back, all };
  Replay replay = Replay::except_pdl_back_to_back;
};

// What serves one problem.
struct PlanInfo {
  std::string backend;  // "gemmforge" or "cublaslt"
  std::string detail;   // the kernel config, or cuBLASLt's algorithm; and why, for fallbacks
};

class Handle {
 public:
  // Binds to the calling thread's current CUDA device; later calls must come from threads whose
  // current device is the same (else UsageError). A thread's first call makes that device's
  // primary context current (cudaSetDevice); a thread that later switches to another context of
  // the same device through the driver API must switch back before calling. Throws NoGpuError
  // without a usable GPU.
  // Destroying the handle waits for the device; graphs that captured its calls must not be
  // launched after that.
  explicit Handle(const HandleOptions& = {});
  ~Handle();
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;

  // Enqueues C = A·B on `stream` and returns. Thread-safe. The first call for a (M, N, K, layout)
  // makes its plan (a kernel may be compiled, ~1 s, cached on disk; call plan() ahead of time to
  // keep it out of a hot path). After that a call synchronizes nothing and allocates nothing on
  // the device, so it can be captured in a CUDA graph; the cuBLASLt fallback gets its workspace
  // on a stream's first uncaptured call (a captured first call runs without workspace). Calls on
  // one stream, and graphs captured from it, share that stream's workspace: do not run two such
  // graphs, or a graph and direct calls, at the same time on different streams. With replays on
  // (HandleOptions::replay), the second uncaptured call with a set of operands on a stream also
  // captures the call into a graph of the handle's own (host work, once per set: a stream
  // capture and a graph instantiation, 17-91 µs, median 31 µs, on the H200 machine).
  // A and B need 16-byte alignment for gemmforge kernels (else cuBLASLt serves the call).
  void hgemm(int64_t M, int64_t N, int64_t K, const __half* A, const __half* B, __half* C, Layout layout,
             cudaStream_t stream);

  // Makes (if needed) and describes the plan for this problem.
  PlanInfo plan(int64_t M, int64_t N, int64_t K, Layout layout);
  // Which table is in use, or why none is.
  std::string table_status() const;
  // Whether a dispatch table is in use (false: every call goes to cuBLASLt; table_status() says why).
  bool has_table() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace gemmforge
