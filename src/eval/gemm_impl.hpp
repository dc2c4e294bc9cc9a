// What the evaluator measures: an implementation of C = A·B for one problem at a time.
// The baselines (cuBLAS, cuBLASLt) and gemmforge's own kernels all plug in here.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "eval/buffers.hpp"
#include "eval/device.hpp"

namespace gemmforge {

struct Problem {
  Shape shape;
  Layout layout = Layout::nn;
  Accum acc = Accum::f32;
};

class GemmImpl {
 public:
  virtual ~GemmImpl() = default;
  virtual std::string name() const = 0;
  // Chooses what to run for this problem (algorithm, plan); may time candidates on the given
  // operand sets. Throws gemmforge::Error if the problem is not supported.
  virtual void prepare(const Problem&, const std::vector<Operands>& sets) = 0;
  // Enqueues C = A·B on the context's stream for the prepared problem. Must not synchronize,
  // allocate, or touch any other stream: it has to be capturable in a CUDA graph.
  virtual void run(const Operands&) = 0;
  // What was chosen, for the result records (e.g. "algo 2 of 8 timed").
  virtual std::string note() const { return {}; }
  // How the last prepare() launches (grid, clusters), for sweep logs; empty when not applicable.
  virtual std::string launch_detail() const { return {}; }
};

// Names accepted by --impl (baselines first). "torch" is measured by a Python script instead.
const std::vector<std::string>& cpp_impl_names();
bool is_known_impl(const std::string& name);
std::unique_ptr<GemmImpl> make_impl(const std::string& name, DeviceContext&);
// Adds an implementation by name (e.g. the runtime library, which is built on the evaluator).
using ImplFactory = std::function<std::unique_ptr<GemmImpl>(DeviceContext&)>;
void register_impl(const std::string& name, ImplFactory);

}  // namespace gemmforge
