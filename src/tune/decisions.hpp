// The tuner's decisions, as pure functions of measurements (tested on CPU with synthetic ones):
// which split-K launches to try, when a win is a tie, which candidate a shape class's rule
// names, and the per-class summary.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/kernel_candidate.hpp"
#include "core/shape.hpp"
#include "search/results_db.hpp"
#include "tune/worker_protocol.hpp"

namespace gemmforge::tune {

// The split count tried beside a config's unsplit launch on this shape; 1 means none.
int split_count(const KernelConfig&, const Shape&, const Residency&, int max_splits);
// The launches measured for a config the search proposes: unsplit, then split when it pays.
std::vector<KernelCandidate> launch_variants(const KernelConfig&, const Shape&, const Residency&, int max_splits);

// How many of a problem's `budget` measurements go to sm80-family configs: none where the Hopper
// family can serve the shape and it is not tiny, half (rounded up) on tiny shapes, all of them
// where no Hopper config can serve it (e.g. strides TMA cannot take).
int sm80_measurements(const Shape&, int budget, bool hopper_can_serve);

// One contestant's interleaved result in the final comparison.
struct Contender {
  std::string name;
  EntryResult result;
};

// The decision for one problem (design.md section 5): the faster of the final contenders,
// against the baseline measured in the same interleaved rounds. speedup = baseline / best; a
// speedup within max(min_tie, the two spreads) of 1 is a tie, and then, as for a loss, the
// table names cuBLASLt. `budget` is the one the search ran with.
Decision decide(const Shape&, Layout, Accum, const std::vector<Contender>& candidates,
                const std::optional<EntryResult>& baseline, double min_tie, int budget);

// The candidates a shape class's rule considers: those the table serves for the class's tuned
// shapes, most wins first (ties: higher geometric-mean speedup of those wins, then name).
std::vector<std::string> rule_contenders(const std::vector<Decision>& class_decisions, size_t max);

// What one contender achieved over a class's tuned shapes.
struct RuleEvidence {
  std::string candidate;
  int servable = 0;              // tuned shapes of the class it can serve
  std::vector<double> speedups;  // baseline estimate / its estimate, where both were measured
  std::string disqualified;      // why not: it failed the gate (or crashed) on a shape it serves
};
struct RuleChoice {
  std::optional<std::string> candidate;  // nullopt: cuBLASLt
  double geomean = 1;                    // of the chosen candidate's speedups (1 for cuBLASLt)
  std::string why;
};
// The contender with the best geometric-mean speedup, if it beats cuBLASLt by more than min_tie
// and was measured on at least half the shapes it serves; otherwise cuBLASLt.
RuleChoice choose_rule(const std::vector<RuleEvidence>&, double min_tie);

// Per shape class and layout: what the tuner decided.
struct ClassSummary {
  std::string shape_class;  // a class name, or "all"
  std::string layout;
  int problems = 0, wins = 0, ties = 0, losses = 0, undecided = 0;  // undecided: no candidate or baseline passed
  double geomean_best = 0;    // best candidate vs cuBLASLt-autotune, over problems with both
  double geomean_served = 0;  // what the table serves vs cuBLASLt-autotune (1 where it names cuBLASLt)
};
std::vector<ClassSummary> summarize_decisions(const std::vector<Decision>&);
std::string render_summary(const std::vector<ClassSummary>&);
nlohmann::json summary_json(const std::vector<ClassSummary>&);
std::string decisions_csv(const std::vector<Decision>&);

}  // namespace gemmforge::tune
