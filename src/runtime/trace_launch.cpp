#include "runtime/trace_launch.hpp"

#include <cstdio>

#include "eval/event_pair.hpp"
#include "eval/verify.hpp"
#include "runtime/sm90_kernel.hpp"

namespace gemmforge {

jit::CompileRequest traced_request(const KernelConfig& c) {
  jit::CompileRequest r = compile_request(c);
  r.name += " (traced)";
  r.extra_options.push_back("-DGEMMFORGE_TRACE");
  return r;
}

TracedLaunch trace_launch(DeviceContext& ctx, const KernelConfig& config, const LaunchKnobs& knobs, const Shape& shape,
                          jit::KernelCache& cache, int warmup) {
  const Problem problem{shape, config.layout, config.acc};
  if (auto why = why_not_supported(config, problem); !why.empty()) throw Error(why);
  const auto compiled = jit::compile_cached(traced_request(config), cache);
  if (!compiled.ok) throw Error("the traced build did not compile:\n" + compiled.log);
  if (compiled.spill_bytes > 0) std::fprintf(stderr, "  note: the traced build spills %d bytes\n", compiled.spill_bytes);
  auto loaded = Sm90Kernel::load(config, compiled.cubin);
  const auto buffer = loaded->global(kTraceBufferSymbol);
  if (!buffer) throw Error("the traced build has no " + std::string(kTraceBufferSymbol) + " buffer");
  Sm90Kernel kernel(ctx, config, knobs, loaded);
  ShapeBuffers buffers(shape, false, ctx.info().l2_bytes, ctx.stream());
  kernel.prepare(problem, {buffers.set(0)});
  // The stamps must not change what the kernel computes: the full gate first.
  CorrectnessGate gate(ctx, buffers, config.acc, GateOptions{});
  const auto verdict = gate.check({{&kernel, config.layout}}).front();
  if (!verdict.passed()) throw Error("the traced build fails the correctness gate: " + verdict.text());
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
