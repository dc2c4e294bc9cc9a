#include "eval/gemm_impl.hpp"

#include <algorithm>
#include <map>

namespace gemmforge {

std::unique_ptr<GemmImpl> make_cublas(DeviceContext&);
std::unique_ptr<GemmImpl> make_cublaslt(DeviceContext&, bool autotune);

const std::vector<std::string>& cpp_impl_names() {
  static const std::vector<std::string> names = {"cublas", "cublaslt-heuristic", "cublaslt-autotune", "gemmforge"};
  return names;
}

namespace {
// Implementations that live above the evaluator (the runtime library), registered by the CLI.
std::map<std::string, ImplFactory>& registered() {
  static std::map<std::string, ImplFactory> r;
  return r;
}
}  // namespace

void register_impl(const std::string& name, ImplFactory factory) { registered()[name] = std::move(factory); }

bool is_known_impl(const std::string& name) {
  const auto& n = cpp_impl_names();
  return name == "torch" || registered().count(name) || std::find(n.begin(), n.end(), name) != n.end();
}


std::unique_ptr<GemmImpl> make_impl(const std::string& name, DeviceContext& ctx) {
  if (name == "cublas") return make_cublas(ctx);
  if (name == "cublaslt-heuristic") return make_cublaslt(ctx, false);
  if (name == "cublaslt-autotune") return make_cublaslt(ctx, true);
  if (auto it = registered().find(name); it != registered().end()) return it->second(ctx);
  // gemmforge's kernels are a sweep over configurations, set up by the CLI
  // (BenchOptions::gemmforge_candidates), not one fixed implementation.
  if (name == "gemmforge") throw Error("impl 'gemmforge' needs its kernel configurations set up (--configs)");
  throw Error("unknown implementation '" + name +
              "': choose from cublas, cublaslt-heuristic, cublaslt-autotune, torch, gemmforge");
}

}  // namespace gemmforge
