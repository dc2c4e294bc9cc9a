// The runtime library (gemmforge/gemm.hpp and gemm.h): its calls through the correctness gate,
// with and without a table, a CUDA-graph capture, a foreign table, and the C API's statuses.
// The C API test runs everywhere: without a GPU it must say so through its status.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>
#include <vector>

#include "core/records.hpp"
#include "eval/cuda_check.hpp"
#include "eval/verify.hpp"
#include "gemmforge/gemm.h"
#include "gemmforge/gemm.hpp"
#include "gpu_test_env.hpp"
#include "jit/cache_key.hpp"
#include "runtime/sm90_kernel.hpp"
#include "runtime/table.hpp"

namespace gemmforge::testing {
namespace {

// The handle as an evaluator implementation, so the gate can judge what hgemm computes.
class RuntimeCall final : public GemmImpl {
 public:
  RuntimeCall(Handle& h, DeviceContext& ctx) : h_(h), ctx_(ctx) {}
  std::string name() const override { return "runtime"; }
  void prepare(const Problem& p, const std::vector<Operands>&) override {
    p_ = p;
    info_ = h_.plan(p.shape.M, p.shape.N, p.shape.K, p.layout);
  }
  void run(const Operands& o) override {
    h_.hgemm(p_.shape.M, p_.shape.N, p_.shape.K, o.A, o.B, o.C, p_.layout, ctx_.stream());
  }
  const PlanInfo& info() const { return info_; }

 private:
  Handle& h_;
  DeviceContext& ctx_;
  Problem p_;
  PlanInfo info_;
};

// A table for the running GPU and kernel sources that sends a few shapes to gemmforge kernels.
TableEntry entry(const KernelConfig& c) {
  TableEntry e;
  e.config = c;
  e.speedup = 1.0;
  return e;
}

std::filesystem::path write_table(const DeviceContext& ctx, const std::string& gpu_name) {
  Table t;
  t.gpu = gpu_name;
  t.arch = "sm_" + std::to_string(ctx.info().cc_major) + std::to_string(ctx.info().cc_minor) + "a";
  t.kernel_source_hash = jit::include_dirs_fingerprint({kernel_include_dir()});
  KernelConfig tn;
  tn.tma_store = true;
  KernelConfig nn = tn;
  nn.layout = Layout::nn;
  for (const Shape& s : {Shape{4096, 4096, 4096}, Shape{77, 1000, 4104}, Shape{4095, 12289, 64}}) {
    t.exact[{s.M, s.N, s.K, Layout::tn, Accum::f32}] = entry(tn);
    t.exact[{s.M, s.N, s.K, Layout::nn, Accum::f32}] = entry(nn);
  }
  t.rules[{ShapeClass::large, Layout::tn, Accum::f32}] = entry(tn);
  // A tuned entry naming cuBLASLt for a shape whose C rows TMA cannot take (the tuner times
  // packed operands, so it never saw a staged kernel there): the call is staged all the same.
  TableEntry lt_entry;
  lt_entry.speedup = 1.0;
  t.exact[{4096, 4095, 4096, Layout::tn, Accum::f32}] = lt_entry;
  // cuBLASLt serves 2048×4096×4096 tn, and our fastest kernel there (a ping-pong tile) is kept:
  // a staged call of its odd-K neighbour takes that kernel.
  TableEntry lt_with_fastest = lt_entry;
  KernelConfig pingpong = tn;
  pingpong.mode = ConsumerMode::pingpong;
  lt_with_fastest.fastest = FastestKernel{pingpong, {}, 0.95};
  t.exact[{2048, 4096, 4096, Layout::tn, Accum::f32}] = lt_with_fastest;
  // Split-K entries whose workspaces are laid out differently (counters for 128 tile parts
  // against 8), so that calling them on one stream would catch a workspace shared by shapes.
  KernelConfig split;
  TableEntry y = entry(split), x = entry(split);
  y.knobs.splits = 3;
  x.knobs.splits = 32;
  t.exact[{1024, 1024, 2048, Layout::tn, Accum::f32}] = y;
  TableEntry with_pdl = entry(split);  // launched with programmatic dependent launch
  with_pdl.knobs.pdl = true;
  t.exact[{2048, 2048, 512, Layout::tn, Accum::f32}] = with_pdl;
  t.exact[{256, 256, 16384, Layout::tn, Accum::f32}] = x;
  // The sm80 family: one kernel built for its shape, one scalar-load build that takes N = 7 in nn.
  TableEntry built_for_shape;
  built_for_shape.sm80 = Sm80Config{};
  built_for_shape.specialized = true;
  t.exact[{64, 128, 64, Layout::tn, Accum::f32}] = built_for_shape;
  Sm80Config scalar;
  scalar.layout = Layout::nn, scalar.vec16 = false, scalar.stages = 2;
  scalar.block_m = 32, scalar.block_n = 32, scalar.warps_m = 1, scalar.warps_n = 2;
  TableEntry odd;
  odd.sm80 = scalar;
  t.exact[{77, 7, 72, Layout::nn, Accum::f32}] = odd;
  const auto path = std::filesystem::temp_directory_path() / ("gemmforge_runtime_table_" + gpu_name.substr(0, 6) + ".json");
  write_file_atomically(path, t.to_json().dump(1));
  return path;
}

void expect_gate_passes(Handle& h, DeviceContext& ctx, const Shape& s, Layout l, const std::string& backend) {
  ShapeBuffers buf(s, false, ctx.info().l2_bytes, ctx.stream());
  RuntimeCall call(h, ctx);
  call.prepare(Problem{s, l, Accum::f32}, {buf.guarded()});
  EXPECT_EQ(call.info().backend, backend) << to_string(s) << " " << to_string(l) << ": " << call.info().detail;
  CorrectnessGate gate(ctx, buf, Accum::f32, GateOptions{});
  const Verdict v = gate.check({{&call, l}})[0];
  EXPECT_TRUE(v.passed()) << to_string(s) << " " << to_string(l) << " (" << call.info().detail << "): " << v.text();
}

// The plan of a shape whose first call is made while a stream is captured into a graph (plans
// made then are never measured: measuring synchronizes).
PlanInfo plan_made_in_a_capture(Handle& h, DeviceContext& ctx, const Shape& s, Layout l) {
  ShapeBuffers buf(s, false, ctx.info().l2_bytes, ctx.stream());
  const Operands o = buf.guarded();
  cudaStream_t stream = nullptr;
  GF_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  cudaGraph_t graph = nullptr;
  GF_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  h.hgemm(s.M, s.N, s.K, o.A, o.B, o.C, l, stream);
  GF_CUDA(cudaStreamEndCapture(stream, &graph));
  cudaGraphDestroy(graph);
  cudaStreamDestroy(stream);
  return h.plan(s.M, s.N, s.K, l);
}

TEST(Runtime, WithoutATableEveryShapeGoesToCublasLtAndPassesTheGate) {
  GF_REQUIRE_GPU(ctx);
  Handle h(HandleOptions{"none", true});
  EXPECT_NE(h.table_status().find("no table"), std::string::npos) << h.table_status();
  for (const Shape& s : {Shape{1, 1, 8}, Shape{7, 77, 1000}, Shape{77, 4095, 1}, Shape{1000, 1000, 1000}})
    for (Layout l : {Layout::nn, Layout::tn}) expect_gate_passes(h, *ctx, s, l, "cublaslt");
}

TEST(Runtime, TableShapesRunGemmforgeKernelsAndPassTheGate) {
  GF_REQUIRE_GPU(ctx);
  if (ctx->info().cc_major != 9) GTEST_SKIP() << "needs an sm_90 GPU";
  Handle h(HandleOptions{write_table(*ctx, ctx->info().name).string(), true});
  EXPECT_NE(h.table_status().find("13 shapes, 1 class rules"), std::string::npos) << h.table_status();
  expect_gate_passes(h, *ctx, {4096, 4096, 4096}, Layout::tn, "gemmforge");
  expect_gate_passes(h, *ctx, {4096, 4096, 4096}, Layout::nn, "gemmforge");
  expect_gate_passes(h, *ctx, {77, 1000, 4104}, Layout::tn, "gemmforge");
  expect_gate_passes(h, *ctx, {4095, 12289, 64}, Layout::nn, "cublaslt");  // N % 8: TMA cannot describe C
  expect_gate_passes(h, *ctx, {8192, 4096, 4096}, Layout::tn, "gemmforge");  // the large-class rule
  expect_gate_passes(h, *ctx, {8192, 4096, 4096}, Layout::nn, "cublaslt");   // no nn rule
}

// Calls whose rows TMA cannot take (K or N not a multiple of 8) are staged at 16-byte row strides
// (core/staging.hpp) where it pays, and served by the Hopper kernel of their aligned neighbour's
// entry or rule, else of the nearest tuned shape; small ones go to cuBLASLt as they are. Every
// one through the gate, and bit for bit the same when replayed from a graph.
TEST(Runtime, StagedCallsServeOddRowsWithTheNeighboursKernel) {
  GF_REQUIRE_GPU(ctx);
  if (ctx->info().cc_major != 9) GTEST_SKIP() << "needs an sm_90 GPU";
  Handle h(HandleOptions{write_table(*ctx, ctx->info().name).string(), true});
  struct Case {
    Shape shape;
    Layout layout;
    const char* backend;
    const char* staged;  // nullptr: not staged
  };
  const Case cases[] = {
      {{4096, 4096, 4095}, Layout::tn, "gemmforge", "its neighbour's entry, staged: A and B copied in"},  // 4096³'s
      {{4096, 4096, 4095}, Layout::nn, "gemmforge", "its neighbour's entry, staged: A copied in"},
      {{8192, 4095, 4096}, Layout::tn, "gemmforge", "its neighbour's class rule, staged: C copied out"},
      {{8192, 4095, 4096}, Layout::nn, "gemmforge", "a nearby shape's kernel, staged: B copied in, C copied out"},
      {{4096, 4095, 4096}, Layout::tn, "gemmforge", "its neighbour's entry, staged: C copied out"},  // its entry: cuBLASLt
      {{2048, 4096, 4095}, Layout::tn, "gemmforge",
       "pingpong_1x1_tmastore; its neighbour's fastest kernel (cuBLASLt is served there), staged: A and B copied in"},
      {{77, 1000, 4100}, Layout::tn, "cublaslt", nullptr},  // copies of B would cost more than they save
      {{1, 1, 1}, Layout::tn, "cublaslt", nullptr},
      {{7, 77, 1001}, Layout::nn, "cublaslt", nullptr},
  };
  for (const Case& c : cases) {
    expect_gate_passes(h, *ctx, c.shape, c.layout, c.backend);
    const std::string detail = h.plan(c.shape.M, c.shape.N, c.shape.K, c.layout).detail;
    if (c.staged) EXPECT_NE(detail.find(c.staged), std::string::npos) << to_string(c.shape) << ": " << detail;
    else EXPECT_EQ(detail.find("staged:"), std::string::npos) << to_string(c.shape) << ": " << detail;
  }
  // A direct call and its replay from a graph give the same C, for a kernel and for cuBLASLt.
  for (const Case& c : {cases[0], cases[2], cases[3], cases[5]}) {  // staged kernels, and cuBLASLt as it is
    const Shape& s = c.shape;
    ShapeBuffers buf(s, false, ctx->info().l2_bytes, ctx->stream());
    buf.fill_for_timing(11, ctx->stream());
    const Operands o = buf.guarded();
    const size_t bytes = size_t(s.M * s.N) * 2;
    h.hgemm(s.M, s.N, s.K, o.A, o.B, o.C, c.layout, ctx->stream());
    GF_CUDA(cudaStreamSynchronize(ctx->stream()));
    std::vector<unsigned char> direct(bytes), replayed(bytes);
    GF_CUDA(cudaMemcpy(direct.data(), o.C, bytes, cudaMemcpyDeviceToHost));
    GF_CUDA(cudaMemsetAsync(o.C, 0, bytes, ctx->stream()));
    cudaGraph_t graph = nullptr;
    cudaGraphExec_t exec = nullptr;
    GF_CUDA(cudaStreamBeginCapture(ctx->stream(), cudaStreamCaptureModeGlobal));
    h.hgemm(s.M, s.N, s.K, o.A, o.B, o.C, c.layout, ctx->stream());
    GF_CUDA(cudaStreamEndCapture(ctx->stream(), &graph));
    GF_CUDA(cudaGraphInstantiate(&exec, graph, 0));
    GF_CUDA(cudaGraphLaunch(exec, ctx->stream()));
    GF_CUDA(cudaStreamSynchronize(ctx->stream()));
    GF_CUDA(cudaMemcpy(replayed.data(), o.C, bytes, cudaMemcpyDeviceToHost));
    EXPECT_EQ(direct, replayed) << to_string(s) << " " << to_string(c.layout);
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
  }
  // A staged shape's first call on a stream places its copies, so it cannot be captured; the
  // error says what to do, and nothing was enqueued. (First of the test's new streams: a stream
  // made after another was destroyed may get its handle value, which the library would take for
  // the same stream.)
  ShapeBuffers buf({8192, 4095, 4096}, false, ctx->info().l2_bytes, ctx->stream());
  const Operands o = buf.guarded();
  cudaStream_t stream = nullptr;
  GF_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  cudaGraph_t graph = nullptr;
  GF_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  try {
    h.hgemm(8192, 4095, 4096, o.A, o.B, o.C, Layout::tn, stream);
    ADD_FAILURE() << "a staged first call inside a capture should be refused";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("make one call of this shape on the stream before capturing"), std::string::npos)
        << e.what();
  }
  GF_CUDA(cudaStreamEndCapture(stream, &graph));
  size_t nodes = 1;
  GF_CUDA(cudaGraphGetNodes(graph, nullptr, &nodes));
  EXPECT_EQ(nodes, 0u);
  cudaGraphDestroy(graph);
  cudaStreamDestroy(stream);
  // Two streams at once on one staged shape, each with its own inputs: each stream stages into
  // its own buffer, so each C is what the call alone gives.
  {
    const Shape s = cases[2].shape;
    ShapeBuffers one(s, false, ctx->info().l2_bytes, ctx->stream()), two(s, false, ctx->info().l2_bytes, ctx->stream());
    one.fill_for_timing(21, ctx->stream());
    two.fill_for_timing(22, ctx->stream());
    const size_t bytes = size_t(s.M * s.N) * 2;
    std::vector<unsigned char> alone_one(bytes), alone_two(bytes), together_one(bytes), together_two(bytes);
    auto call = [&](const ShapeBuffers& b, cudaStream_t st) {
      const Operands o = b.guarded();
      h.hgemm(s.M, s.N, s.K, o.A, o.B, o.C, Layout::tn, st);
    };
    auto read = [&](const ShapeBuffers& b, std::vector<unsigned char>& out) {
      GF_CUDA(cudaMemcpy(out.data(), b.guarded().C, bytes, cudaMemcpyDeviceToHost));
    };
    GF_CUDA(cudaStreamSynchronize(ctx->stream()));
    call(one, ctx->stream());
    GF_CUDA(cudaStreamSynchronize(ctx->stream()));
    call(two, ctx->stream());
    GF_CUDA(cudaStreamSynchronize(ctx->stream()));
    read(one, alone_one);
    read(two, alone_two);
    cudaStream_t s1 = nullptr, s2 = nullptr;
    GF_CUDA(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
    GF_CUDA(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    for (int i = 0; i < 3; ++i) {
      call(one, s1);
      call(two, s2);
    }
    GF_CUDA(cudaStreamSynchronize(s1));
    GF_CUDA(cudaStreamSynchronize(s2));
    read(one, together_one);
    read(two, together_two);
    EXPECT_EQ(alone_one, together_one);
    EXPECT_EQ(alone_two, together_two);
    EXPECT_NE(alone_one, alone_two);
    cudaStreamDestroy(s1);
    cudaStreamDestroy(s2);
  }
  // Switched off, the same calls go to cuBLASLt as they are.
  HandleOptions off{write_table(*ctx, ctx->info().name).string(), true};
  off.stage_unaligned = false;
  Handle unstaged(off);
  expect_gate_passes(unstaged, *ctx, {8192, 4095, 4096}, Layout::tn, "cublaslt");
  EXPECT_EQ(unstaged.plan(8192, 4095, 4096, Layout::tn).detail.find("staged"), std::string::npos);
}

// Table entries of the sm80 family, one built for its exact shape, served through hgemm.
TEST(Runtime, Sm80AndShapeSpecializedEntriesServeTheirShapes) {
  GF_REQUIRE_GPU(ctx);
  if (ctx->info().cc_major != 9) GTEST_SKIP() << "needs an sm_90 GPU";
  Handle h(HandleOptions{write_table(*ctx, ctx->info().name).string(), true});
  expect_gate_passes(h, *ctx, {64, 128, 64}, Layout::tn, "gemmforge");
  const PlanInfo fixed = h.plan(64, 128, 64, Layout::tn);
  EXPECT_NE(fixed.detail.find("sm80_tn_f32_64x64x32_w2x2_s3_v16_at64x128x64"), std::string::npos) << fixed.detail;
  expect_gate_passes(h, *ctx, {77, 7, 72}, Layout::nn, "gemmforge");
  const PlanInfo odd = h.plan(77, 7, 72, Layout::nn);
  EXPECT_NE(odd.detail.find("sm80_nn_f32_32x32x32_w1x2_s2_v2"), std::string::npos) << odd.detail;
  EXPECT_EQ(odd.detail.find("_at"), std::string::npos) << odd.detail;
  // The same shape in the other layout is not in the table and has no rule: cuBLASLt.
  expect_gate_passes(h, *ctx, {64, 128, 64}, Layout::nn, "cublaslt");
}

TEST(Runtime, AForeignTableIsRefusedAndEverythingStillWorks) {
  GF_REQUIRE_GPU(ctx);
  Handle h(HandleOptions{write_table(*ctx, "Some Other GPU").string(), true});
  EXPECT_NE(h.table_status().find("not used"), std::string::npos) << h.table_status();
  EXPECT_NE(h.table_status().find("Some Other GPU"), std::string::npos) << h.table_status();
  expect_gate_passes(h, *ctx, {4096, 4096, 4096}, Layout::tn, "cublaslt");
}

// Allowed in (HandleOptions::table_from_other_gpu), another GPU model's table serves its kernels
// only: every plan, the table's own shapes included, is measured on this GPU, and what it picks
// passes the gate; a plan made during a capture is not measured and serves the table's entry.
TEST(Runtime, AnotherGpusTableServesMeasuredPlansWhenAllowed) {
  GF_REQUIRE_GPU(ctx);
  if (ctx->info().cc_major != 9) GTEST_SKIP() << "needs an sm_90 GPU";
  HandleOptions options{write_table(*ctx, "Some Other GPU").string(), true};
  options.table_from_other_gpu = true;
  Handle h(options);
  EXPECT_NE(h.table_status().find("made on Some Other GPU"), std::string::npos) << h.table_status();
  for (const Shape& s : {Shape{4096, 4096, 4096}, Shape{77, 1000, 4104}, Shape{3000, 3000, 3000}})
    for (Layout l : {Layout::tn, Layout::nn}) {
      const PlanInfo info = h.plan(s.M, s.N, s.K, l);
      EXPECT_NE(info.detail.find("measured at plan time"), std::string::npos) << info.detail;
      EXPECT_NE(info.detail.find("gemmforge's best"), std::string::npos) << info.detail;
      if (info.backend == "gemmforge") {
        EXPECT_NE(info.detail.find("(correctness gate: pass)"), std::string::npos) << info.detail;
      }
      expect_gate_passes(h, *ctx, s, l, info.backend);
    }
  const Shape s{2048, 2048, 512};  // in the table (launched with PDL), not planned yet
  const PlanInfo captured = plan_made_in_a_capture(h, *ctx, s, Layout::tn);
  EXPECT_NE(captured.detail.find("not measured"), std::string::npos) << captured.detail;
  EXPECT_EQ(captured.backend, "gemmforge") << captured.detail;
  expect_gate_passes(h, *ctx, s, Layout::tn, "gemmforge");
}

// With no table named, a handle takes the one shipped for its GPU model (tables/h200.json on an
// H200, tables/h100.json on an H100 80GB HBM3); the kernels that table names pass the gate
// through hgemm. A model with no table gets none, and one whose model word finds another GPU's
// table (an H100 PCIe finds the H100 80GB HBM3's) refuses it: cuBLASLt serves every call.
TEST(Runtime, TheShippedTableServesItsShapes) {
  GF_REQUIRE_GPU(ctx);
  if (std::getenv("GEMMFORGE_TABLE")) GTEST_SKIP() << "GEMMFORGE_TABLE overrides the shipped table";
  if (std::getenv("GEMMFORGE_TABLE_FROM_OTHER_GPU")) GTEST_SKIP() << "GEMMFORGE_TABLE_FROM_OTHER_GPU lets another GPU's table in";
  Handle h;
  const std::string file = "tables/" + shipped_table_model(ctx->info().name) + ".json";
  std::filesystem::path path;
  try {
    path = find_data_file(file);
  } catch (const Error&) {
    EXPECT_FALSE(h.has_table()) << h.table_status();
    EXPECT_NE(h.table_status().find("no table"), std::string::npos) << h.table_status();
    return;
  }
  const auto table = nlohmann::json::parse(std::ifstream(path));
  if (table.at("gpu").get<std::string>() != ctx->info().name) {
    EXPECT_FALSE(h.has_table()) << h.table_status();
    EXPECT_NE(h.table_status().find("table not used"), std::string::npos) << h.table_status();
    return;
  }
  ASSERT_TRUE(h.has_table()) << h.table_status();
  ASSERT_NE(h.table_status().find(file), std::string::npos) << h.table_status();
  int served = 0;
  for (const auto& e : table.at("entries")) {
    if (e.at("config").is_string() || served == 6) continue;
    const Shape s{e.at("M").get<int64_t>(), e.at("N").get<int64_t>(), e.at("K").get<int64_t>()};
    if (s.M * s.N * s.K > (int64_t(1) << 33)) continue;  // keep the test quick
    expect_gate_passes(h, *ctx, s, parse_layout(e.at("layout").get<std::string>()), "gemmforge");
    ++served;
  }
  EXPECT_GT(served, 0);
}

// Split-K shapes one after another on one stream, each with its own workspace layout, and a
// captured graph that must still work after another shape's workspace is made.
TEST(Runtime, SplitKShapesShareAStreamAndGraphsOutliveNewWorkspaces) {
  GF_REQUIRE_GPU(ctx);
  if (ctx->info().cc_major != 9) GTEST_SKIP() << "needs an sm_90 GPU";
  Handle h(HandleOptions{write_table(*ctx, ctx->info().name).string(), true});
  const Shape y{1024, 1024, 2048}, x{256, 256, 16384};
  ASSERT_NE(h.plan(y.M, y.N, y.K, Layout::tn).detail.find("_k3"), std::string::npos) << h.plan(y.M, y.N, y.K, Layout::tn).detail;
  for (const Shape& s : {y, x, y, x}) expect_gate_passes(h, *ctx, s, Layout::tn, "gemmforge");

  ShapeBuffers buf(y, false, ctx->info().l2_bytes, ctx->stream());
  buf.fill_for_timing(5, ctx->stream());
  const Operands o = buf.guarded();
  const size_t bytes = size_t(y.M * y.N) * 2;
  cudaStream_t stream = nullptr;
  GF_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  h.hgemm(y.M, y.N, y.K, o.A, o.B, o.C, Layout::tn, stream);
  GF_CUDA(cudaStreamSynchronize(stream));
  std::vector<unsigned char> direct(bytes), replayed(bytes);
  GF_CUDA(cudaMemcpy(direct.data(), o.C, bytes, cudaMemcpyDeviceToHost));
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  GF_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  h.hgemm(y.M, y.N, y.K, o.A, o.B, o.C, Layout::tn, stream);
  GF_CUDA(cudaStreamEndCapture(stream, &graph));
  GF_CUDA(cudaGraphInstantiate(&exec, graph, 0));
  {  // another split-K shape on the same stream: its workspace is new, the graph's is kept
    ShapeBuffers other(x, false, ctx->info().l2_bytes, ctx->stream());
    other.fill_for_timing(6, ctx->stream());
    h.hgemm(x.M, x.N, x.K, other.guarded().A, other.guarded().B, other.guarded().C, Layout::tn, stream);
    GF_CUDA(cudaStreamSynchronize(stream));
  }
  GF_CUDA(cudaMemsetAsync(o.C, 0, bytes, stream));
  GF_CUDA(cudaGraphLaunch(exec, stream));
  GF_CUDA(cudaStreamSynchronize(stream));
  GF_CUDA(cudaMemcpy(replayed.data(), o.C, bytes, cudaMemcpyDeviceToHost));
  EXPECT_EQ(direct, replayed);
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  cudaStreamDestroy(stream);
}

// The sliced sum makes the parts of a tile wait for one another. Two such launches on two streams,
// each a full wave of CTAs, would deadlock if each held SMs the other's waited-for parts need; the
// cooperative launch rules that out. Both streams' results must also be bit-identical.
TEST(Runtime, SlicedSplitKOnTwoStreamsAtOnceFinishes) {
  GF_REQUIRE_GPU(ctx);
  if (ctx->info().cc_major != 9) GTEST_SKIP() << "needs an sm_90 GPU";
  Handle h(HandleOptions{write_table(*ctx, ctx->info().name).string(), true});
  const Shape s{256, 256, 16384};  // the table's 32-way split: a wave of parts per launch
  const std::string detail = h.plan(s.M, s.N, s.K, Layout::tn).detail;
  ASSERT_NE(detail.find("_k32"), std::string::npos) << detail;
  ASSERT_EQ(detail.find("_lastsum"), std::string::npos) << detail;
  ShapeBuffers one(s, false, ctx->info().l2_bytes, ctx->stream()), two(s, false, ctx->info().l2_bytes, ctx->stream());
  one.fill_for_timing(8, ctx->stream());
  two.fill_for_timing(8, ctx->stream());
  GF_CUDA(cudaStreamSynchronize(ctx->stream()));
  cudaStream_t streams[2] = {nullptr, nullptr};
  for (auto& st : streams) GF_CUDA(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  for (int i = 0; i < 50; ++i) {
    h.hgemm(s.M, s.N, s.K, one.guarded().A, one.guarded().B, one.guarded().C, Layout::tn, streams[0]);
    h.hgemm(s.M, s.N, s.K, two.guarded().A, two.guarded().B, two.guarded().C, Layout::tn, streams[1]);
  }
  // A deadlocked GPU never finishes: wait a bounded time, and leave the process if it is stuck
  // (tearing down the handle would wait forever).
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  for (auto st : streams) {
    cudaError_t e = cudaErrorNotReady;
    while ((e = cudaStreamQuery(st)) == cudaErrorNotReady && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    if (e == cudaErrorNotReady) {
      ADD_FAILURE() << "the two streams' split-K launches did not finish in 30 s: deadlocked";
      std::fflush(stdout);
      std::_Exit(1);
    }
    GF_CUDA(e);
  }
  const size_t bytes = size_t(s.M * s.N) * 2;
  std::vector<unsigned char> a(bytes), b(bytes);
  GF_CUDA(cudaMemcpy(a.data(), one.guarded().C, bytes, cudaMemcpyDeviceToHost));
  GF_CUDA(cudaMemcpy(b.data(), two.guarded().C, bytes, cudaMemcpyDeviceToHost));
  EXPECT_EQ(a, b);
  // Finishing proves little if the two grids happened to run one after the other: check the
  // launch itself asks for co-residency, on the kernel node a capture of one call makes.
  cudaGraph_t graph = nullptr;
  GF_CUDA(cudaStreamBeginCapture(streams[0], cudaStreamCaptureModeGlobal));
  h.hgemm(s.M, s.N, s.K, one.guarded().A, one.guarded().B, one.guarded().C, Layout::tn, streams[0]);
  GF_CUDA(cudaStreamEndCapture(streams[0], &graph));
  size_t count = 0;
  GF_CUDA(cudaGraphGetNodes(graph, nullptr, &count));
  std::vector<cudaGraphNode_t> nodes(count);
  GF_CUDA(cudaGraphGetNodes(graph, nodes.data(), &count));
  int cooperative_kernels = 0;
  for (cudaGraphNode_t node : nodes) {
    cudaGraphNodeType type{};
    GF_CUDA(cudaGraphNodeGetType(node, &type));
    if (type != cudaGraphNodeTypeKernel) continue;
    cudaKernelNodeAttrValue value{};
    GF_CUDA(cudaGraphKernelNodeGetAttribute(node, cudaKernelNodeAttributeCooperative, &value));
    cooperative_kernels += value.cooperative != 0;
  }
  EXPECT_EQ(cooperative_kernels, 1) << count << " nodes";
  cudaGraphDestroy(graph);
  for (auto st : streams) cudaStreamDestroy(st);
  expect_gate_passes(h, *ctx, s, Layout::tn, "gemmforge");
}

TEST(Runtime, ACallCapturedInAGraphReplaysTheSameResult) {
  GF_REQUIRE_GPU(ctx);
  Handle h(HandleOptions{ctx->info().cc_major == 9 ? write_table(*ctx, ctx->info().name).string() : "none", true});
  for (const Shape& s : {Shape{4096, 4096, 4096}, Shape{1000, 1000, 1000}}) {
    ShapeBuffers buf(s, false, ctx->info().l2_bytes, ctx->stream());
    buf.fill_for_timing(7, ctx->stream());
    const Operands o = buf.guarded();
    const size_t bytes = size_t(s.M * s.N) * 2;
    cudaStream_t stream = nullptr;
    GF_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    h.hgemm(s.M, s.N, s.K, o.A, o.B, o.C, Layout::tn, stream);  // direct call (plan and workspace made)
    GF_CUDA(cudaStreamSynchronize(stream));
    std::vector<unsigned char> direct(bytes), replayed(bytes);
    GF_CUDA(cudaMemcpy(direct.data(), o.C, bytes, cudaMemcpyDeviceToHost));
    GF_CUDA(cudaMemsetAsync(o.C, 0, bytes, stream));
    cudaGraph_t graph = nullptr;
    cudaGraphExec_t exec = nullptr;
    GF_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
    h.hgemm(s.M, s.N, s.K, o.A, o.B, o.C, Layout::tn, stream);
    GF_CUDA(cudaStreamEndCapture(stream, &graph));
    GF_CUDA(cudaGraphInstantiate(&exec, graph, 0));
    GF_CUDA(cudaGraphLaunch(exec, stream));
    GF_CUDA(cudaStreamSynchronize(stream));
    GF_CUDA(cudaMemcpy(replayed.data(), o.C, bytes, cudaMemcpyDeviceToHost));
    EXPECT_EQ(direct, replayed) << to_string(s) << ": " << h.plan(s.M, s.N, s.K, Layout::tn).detail;
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
    cudaStreamDestroy(stream);
  }
}

// Repeated calls replayed from graphs (HandleOptions::replay): they pass the gate, which calls
// on the same buffers with new inputs (a replay must read them, not what the capture saw), and
// give bit for bit what direct calls give, on two streams, for each backend.
TEST(Runtime, RepeatedCallsReplayedFromGraphsPassTheGateAndMatchDirectCalls) {
  GF_REQUIRE_GPU(ctx);
  const std::string table = ctx->info().cc_major == 9 ? write_table(*ctx, ctx->info().name).string() : "none";
  HandleOptions direct{table, true};
  direct.replay = HandleOptions::Replay::off;
  Handle d(direct);
  std::vector<std::pair<Shape, std::string>> cases = {{{1000, 1000, 1000}, "cublaslt"}, {{96, 520, 72}, "cublaslt"}};
  if (ctx->info().cc_major == 9)  // a Hopper kernel, split-K, sm80 built for its shape, and PDL
    cases.insert(cases.end(), {{{4096, 4096, 4096}, "gemmforge"},
                               {{1024, 1024, 2048}, "gemmforge"},
                               {{64, 128, 64}, "gemmforge"},
                               {{2048, 2048, 512}, "gemmforge"}});
  cudaStream_t streams[2]{};
  for (auto& st : streams) GF_CUDA(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  {
    HandleOptions replayed{table, true};
    replayed.replay = HandleOptions::Replay::all;
    Handle h(replayed);
    for (const auto& [s, backend] : cases) {
      expect_gate_passes(h, *ctx, s, Layout::tn, backend);
      ShapeBuffers buf(s, false, ctx->info().l2_bytes, ctx->stream());
      buf.fill_for_timing(11, ctx->stream());
      GF_CUDA(cudaStreamSynchronize(ctx->stream()));
      const Operands o = buf.guarded();
      const size_t bytes = size_t(s.M * s.N) * 2;
      std::vector<unsigned char> want(bytes), got(bytes);
      d.hgemm(s.M, s.N, s.K, o.A, o.B, o.C, Layout::tn, streams[0]);
      GF_CUDA(cudaStreamSynchronize(streams[0]));
      GF_CUDA(cudaMemcpy(want.data(), o.C, bytes, cudaMemcpyDeviceToHost));
      for (cudaStream_t st : streams)
        for (int call = 0; call < 4; ++call) {  // direct, captured, then replayed
          GF_CUDA(cudaMemsetAsync(o.C, 0, bytes, st));
          h.hgemm(s.M, s.N, s.K, o.A, o.B, o.C, Layout::tn, st);
          GF_CUDA(cudaStreamSynchronize(st));
          GF_CUDA(cudaMemcpy(got.data(), o.C, bytes, cudaMemcpyDeviceToHost));
          EXPECT_EQ(want, got) << to_string(s) << " call " << call;
        }
      const PlanInfo info = h.plan(s.M, s.N, s.K, Layout::tn);
      EXPECT_NE(info.detail.find("replayed from CUDA graphs"), std::string::npos) << to_string(s) << ": " << info.detail;
      EXPECT_EQ(info.detail.find(" 0 replays"), std::string::npos) << to_string(s) << ": " << info.detail;
    }
  }
  for (auto st : streams) cudaStreamDestroy(st);
  if (ctx->info().cc_major == 9) {  // the default replays the PDL kernel's calls only after an idle gap
    const Shape s{2048, 2048, 512};
    Handle h(HandleOptions{table, true});
    EXPECT_NE(h.plan(s.M, s.N, s.K, Layout::tn).detail.find("pdl"), std::string::npos);
    ShapeBuffers buf(s, false, ctx->info().l2_bytes, ctx->stream());
    buf.fill_for_timing(12, ctx->stream());
    GF_CUDA(cudaStreamSynchronize(ctx->stream()));
    const Operands o = buf.guarded();
    const size_t bytes = size_t(s.M * s.N) * 2;
    std::vector<unsigned char> want(bytes), got(bytes);
    d.hgemm(s.M, s.N, s.K, o.A, o.B, o.C, Layout::tn, ctx->stream());
    GF_CUDA(cudaStreamSynchronize(ctx->stream()));
    GF_CUDA(cudaMemcpy(want.data(), o.C, bytes, cudaMemcpyDeviceToHost));
    for (int call = 0; call < 4; ++call) {  // back to back (launched directly, unless the host stalled)
      GF_CUDA(cudaMemsetAsync(o.C, 0, bytes, ctx->stream()));
      h.hgemm(s.M, s.N, s.K, o.A, o.B, o.C, Layout::tn, ctx->stream());
    }
    GF_CUDA(cudaStreamSynchronize(ctx->stream()));
    GF_CUDA(cudaMemcpy(got.data(), o.C, bytes, cudaMemcpyDeviceToHost));
    EXPECT_EQ(want, got) << "back to back";
    for (int call = 0; call < 4; ++call) {  // each after an idle gap far longer than the 20 µs window
      GF_CUDA(cudaMemsetAsync(o.C, 0, bytes, ctx->stream()));
      GF_CUDA(cudaStreamSynchronize(ctx->stream()));
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
      h.hgemm(s.M, s.N, s.K, o.A, o.B, o.C, Layout::tn, ctx->stream());
      GF_CUDA(cudaStreamSynchronize(ctx->stream()));
      GF_CUDA(cudaMemcpy(got.data(), o.C, bytes, cudaMemcpyDeviceToHost));
      EXPECT_EQ(want, got) << "after a gap, call " << call;
    }
    const PlanInfo info = h.plan(s.M, s.N, s.K, Layout::tn);
    EXPECT_NE(info.detail.find("replayed from CUDA graphs, unless back to back"), std::string::npos) << info.detail;
    EXPECT_EQ(info.detail.find(" 0 made"), std::string::npos) << info.detail;
    EXPECT_EQ(info.detail.find(" 0 replays"), std::string::npos) << info.detail;
    HandleOptions never{table, true};
    never.replay = HandleOptions::Replay::except_pdl;
    EXPECT_EQ(Handle(never).plan(s.M, s.N, s.K, Layout::tn).detail.find("replayed"), std::string::npos);
  }
}

// Shapes the table does not name, measured when their plan is made: the plan says what was
// timed, what it picked passes the gate, table shapes are not measured, and a plan first made
// inside a graph capture is not measured (measuring synchronizes).
TEST(Runtime, NewShapesAreMeasuredWhenTheirPlanIsMade) {
  GF_REQUIRE_GPU(ctx);
  if (ctx->info().cc_major != 9) GTEST_SKIP() << "needs an sm_90 GPU";
  HandleOptions options{write_table(*ctx, ctx->info().name).string(), true};
  options.measure_new_shapes = true;
  Handle h(options);
  // Every tn shape has the nearest tuned kernels among its candidates (8000x4000x4000 also the
  // large-class rule's), and so do nn shapes (the table's nn entries).
  for (const Shape& s : {Shape{3000, 3000, 3000}, Shape{8000, 4000, 4000}, Shape{77, 1000, 4000}})
    for (Layout l : {Layout::tn, Layout::nn}) {
      const PlanInfo info = h.plan(s.M, s.N, s.K, l);
      EXPECT_NE(info.detail.find("measured at plan time"), std::string::npos) << info.detail;
      EXPECT_NE(info.detail.find("gemmforge's best"), std::string::npos) << info.detail;
      if (info.backend == "gemmforge") {  // chosen only after the gate passed it on this shape
        EXPECT_NE(info.detail.find("(correctness gate: pass)"), std::string::npos) << info.detail;
      }
      expect_gate_passes(h, *ctx, s, l, info.backend);
    }
  EXPECT_EQ(h.plan(4096, 4096, 4096, Layout::tn).detail.find("measured"), std::string::npos);

  // A call whose rows are staged is measured as a staged call (copies included) against cuBLASLt
  // on its operands as they are; on these shapes cuBLASLt's unaligned kernel is 4-6x slower.
  for (const auto& [odd, l] : {std::pair{Shape{8192, 4095, 4096}, Layout::tn}, std::pair{Shape{4095, 4096, 4095}, Layout::nn}}) {
    const PlanInfo info = h.plan(odd.M, odd.N, odd.K, l);
    EXPECT_EQ(info.backend, "gemmforge") << info.detail;
    for (const char* part : {"measured at plan time", "(correctness gate: pass)", ", staged: "})
      EXPECT_NE(info.detail.find(part), std::string::npos) << part << " in " << info.detail;
    expect_gate_passes(h, *ctx, odd, l, "gemmforge");
  }

  const Shape s{999, 1000, 1000};
  const PlanInfo captured = plan_made_in_a_capture(h, *ctx, s, Layout::tn);
  EXPECT_NE(captured.detail.find("not measured"), std::string::npos) << captured.detail;
  expect_gate_passes(h, *ctx, s, Layout::tn, captured.backend);
}

TEST(CApi, ReportsStatusesAndMessages) {
  gemmforge_handle_t h = nullptr;
  const gemmforge_status_t created = gemmforge_create(&h, nullptr);
  if (!probe_gpu().present) {  // CI: the library must say there is no GPU, not crash
    EXPECT_EQ(created, GEMMFORGE_ERROR_NO_GPU);
    EXPECT_NE(std::string(gemmforge_last_error()).find("GPU"), std::string::npos) << gemmforge_last_error();
    EXPECT_EQ(h, nullptr);
    return;
  }
  ASSERT_EQ(created, GEMMFORGE_OK) << gemmforge_last_error();
  EXPECT_EQ(gemmforge_hgemm(nullptr, 8, 8, 8, nullptr, nullptr, nullptr, GEMMFORGE_LAYOUT_TN, nullptr),
            GEMMFORGE_ERROR_INVALID_VALUE);
  EXPECT_NE(std::string(gemmforge_last_error()).find("handle"), std::string::npos);
  void* buf = nullptr;
  ASSERT_EQ(cudaMalloc(&buf, 3 * 64 * 64 * 2), cudaSuccess);
  auto* half = static_cast<unsigned char*>(buf);
  EXPECT_EQ(gemmforge_hgemm(h, 0, 64, 64, half, half, half, GEMMFORGE_LAYOUT_TN, nullptr), GEMMFORGE_ERROR_INVALID_VALUE);
  EXPECT_NE(std::string(gemmforge_last_error()).find("at least 1"), std::string::npos) << gemmforge_last_error();
  EXPECT_EQ(gemmforge_hgemm(h, 64, 64, 64, half, half + 8192, half + 16384, gemmforge_layout_t(7), nullptr),
            GEMMFORGE_ERROR_INVALID_VALUE);
  EXPECT_EQ(gemmforge_hgemm(h, 64, 64, 64, half, half + 8192, half + 16384, GEMMFORGE_LAYOUT_TN, nullptr), GEMMFORGE_OK)
      << gemmforge_last_error();
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  cudaFree(buf);
  EXPECT_EQ(gemmforge_destroy(h), GEMMFORGE_OK);
  EXPECT_EQ(gemmforge_create(nullptr, nullptr), GEMMFORGE_ERROR_INVALID_VALUE);
}

}  // namespace
}  // namespace gemmforge::testing
