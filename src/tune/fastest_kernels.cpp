#include "tune/fastest_kernels.hpp"

#include "tune/tuner.hpp"

namespace gemmforge::tune {

FastestAdded add_fastest_kernels(Table& t, const ResultsDb& db) {
  FastestAdded r;
  for (auto& [key, e] : t.exact) {
    if (e.names_a_kernel()) continue;
    ++r.cublaslt_entries;
    const auto& [M, N, K, layout, acc] = key;
    const auto d = db.decision(Shape{M, N, K}, layout, acc);
    if (!d) {
      ++r.no_decision;
      continue;
    }
    e.fastest.reset();
    for (const auto& [name, us] : {std::pair{d->best, d->best_us}, std::pair{d->runner_up, d->runner_up_us}}) {
      if (name.empty() || !us || !d->baseline_us || *us <= 0) continue;
      const auto c = candidate_named(db, name);
      if (!c || !c->hopper() || c->specialized() || c->layout() != layout || c->acc() != acc) continue;
      e.fastest = FastestKernel{c->config, c->knobs, *d->baseline_us / *us};
      break;
    }
    if (e.fastest)
      ++r.added;
    else
      ++r.none_generic;
  }
  return r;
}

}  // namespace gemmforge::tune
