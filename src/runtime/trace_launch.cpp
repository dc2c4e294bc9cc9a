#include "runtime/trace_launch.hpp"

#include <array>
#include <cstdio>

#include "eval/event_pair.hpp"
#include "eval/verify.hpp"
#include "runtime/sm90_kernel.hpp"

namespace gemmforge {

namespace {
constexpr std::array<std::pair<Ablation, const char*>, 7> kAblationNames{{{Ablation::kNone, "none"},
                                                                          {Ablation::kWholeEpilogue, "epilogue"},
                                                                          {Ablation::kStoreIssue, "store-issue"},
                                                                          {Ablation::kStaging, "staging"},
                                                                          {Ablation::kProxyFence, "proxy-fence"},
                                                                          {Ablation::kMma, "mma"},
                                                                          {Ablation::kLoads, "loads"}}};
}  // namespace

Ablation parse_ablation(const std::string& name) {
  for (const auto& [a, n] : kAblationNames)
    if (name == n) return a;
  throw Error("unknown part to leave out '" + name + "': none, epilogue, store-issue, staging or proxy-fence");
}

std::string to_string(Ablation a) {
  for (const auto& [x, n] : kAblationNames)
    if (x == a) return n;
  return "?";
}

jit::CompileRequest traced_request(const KernelConfig& c, const TraceOptions& options) {
  jit::CompileRequest r = compile_request(c);
  r.name += " (traced)";
  r.extra_options.push_back("-DGEMMFORGE_TRACE");
  if (options.kblock_stamps) {
    r.name += " (k-block stamps)";
    r.extra_options.push_back("-DGEMMFORGE_TRACE_KBLOCKS");
  }
  if (options.ablation != Ablation::kNone) {
    r.name += " (without " + to_string(options.ablation) + ")";
    r.extra_options.push_back("-DGEMMFORGE_ABLATE=" + std::to_string(int(options.ablation)));
  }
  return r;
}

TracedLaunch trace_launch(DeviceContext& ctx, const KernelConfig& config, const LaunchKnobs& knobs, const Shape& shape,
                          jit::KernelCache& cache, int warmup, const TraceOptions& options) {
  const Problem problem{shape, config.layout, config.acc};
  if (auto why = why_not_supported(config, problem); !why.empty()) throw Error(why);
  ShapeBuffers buffers(shape, false, ctx.info().l2_bytes, ctx.stream());
  auto load_traced = [&](Ablation part) {
    const auto compiled = jit::compile_cached(traced_request(config, {part, options.kblock_stamps}), cache);
    if (!compiled.ok) throw Error("the traced build did not compile:\n" + compiled.log);
    if (compiled.spill_bytes > 0)
      std::fprintf(stderr, "  note: the traced build spills %d bytes\n", compiled.spill_bytes);
    auto loaded = Sm90Kernel::load(config, compiled.cubin);
    if (!loaded->global(kTraceBufferSymbol))
      throw Error("the traced build has no " + std::string(kTraceBufferSymbol) + " buffer");
    return loaded;
  };
  const auto complete_build = load_traced(Ablation::kNone);
  {
    // The stamps must not change what the kernel computes: the full gate first, on the complete
    // traced build even when a part is to be left out (that build computes a wrong C by design).
    Sm90Kernel complete(ctx, config, knobs, complete_build);
    complete.prepare(problem, {buffers.set(0)});
    CorrectnessGate gate(ctx, buffers, config.acc, GateOptions{});
    const auto verdict = gate.check({{&complete, config.layout}}).front();
    if (!verdict.passed()) throw Error("the traced build fails the correctness gate: " + verdict.text());
  }
  const auto loaded = options.ablation == Ablation::kNone ? complete_build : load_traced(options.ablation);
  const auto buffer = loaded->global(kTraceBufferSymbol);
  Sm90Kernel kernel(ctx, config, knobs, loaded);
  if (options.smem_pad > 0) kernel.pad_shared_memory(options.smem_pad);
  kernel.prepare(problem, {buffers.set(0)});
  buffers.fill_for_timing(7, ctx.stream());
  const Operands ops = buffers.set(0);
  for (int i = 0; i < warmup; ++i) kernel.run(ops);
  // Zeroed, then one more launch before the traced one: with PDL the traced launch then starts
  // under a running kernel, as it would in a stream of calls. The traced launch overwrites the
  // earlier one's stamps; the epilogue's sums and their call count add over both, so their
  // averages per call are over both launches.
  GF_CUDA(cudaMemsetAsync(reinterpret_cast<void*>(buffer->address), 0, buffer->bytes, ctx.stream()));
  kernel.run(ops);
  EventPair ev;
  GF_CUDA(cudaEventRecord(ev.begin, ctx.stream()));
  kernel.run(ops);
  GF_CUDA(cudaEventRecord(ev.end, ctx.stream()));
  std::vector<uint64_t> words(buffer->bytes / sizeof(uint64_t));
  GF_CUDA(cudaMemcpyAsync(words.data(), reinterpret_cast<void*>(buffer->address), words.size() * sizeof(uint64_t),
                          cudaMemcpyDeviceToHost, ctx.stream()));
  GF_CUDA(cudaStreamSynchronize(ctx.stream()));
  TracedLaunch t;
  t.event_us = ev.elapsed_us();
  t.launch = kernel.launch_detail();
  t.summary = summarize_trace(words, int(kernel.grid_ctas()));
  return t;
}

}  // namespace gemmforge
