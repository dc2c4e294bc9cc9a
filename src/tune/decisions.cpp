#include "tune/decisions.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>

#include "core/records.hpp"
#include "core/stats.hpp"

namespace gemmforge::tune {
namespace {

std::string fmt(const char* f, double v) {
  char b[64];
  std::snprintf(b, sizeof b, f, v);
  return b;
}

std::string opt_csv(const std::optional<double>& v) { return v ? fmt("%.4f", *v) : std::string(); }

}  // namespace

// Split-K pays only when the output tiles cannot fill the SMs (design.md section 4: "split-K
// only when tiles < SMs"), and it is tried only where two parts or more fit one wave (tiles at
// most half the SMs). The count is the kernel's own rule (auto_splits: the most that fit
// the SMs in one wave, each part keeping a few K blocks), so the tuner measures what the runtime would
// pick, capped by the user's --max-splits.
int split_count(const KernelConfig& c, const Shape& s, const Residency& r, int max_splits) {
  return std::max(1, std::min(auto_splits(c, s.M, s.N, s.K, r), max_splits));
}

std::vector<KernelCandidate> launch_variants(const KernelConfig& c, const Shape& s, const Residency& r, int max_splits) {
  // Every variant launches with PDL: it never changes results (the kernel waits for the previous
  // one before touching memory), and in the split-k-v3 sweeps it was 6.5% faster on tall-K
  // (geomean of best-with over best-without) and even on skinny shapes. Stream-K is not tried:
  // it won no shape in split-k-v2, nor in session 29 on 16 shapes whose last wave leaves a
  // quarter of the SMs idle (1.1-1.3x slower than the whole-tile launch with the last-arriver
  // sum, 1.3-4.4x with the sliced one, whose waits chain CTA to CTA under stream-K).
  // Shared tiles are summed in slices by all their parts (the kernel's default; launched
  // cooperatively, so the parts that wait for one another all run at once), as the runtime
  // library runs them. In the full-grid run the last-arriver sum was 0.62-0.83x cuBLASLt on the
  // tall-K shapes the sliced sum had won (bench/results/2026-11-29-h200-lib-grid).
  LaunchKnobs plain;
  plain.pdl = true;
  std::vector<KernelCandidate> out = {{c, plain}};
  if (const int k = split_count(c, s, r, max_splits); k > 1) {
    LaunchKnobs split = plain;
    split.splits = k;
    out.push_back({c, split});
    // The same parts summed inside a cluster (no trips through global memory), where the config
    // can take it; auto_splits' count capped at a cluster's largest size.
    if (const LaunchKnobs in_cluster = cluster_reduced(split); launch_problem(c, in_cluster).empty())
      out.push_back({c, in_cluster});
  }
  return out;
}

// Tiny shapes are bound by launch latency and prologue (design.md section 4), where the sm80
// family's small CTAs won 81 of the 128 tiny (shape, layout) pairs of the split-k-v3 bench run.
// Elsewhere the Hopper kernels are the faster family, so the whole budget stays with them.
int sm80_measurements(const Shape& s, int budget, bool hopper_can_serve) {
  if (budget < 1) return 0;
  if (!hopper_can_serve) return budget;
  return classify(s) == ShapeClass::tiny ? (budget + 1) / 2 : 0;
}

Decision decide(const Shape& s, Layout l, Accum a, const std::vector<Contender>& candidates,
                const std::optional<EntryResult>& baseline, double min_tie, int budget) {
  Decision d;
  d.shape = s;
  d.layout = l;
  d.acc = a;
  d.budget = budget;
  d.served = "cublaslt";
  std::vector<const Contender*> passing;
  for (const auto& c : candidates)
    if (c.result.verdict == "pass" && c.result.median_us && *c.result.median_us > 0) passing.push_back(&c);
  // The interleaved rounds, not the search's estimates, say which finalist is faster.
  std::stable_sort(passing.begin(), passing.end(),
                   [](const Contender* x, const Contender* y) { return *x->result.median_us < *y->result.median_us; });
  if (baseline && baseline->verdict == "pass" && baseline->median_us && *baseline->median_us > 0)
    d.baseline_us = baseline->median_us;
  if (passing.empty()) {
    d.outcome = "no-candidate";
    return d;
  }
  d.best = passing[0]->name;
  d.best_us = passing[0]->result.median_us;
  if (passing.size() > 1) {
    d.runner_up = passing[1]->name;
    d.runner_up_us = passing[1]->result.median_us;
  }
  if (!d.baseline_us) {
    d.outcome = "no-baseline";  // nothing honest to compare with: the table keeps cuBLASLt
    return d;
  }
  d.speedup = *d.baseline_us / *d.best_us;
  d.tie_band = std::max(min_tie, passing[0]->result.spread() + baseline->spread());
  if (d.speedup > 1 + d.tie_band) {
    d.outcome = "win";
    d.served = d.best;
  } else {
    d.outcome = d.speedup >= 1 - d.tie_band ? "tie" : "loss";
  }
  return d;
}

std::vector<std::string> rule_contenders(const std::vector<Decision>& decisions, size_t max) {
  std::map<std::string, std::vector<double>> wins;
  for (const auto& d : decisions)
    if (d.outcome == "win" && d.served != "cublaslt" && d.speedup > 0) wins[d.served].push_back(d.speedup);
  std::vector<std::pair<std::string, std::vector<double>>> ranked(wins.begin(), wins.end());
  std::stable_sort(ranked.begin(), ranked.end(), [](const auto& x, const auto& y) {
    if (x.second.size() != y.second.size()) return x.second.size() > y.second.size();
    return geometric_mean(x.second) > geometric_mean(y.second);
  });
  std::vector<std::string> out;
  for (size_t i = 0; i < ranked.size() && i < max; ++i) out.push_back(ranked[i].first);
  return out;
}

RuleChoice choose_rule(const std::vector<RuleEvidence>& evidence, double min_tie) {
  RuleChoice best;
  std::string notes;
  for (const auto& e : evidence) {
    if (!e.disqualified.empty()) {
      notes += e.candidate + ": " + e.disqualified + "; ";
      continue;
    }
    if (e.speedups.empty() || 2 * int(e.speedups.size()) < e.servable) {
      notes += e.candidate + ": measured on " + std::to_string(e.speedups.size()) + " of " +
               std::to_string(e.servable) + " shapes; ";
      continue;
    }
    const double g = geometric_mean(e.speedups);
    if (g > 1 + min_tie && (!best.candidate || g > best.geomean)) {
      best.candidate = e.candidate;
      best.geomean = g;
    }
  }
  if (best.candidate) {
    best.why = "best geometric-mean speedup over the class's tuned shapes it serves: " + fmt("%.3f", best.geomean);
  } else {
    best.geomean = 1;
    best.why = "no candidate beats cuBLASLt-autotune over the class's tuned shapes" +
               (notes.empty() ? std::string() : " (" + notes.substr(0, notes.size() - 2) + ")");
  }
  return best;
}

std::vector<ClassSummary> summarize_decisions(const std::vector<Decision>& decisions) {
  struct Acc {
    ClassSummary s;
    std::vector<double> best, served;
  };
  std::map<std::pair<std::string, std::string>, Acc> groups;  // (layout, class)
  for (const auto& d : decisions) {
    for (const std::string& cls : {to_string(classify(d.shape)), std::string("all")}) {
      Acc& g = groups[{to_string(d.layout), cls == "all" ? "~all" : cls}];  // "~": "all" sorts last
      g.s.shape_class = cls;
      g.s.layout = to_string(d.layout);
      ++g.s.problems;
      if (d.outcome == "win") ++g.s.wins;
      else if (d.outcome == "tie") ++g.s.ties;
      else if (d.outcome == "loss") ++g.s.losses;
      else ++g.s.undecided;
      if (d.speedup > 0) {
        g.best.push_back(d.speedup);
        g.served.push_back(d.outcome == "win" ? d.speedup : 1.0);
      }
    }
  }
  std::vector<ClassSummary> out;
  for (auto& [key, g] : groups) {
    if (!g.best.empty()) {
      g.s.geomean_best = geometric_mean(g.best);
      g.s.geomean_served = geometric_mean(g.served);
    }
    out.push_back(g.s);
  }
  return out;
}

std::string render_summary(const std::vector<ClassSummary>& rows) {
  std::ostringstream o;
  o << "layout  class      problems  wins  ties  losses  undecided  geomean best  geomean served\n";
  for (const auto& r : rows) {
    char line[160];
    std::snprintf(line, sizeof line, "%-7s %-10s %8d %5d %5d %7d %10d %12s %15s\n", r.layout.c_str(),
                  r.shape_class.c_str(), r.problems, r.wins, r.ties, r.losses, r.undecided,
                  r.geomean_best > 0 ? fmt("%.3fx", r.geomean_best).c_str() : "-",
                  r.geomean_served > 0 ? fmt("%.3fx", r.geomean_served).c_str() : "-");
    o << line;
  }
  o << "Speedups are against cuBLASLt-autotune, interleaved in one process (gpu mode); a tie is within\n"
       "max(1%, the two spreads) of 1, and then the table names cuBLASLt. 'served' counts those as 1.\n";
  return o.str();
}

nlohmann::json summary_json(const std::vector<ClassSummary>& rows) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& r : rows)
    out.push_back({{"class", r.shape_class}, {"layout", r.layout}, {"problems", r.problems}, {"wins", r.wins},
                   {"ties", r.ties}, {"losses", r.losses}, {"undecided", r.undecided},
                   {"geomean_best", r.geomean_best}, {"geomean_served", r.geomean_served}});
  return out;
}

std::string decisions_csv(const std::vector<Decision>& decisions) {
  std::string out =
      "M,N,K,layout,acc,class,outcome,served,best,best_us,runner_up,runner_up_us,baseline_us,speedup,tie_band,budget\n";
  for (const auto& d : decisions) {
    out += std::to_string(d.shape.M) + "," + std::to_string(d.shape.N) + "," + std::to_string(d.shape.K) + "," +
           to_string(d.layout) + "," + to_string(d.acc) + "," + csv_text(to_string(classify(d.shape))) + "," +
           d.outcome + "," + csv_text(d.served) + "," + csv_text(d.best) + "," + opt_csv(d.best_us) + "," +
           csv_text(d.runner_up) + "," + opt_csv(d.runner_up_us) + "," + opt_csv(d.baseline_us) + "," +
           fmt("%.4f", d.speedup) + "," + fmt("%.4f", d.tie_band) + "," + std::to_string(d.budget) + "\n";
  }
  return out;
}

}  // namespace gemmforge::tune
