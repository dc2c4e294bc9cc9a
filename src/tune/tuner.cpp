#include "tune/tuner.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <regex>
#include <set>

#include "core/progress.hpp"
#include "core/records.hpp"
#include "runtime/candidate_kernel.hpp"
#include "runtime/sm80_kernel.hpp"
#include "runtime/sm90_kernel.hpp"
#include "search/strategy.hpp"
#include "tune/decisions.hpp"
#include "tune/fastest_kernels.hpp"

namespace gemmforge::tune {

std::optional<KernelCandidate> candidate_named(const ResultsDb& db, const std::string& name) {
  const auto text = db.candidate_json(name);
  if (!text) return std::nullopt;
  try {
    return KernelCandidate::from_json(nlohmann::json::parse(*text));
  } catch (const std::exception& e) {
    throw Error("results database '" + db.path().string() + "': candidate " + name + " is damaged: " + e.what());
  }
}

namespace {

using Clock = std::chrono::steady_clock;

// Thrown out of a strategy's search when the problem's budget is spent. Strategies count
// configs, and a config can cost two measurements (its split-K launch) or none (recorded), so
// the tuner, not the strategy, enforces the budget in measurements.
struct BudgetSpent {};

// The verdict of a candidate that did not compile (or spills): recorded, not measured.
const std::string kNotBuilt = "fail: not built: ";

uint64_t mix(uint64_t a, uint64_t b) {
  uint64_t x = a ^ (b + 0x9E3779B97F4A7C15ull + (a << 6) + (a >> 2));
  x = (x ^ (x >> 31)) * 0x7FB5D329728EA185ull;
  return x ^ (x >> 27);
}

uint64_t problem_seed(uint64_t seed, const Shape& s, Layout l) {
  return mix(mix(mix(mix(seed, uint64_t(s.M)), uint64_t(s.N)), uint64_t(s.K)), uint64_t(l));
}

std::string fmt(const char* f, double v) {
  char b[64];
  std::snprintf(b, sizeof b, f, v);
  return b;
}

std::string problem_name(const Shape& s, Layout l) { return to_string(s) + " " + to_string(l); }

// The kernel a table entry or rule names: an sm80 config, or a Hopper config with its launch knobs.
void name_kernel(TableEntry& e, const KernelCandidate& c) {
  if (const auto* k = c.sm80_config()) {
    e.sm80 = *k;
  } else {
    e.config = c.config;
    e.knobs = c.knobs;
  }
}

// The configs of one family's space that can serve the problem.
template <class Config>
std::vector<Config> servable(const std::vector<Config>& space, const Problem& p) {
  std::vector<Config> out;
  for (const auto& c : space)
    if (why_not_supported(c, p).empty()) out.push_back(c);
  return out;
}

class Tuner {
 public:
  Tuner(const TuneOptions& o, MeasureBackend& backend, KernelSource& source, ResultsDb& db, const Residency& residency)
      : o_(o), backend_(backend), source_(source), db_(db), residency_(residency), start_(Clock::now()) {
    if (!o_.search_hopper && !o_.search_sm80) throw UsageError("no kernel family to search (hopper, sm80)");
    const bool whole_spaces = o_.configs.empty() && o_.sm80_configs.empty();
    for (Layout l : o_.layouts) {
      auto& space = spaces_[l];
      auto& sm80_space = sm80_spaces_[l];
      if (o_.search_hopper) {
        if (whole_spaces) space = config_space(l, o_.acc);
        for (const auto& c : o_.configs)
          if (c.layout == l && c.acc == o_.acc) space.push_back(c);
      }
      if (o_.search_sm80) {
        if (whole_spaces) sm80_space = sm80_config_space(l, o_.acc);
        for (const auto& c : o_.sm80_configs)
          if (c.layout == l && c.acc == o_.acc) sm80_space.push_back(c);
      }
      if (space.empty() && sm80_space.empty())
        throw UsageError("no " + to_string(o_.acc) + " kernel config for layout " + to_string(l) + " to search");
    }
  }

  void run(TuneResult& r);
  Table build_table(const DbEnvironment&);
  int autotuned_algo(const Decision&) const;

 private:
  bool out_of_time() const {
    return o_.time_limit_s > 0 && std::chrono::duration<double>(Clock::now() - start_).count() > o_.time_limit_s;
  }
  // The baseline's estimate for the problem recorded in the database, where it passed.
  std::optional<double> recorded_baseline_us(const Shape& s, Layout l) const {
    const auto base = db_.find(s, l, o_.acc, o_.baseline, "", "estimate");
    return base && base->verdict == "pass" ? base->median_us : std::nullopt;
  }
  // The problem's budget, from its baseline estimate in the database where there is one.
  int recorded_budget_for(const Shape& s, Layout l) const { return budget_for(o_, recorded_baseline_us(s, l)); }
  // Not decided yet, decided with a smaller budget than it gets now, or decided before
  // --specialize was asked for (no build for this shape measured: those cost no budget, so a
  // rerun adds them).
  bool needs_work(const Shape& s, Layout l) const {
    const auto d = db_.decision(s, l, o_.acc);
    if (!d || d->budget < recorded_budget_for(s, l)) return true;
    if (o_.specialize <= 0) return false;
    for (const auto& m : db_.measurements_of(s, l, o_.acc, "gemmforge", "estimate"))
      if (const auto c = candidate_named(db_, m.config); c && c->specialized()) return false;
    return true;
  }
  void tune_problem(const Shape&, Layout, Progress&, size_t done);
  // The configs of each family that can serve this problem.
  std::vector<KernelConfig> servable_hopper(const Problem&) const;
  std::vector<Sm80Config> servable_sm80(const Problem&) const;
  // Whether a kernel found earlier (a class winner, a prior table's entry) can seed this problem:
  // its family searched now (an earlier run's sm80 winner is no seed of a Hopper-only run) and
  // the problem within its reach.
  bool seedable(const KernelCandidate& c, const Problem& p) const {
    return (c.sm80_config() ? o_.search_sm80 : o_.search_hopper) && why_not_supported(c, p).empty();
  }
  // A prior table's entry keeps its launch knobs: they must also be allowed (--max-splits) and valid.
  bool seedable_prior(const KernelCandidate& c, const Problem& p) const {
    const KernelConfig* h = c.hopper();
    return seedable(c, p) && (!h || (c.knobs.splits <= o_.max_splits && launch_problem(*h, c.knobs).empty()));
  }
  // The fastest kernels of the problems nearest this one, as they would launch on it (see tune_problem).
  std::vector<KernelCandidate> neighbour_seeds(const Problem&, const std::vector<Decision>& decided,
                                               const std::map<std::string, Measurement>& known) const;
  // The decided problems neighbour_seeds draws from, nearest first: distance -2 is p's own
  // decision, -1 its shape in the other layout, then shape_distance in this layout.
  static std::vector<std::pair<double, const Decision*>> nearest_decisions(const Problem& p,
                                                                           const std::vector<Decision>& decided);
  // A decision's best kernel as it would launch on p; nullopt where it cannot (another family
  // searched, a tile the layout cannot take, out of reach).
  std::optional<KernelCandidate> winner_on(const Decision& d, const Problem& p) const;
  // --split-seeds' tiles in this problem's layout, launched split as auto_splits counts for it,
  // where that count is above one (see TuneOptions::split_seeds); none measured before.
  std::vector<KernelCandidate> split_seeds(const Problem&, const std::map<std::string, Measurement>& known) const;
  // spent: the problem's measurements so far, checked against the budget and counted up; nullptr
  // for a measurement beyond the budget (a specialized build).
  std::optional<double> measure_candidate(const Shape&, Layout, const KernelCandidate&,
                                          std::map<std::string, Measurement>& known, int* spent,
                                          const std::optional<double>& baseline_us, const std::string& why);
  void search_sm80(const Shape&, Layout, const std::vector<Sm80Config>& servable, int measurements,
                   std::map<std::string, Measurement>& known, int& spent, const std::optional<double>& baseline_us);
  void specialize_best(const Shape&, Layout, std::map<std::string, Measurement>& known,
                       const std::optional<double>& baseline_us);
  // Decisions as the class rules and seeds see them: a win of a build for one shape counts for
  // the same kernel built for any shape (a rule serves shapes it was not built for).
  std::vector<Decision> generic_decisions(std::vector<Decision>) const;
  std::optional<Measurement> baseline_estimate(const Shape&, Layout, Accum);
  // The baseline's estimate over --heavy-us: the card is at its power cap during the problem.
  bool heavy(const std::optional<double>& baseline_us) const { return baseline_us && *baseline_us > o_.heavy_us; }
  // Decided, not compared again in this run yet, and heavy (--refinal-heavy) or with a finalist
  // that no final of it has timed (--refinal-stale).
  bool needs_refinal(const Shape&, Layout) const;
  // The candidates a final of this decided problem would compare now that none of its finals did.
  std::vector<std::string> unfinaled_finalists(const Shape&, Layout) const;
  void refinal_problem(const Shape&, Layout);
  // --raster-groups, --parts-apart, --cluster-twins: the finalists' variants not measured yet on
  // this problem (launched with each raster group; split launches built with their parts apart,
  // or in each cluster), each with the note its measurement is recorded with.
  struct FinalistVariant {
    KernelCandidate candidate;
    std::string why;
  };
  bool wants_finalist_variants() const {
    return !o_.raster_groups.empty() || o_.parts_apart || o_.cluster_push || !o_.cluster_twins.empty() || o_.ksplit_twins ||
           o_.space_twins || o_.uniform_warpgroup_twins || o_.dynamic_walk_twins || o_.walk_n_twins;
  }
  std::vector<FinalistVariant> raster_variants(const Shape&, const std::map<std::string, Measurement>& known, bool heavy_problem) const;
  void measure_raster_variants(const Shape&, Layout, std::map<std::string, Measurement>& known,
                               const std::optional<double>& baseline_us);
  // Decided, with a raster variant of its finalists unmeasured, and not reopened in this run yet.
  bool needs_raster(const Shape&, Layout) const;
  void raster_problem(const Shape&, Layout);
  // How many candidates a problem's final compares: two, heavy_finalists on a heavy one.
  size_t finalist_count(bool heavy_problem) const { return heavy_problem ? size_t(std::max(2, o_.heavy_finalists)) : 2; }
  // A problem's candidate measurements in the database, by name.
  std::map<std::string, Measurement> recorded(const Shape& s, Layout l) const {
    std::map<std::string, Measurement> known;
    for (auto& m : db_.measurements_of(s, l, o_.acc, "gemmforge", "estimate")) known[m.config] = m;
    return known;
  }
  void final_comparison(const Shape&, Layout, const std::map<std::string, Measurement>& known,
                        const std::optional<double>& baseline_us);
  std::vector<EntryResult> compare(const Shape&, Layout, const std::vector<std::string>& names,
                                   std::vector<Contender>& contenders, std::optional<EntryResult>& baseline);
  Strategy& strategy_for(const Shape&, Layout);
  std::string status(const Shape&, Layout) const;
  void fill_rule_gaps(const std::vector<Decision>&);
  // --neighbour-evidence: the nearest decided problems' best kernels on each decided problem of
  // `shapes` that never measured them.
  void fill_neighbour_gaps(const std::vector<Shape>& shapes);
  // Estimates of (problem, candidate) pairs outside any search, in FLOP order (one set-up per shape).
  using EvidenceGap = std::tuple<Shape, Layout, Accum, KernelCandidate>;
  void measure_evidence(std::vector<EvidenceGap> gaps, const std::string& what, const std::string& note);
  // --refinal-stale: the class-rule pass (and --neighbour-evidence's) runs now instead of with the
  // table, and the problems of this run where one of its measurements is now a finalist are decided
  // again in this run.
  void refinal_after_evidence(const std::vector<Shape>& shapes, TuneResult& r);
  std::vector<RuleEvidence> rule_evidence(const std::vector<Decision>& group, const std::vector<std::string>& names,
                                          std::vector<EvidenceGap>* gaps) const;

  const TuneOptions& o_;
  MeasureBackend& backend_;
  KernelSource& source_;
  ResultsDb& db_;
  Residency residency_;  // the device's, as the worker measured it: split counts are sized by it
  Clock::time_point start_;
  std::map<Layout, std::vector<KernelConfig>> spaces_;
  std::map<Layout, std::vector<Sm80Config>> sm80_spaces_;
  std::map<Layout, std::unique_ptr<Strategy>> shared_strategies_;  // rl: learns across shapes
  std::unique_ptr<Strategy> per_problem_strategy_;
  long long measured_ = 0, reused_ = 0, failed_ = 0, not_built_ = 0;
  double best_speedup_ = 0;
  std::string best_where_;
  Progress* progress_ = nullptr;
  size_t progress_done_ = 0;
  int budget_ = 0;  // the measurements of the problem being tuned (budget_for)
  std::set<std::string> refinaled_;  // problems compared again in this run (--refinal-heavy, --refinal-stale)
  std::set<std::string> rerastered_;  // decided problems reopened in this run (--raster-groups, --parts-apart)
};

// A decided problem's fastest kernel carried to layout `l`: the same knobs, built for any shape;
// nullopt where they make no valid config in that layout (swap-AB exists for tn only, say).
std::optional<KernelCandidate> in_layout(KernelCandidate c, Layout l) {
  c = c.generic();
  if (c.sm80) {
    c.sm80->layout = l;
    if (!c.sm80->valid()) return std::nullopt;
  } else {
    c.config.layout = l;
    if (!is_valid(c.config)) return std::nullopt;
  }
  return c;
}

// What the evidence passes after the problems write in a measurement's note: measured outside any
// search, so a later search of the problem does not count them against its budget.
constexpr const char* kClassRuleEvidence = "class rule evidence";
constexpr const char* kNeighbourEvidence = "neighbour winner evidence";
bool is_evidence(const Measurement& m) { return m.note == kClassRuleEvidence || m.note == kNeighbourEvidence; }

std::vector<KernelCandidate> Tuner::neighbour_seeds(const Problem& p, const std::vector<Decision>& decided,
                                                    const std::map<std::string, Measurement>& known) const {
  std::vector<KernelCandidate> out;
  if (o_.neighbour_seeds <= 0) return out;
  // Its own best of an earlier run comes first: a rule change, such as the split-K count's, gives
  // it knobs not measured yet (an unchanged launch is known and skipped).
  std::set<std::string> taken;
  for (const auto& [distance, d] : nearest_decisions(p, decided)) {
    if (out.size() >= size_t(o_.neighbour_seeds)) break;
    const auto here = winner_on(*d, p);
    // Seeds measured before (by the search or another seed) teach nothing new: the next neighbour's instead.
    if (!here || known.count(here->name()) || !taken.insert(here->name()).second) continue;
    out.push_back(*here);
  }
  return out;
}

// p's own decision, then the same shape in the other layout, then this layout's nearest shapes;
// ties keep the database's (M, N, K) order.
std::vector<std::pair<double, const Decision*>> Tuner::nearest_decisions(const Problem& p,
                                                                         const std::vector<Decision>& decided) {
  std::vector<std::pair<double, const Decision*>> near;
  for (const auto& d : decided) {
    if (d.acc != p.acc || d.best.empty()) continue;
    if (d.layout != p.layout && d.shape != p.shape) continue;
    const double distance = d.shape != p.shape ? shape_distance(d.shape, p.shape) : d.layout == p.layout ? -2.0 : -1.0;
    near.emplace_back(distance, &d);
  }
  std::stable_sort(near.begin(), near.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  return near;
}

std::optional<KernelCandidate> Tuner::winner_on(const Decision& d, const Problem& p) const {
  const auto c = candidate_named(db_, d.best);
  const auto carried = c ? in_layout(*c, p.layout) : std::nullopt;
  if (!carried) return std::nullopt;
  const KernelCandidate here = launched_on(*carried, p.shape, residency_);
  if (!seedable_prior(here, p)) return std::nullopt;
  return here;
}

// A --split-seeds tile in layout l and accumulator a; nullopt where it makes no valid config
// there (a tile one layout cannot take).
std::optional<KernelConfig> carried_to(KernelConfig c, Layout l, Accum a) {
  c.layout = l;
  c.acc = a;
  if (!is_valid(c)) return std::nullopt;
  return c;
}

std::vector<KernelCandidate> Tuner::split_seeds(const Problem& p, const std::map<std::string, Measurement>& known) const {
  std::vector<KernelCandidate> out;
  for (const auto& seed : o_.split_seeds) {
    const auto c = carried_to(seed, p.layout, p.acc);
    if (!c) continue;
    LaunchKnobs split;
    split.pdl = true;  // as every launch the search measures (launch_variants)
    split.splits = split_count(*c, p.shape, residency_, o_.max_splits);
    if (split.splits <= 1) continue;  // its tiles fill the SMs: an ordinary config, the search's to propose
    const KernelCandidate here{*c, split};
    if (known.count(here.name()) || !seedable_prior(here, p)) continue;
    out.push_back(here);
  }
  return out;
}

Strategy& Tuner::strategy_for(const Shape& s, Layout l) {
  // The rl policy is meant to carry what it learnt to the next shape. The others restart per
  // problem from a seed of their own, so a resumed problem sees the same proposals again
  // (and finds them recorded) whatever ran before it.
  if (o_.strategy == "rl") {
    auto& st = shared_strategies_[l];
    if (!st) st = make_strategy("rl", mix(o_.seed, uint64_t(l)));
    return *st;
  }
  per_problem_strategy_ = make_strategy(o_.strategy, problem_seed(o_.seed, s, l));
  return *per_problem_strategy_;
}

// A measurement of one of our candidates on a problem, to be given its verdict and recorded.
Measurement candidate_measurement(const Shape& s, Layout l, Accum a, const std::string& config, const std::string& mode) {
  Measurement m;
  m.shape = s;
  m.layout = l;
  m.acc = a;
  m.impl = "gemmforge";
  m.config = config;
  m.mode = mode;
  return m;
}

// The names of the fastest passing candidates by estimate, at most `count`.
std::vector<std::string> fastest_passing(const std::map<std::string, Measurement>& known, size_t count) {
  std::vector<std::pair<double, std::string>> ranked;
  for (const auto& [name, m] : known)
    if (m.verdict == "pass" && m.median_us) ranked.push_back({*m.median_us, name});
  std::sort(ranked.begin(), ranked.end());
  std::vector<std::string> out;
  for (size_t i = 0; i < ranked.size() && i < count; ++i) out.push_back(ranked[i].second);
  return out;
}

std::string Tuner::status(const Shape& s, Layout l) const {
  std::string st = problem_name(s, l) + " | candidates tried " + std::to_string(measured_) +
                   (failed_ ? " (" + std::to_string(failed_) + " failed)" : std::string());
  if (best_speedup_ > 0) st += " | best speedup so far " + fmt("%.3fx", best_speedup_) + " (" + best_where_ + ")";
  return st;
}

std::optional<Measurement> Tuner::baseline_estimate(const Shape& s, Layout l, Accum a) {
  if (auto m = db_.find(s, l, a, o_.baseline, "", "estimate")) return m;
  const Outcome out = backend_.baseline(l, o_.baseline);
  Measurement m;
  m.shape = s;
  m.layout = l;
  m.acc = a;
  m.impl = o_.baseline;
  m.mode = "estimate";
  m.verdict = out.verdict;
  m.median_us = out.us;
  m.note = out.note;
  db_.record(m);
  return m;
}

std::optional<double> Tuner::measure_candidate(const Shape& s, Layout l, const KernelCandidate& c,
                                               std::map<std::string, Measurement>& known, int* spent,
                                               const std::optional<double>& baseline_us, const std::string& why) {
  const std::string name = c.name();
  if (auto it = known.find(name); it != known.end()) {
    ++reused_;
    return it->second.verdict == "pass" ? it->second.median_us : std::nullopt;
  }
  if (spent && *spent >= budget_) throw BudgetSpent{};
  db_.add_candidate(name, c.to_json().dump());
  Measurement m = candidate_measurement(s, l, o_.acc, name, "estimate");
  m.note = why;
  const CompiledConfig compiled = source_.get(c);
  if (!compiled.ok) {
    // Recorded (a rerun does not try it again) but not a measurement: the budget is GPU work.
    m.verdict = kNotBuilt + compiled.why;
    db_.record(m);
    known[name] = m;
    ++not_built_;
    return std::nullopt;
  }
  const Outcome out = backend_.measure(l, c, compiled.cubin_key);
  m.verdict = out.verdict;
  m.median_us = out.passed() ? out.us : std::nullopt;
  if (!out.note.empty()) m.note += (m.note.empty() ? "" : "; ") + out.note;
  if (out.verdict == "pass" && !out.us) m.verdict = "fail: no time reported";
  db_.record(m);  // at once: a crash of the tuner itself loses nothing measured
  known[name] = m;
  if (spent) ++*spent;
  ++measured_;
  if (m.verdict != "pass") ++failed_;
  if (m.verdict == "pass" && baseline_us && *m.median_us > 0 && *baseline_us / *m.median_us > best_speedup_) {
    best_speedup_ = *baseline_us / *m.median_us;
    best_where_ = problem_name(s, l) + ", estimate";
  }
  if (progress_) progress_->update(progress_done_, status(s, l));
  return m.verdict == "pass" ? m.median_us : std::nullopt;
}

std::vector<KernelConfig> Tuner::servable_hopper(const Problem& p) const { return servable(spaces_.at(p.layout), p); }

std::vector<Sm80Config> Tuner::servable_sm80(const Problem& p) const { return servable(sm80_spaces_.at(p.layout), p); }

std::vector<Decision> Tuner::generic_decisions(std::vector<Decision> decisions) const {
  for (auto& d : decisions) {
    if (d.served == "cublaslt") continue;
    if (const auto c = candidate_named(db_, d.served); c && c->specialized()) d.served = c->generic().name();
  }
  return decisions;
}

// The sm80 family's share of the budget, searched by the same strategy as the Hopper configs
// (the rl policy keeps separate weights per family). A config that does not build costs nothing:
// the strategy goes on to another until the share is measured.
void Tuner::search_sm80(const Shape& s, Layout l, const std::vector<Sm80Config>& servable, int measurements,
                        std::map<std::string, Measurement>& known, int& spent, const std::optional<double>& baseline_us) {
  int done = 0;  // sm80 measurements of this problem so far, recorded ones included
  for (const auto& [name, m] : known) {
    if (m.verdict.rfind(kNotBuilt, 0) == 0) continue;
    const auto c = candidate_named(db_, name);
    done += c && c->sm80_config() && !c->specialized();
  }
  struct ShareSpent {};
  const Sm80Measure measure = [&](const Shape&, const Sm80Config& c) -> std::optional<double> {
    if (done >= measurements) throw ShareSpent{};
    const KernelCandidate k = sm80_candidate(c);
    const bool is_new = !known.count(k.name());
    const auto t = measure_candidate(s, l, k, known, &spent, baseline_us, "");
    if (is_new && known.at(k.name()).verdict.rfind(kNotBuilt, 0) != 0) ++done;
    return t;
  };
  if (done >= measurements) return;
  try {
    strategy_for(s, l).search(s, servable, measure, int(servable.size()));
  } catch (const ShareSpent&) {
  }
}

void Tuner::specialize_best(const Shape& s, Layout l, std::map<std::string, Measurement>& known,
                            const std::optional<double>& baseline_us) {
  if (o_.specialize <= 0) return;
  std::vector<std::pair<double, KernelCandidate>> ranked;
  for (const auto& [name, m] : known) {
    if (m.verdict != "pass" || !m.median_us) continue;
    const auto c = candidate_named(db_, name);
    if (c && !c->specialized()) ranked.emplace_back(*m.median_us, *c);
  }
  std::stable_sort(ranked.begin(), ranked.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  for (size_t i = 0; i < ranked.size() && i < size_t(o_.specialize); ++i)
    measure_candidate(s, l, ranked[i].second.specialized_for(s), known, nullptr, baseline_us,
                      "built for this shape: finalist " + std::to_string(i + 1) + " of the search");
}

void Tuner::tune_problem(const Shape& s, Layout l, Progress& progress, size_t done) {
  progress_ = &progress;
  progress_done_ = done;
  const Problem problem{s, l, o_.acc};
  const std::vector<KernelConfig> servable = servable_hopper(problem);
  const std::vector<Sm80Config> sm80_servable = servable_sm80(problem);

  const auto base = baseline_estimate(s, l, o_.acc);
  const std::optional<double> baseline_us =
      base && base->verdict == "pass" ? base->median_us : std::optional<double>();
  budget_ = budget_for(o_, baseline_us);
  std::map<std::string, Measurement> known;
  int spent = 0;
  for (auto& m : db_.measurements_of(s, l, o_.acc, "gemmforge", "estimate")) {
    // Builds for this shape are measured beyond the budget, one that did not compile cost none,
    // and neither did the evidence passes' (a later, larger --budget searches as far as it says).
    const auto c = candidate_named(db_, m.config);
    spent += m.verdict.rfind(kNotBuilt, 0) != 0 && !(c && c->specialized()) && !is_evidence(m);
    known[m.config] = m;
  }
  try {
    // Kernels found here before (an earlier table's, a class sweep's fastest): the best first
    // guesses, and measuring them first keeps a re-tune from losing them to a search that wanders.
    // They are measured even where recorded measurements have spent the budget (and count
    // against it): after a kernel edit the measurements `db carry` keeps can fill a problem's
    // budget while the kernel that won it, edited, was not carried (session 13: re-tuned so, the
    // best found on the problems whose winner the edit reached fell to the next unedited kernel).
    for (const auto& c : o_.prior.find(s, l, o_.acc))
      if (seedable_prior(c, problem)) {
        const bool is_new = !known.count(c.name());
        measure_candidate(s, l, c, known, nullptr, baseline_us, "seed: a kernel of the prior run (--prior)");
        spent += is_new && known.count(c.name()) && known.at(c.name()).verdict.rfind(kNotBuilt, 0) != 0;
      }
    const std::vector<Decision> decided = db_.decisions();
    // Seeds from the nearest problems decided so far (its own earlier best where it now launches
    // otherwise, this shape in the other layout, then shapes a doubling or two away): the tile, depth and split that suit a shape mostly suit its
    // neighbours, where a class's most frequent winners suit few of its shapes (session 9: a
    // 128x128 ping-pong tile never proposed for 1024x2048x1024 nn matched cuBLASLt there, 8.52
    // µs against 8.52, where the search's best took 10.57; the tn problem of the same shape had
    // found a 64x256 ping-pong tile at 8.40).
    for (const auto& c : neighbour_seeds(problem, decided, known))
      measure_candidate(s, l, c, known, &spent, baseline_us, "seed: the best kernel of a near problem");
    for (const auto& c : split_seeds(problem, known))
      measure_candidate(s, l, c, known, &spent, baseline_us, "seed: a split-K tile (--split-seeds)");
    // Seeds: what won on this class's shapes so far, so the search starts from there and the
    // class rule later has evidence on this shape too.
    std::vector<Decision> class_decisions;
    for (const auto& d : decided)
      if (d.layout == l && d.acc == o_.acc && classify(d.shape) == classify(s)) class_decisions.push_back(d);
    for (const auto& name : rule_contenders(generic_decisions(class_decisions), size_t(std::max(0, o_.seeds)))) {
      const auto c = candidate_named(db_, name);
      if (c && !c->specialized() && seedable(*c, problem))
        measure_candidate(s, l, launched_on(*c, s, residency_), known, &spent, baseline_us, "seed: a winner on this class");
    }
    if (const int n = sm80_measurements(s, budget_, !servable.empty()); n > 0 && !sm80_servable.empty())
      search_sm80(s, l, sm80_servable, n, known, spent, baseline_us);
    if (!servable.empty()) {
      const Measure measure = [&](const Shape&, const KernelConfig& k) -> std::optional<double> {
        std::optional<double> best;
        for (const KernelCandidate& c : launch_variants(k, s, residency_, o_.max_splits))
          if (auto t = measure_candidate(s, l, c, known, &spent, baseline_us, ""); t && (!best || *t < *best)) best = t;
        return best;
      };
      strategy_for(s, l).search(s, servable, measure, int(servable.size()));
    }
  } catch (const BudgetSpent&) {
  }
  specialize_best(s, l, known, baseline_us);
  measure_raster_variants(s, l, known, baseline_us);
  final_comparison(s, l, known, baseline_us);
}

std::vector<Tuner::FinalistVariant> Tuner::raster_variants(const Shape& s, const std::map<std::string, Measurement>& known,
                                                           bool heavy_problem) const {
  std::vector<FinalistVariant> out;
  if (!wants_finalist_variants()) return out;
  auto add = [&](const KernelCandidate& v, std::string why) {
    if (!known.count(v.name()) && launch_problem(v.config, v.knobs).empty()) out.push_back({v, std::move(why)});
  };
  for (const auto& name : fastest_passing(known, finalist_count(heavy_problem))) {
    const auto c = candidate_named(db_, name);
    if (!c || !c->hopper()) continue;
    for (const int g : o_.raster_groups) {
      if (c->knobs.group_m == g) continue;
      KernelCandidate v = *c;
      v.knobs.group_m = g;
      add(v, "raster group " + std::to_string(g) + " of a finalist (--raster-groups)");
    }
    if (o_.parts_apart && !c->config.parts_apart && c->knobs.splits > 1 && !c->knobs.cluster_reduction) {
      KernelCandidate v = *c;
      v.config.parts_apart = true;
      add(v, "a finalist built with its parts apart (--parts-apart)");
    }
    if (o_.cluster_push && !c->config.cluster_push && c->knobs.cluster_reduction) {
      KernelCandidate v = *c;
      v.config.cluster_push = true;
      if (is_valid(v.config)) add(v, "an in-cluster finalist built to push its sums (--cluster-push)");
    }
    if (o_.ksplit_twins && c->config.consumers == 1 && c->config.mode == ConsumerMode::cooperative) {
      KernelCandidate v = *c;
      v.config.consumers = 2;
      v.config.mode = ConsumerMode::ksplit;
      v.config.stages -= v.config.stages % 2;  // each consumer owns every other stage
      if (is_valid(v.config)) add(v, "a one-consumer finalist with two k-split consumers (--ksplit-twins)");
    }
    if (o_.space_twins) {
      KernelCandidate v = *c;
      v.config = with_space_knobs(c->config);
      if (v.config != c->config && is_valid(v.config))
        add(v, "a finalist built as the default space builds it now (--space-twins)");
    }
    if (o_.uniform_warpgroup_twins && c->config.consumers == 2 && !c->config.uniform_warpgroup) {
      KernelCandidate v = *c;
      v.config.uniform_warpgroup = true;
      add(v, "a two-consumer finalist built with the uniform warpgroup index (--uniform-warpgroup-twins)");
    }
    if (o_.dynamic_walk_twins && !c->config.dynamic_walk) {
      KernelCandidate v = *c;
      v.config.dynamic_walk = true;
      if (walks_dynamically(v.config, v.knobs, effective_splits(v.config, s.K, v.knobs.splits)))
        add(v, "an unsplit finalist built with the dynamic walk (--dynamic-walk-twins)");
    }
    if (o_.walk_n_twins && !c->config.walk_n) {
      KernelCandidate v = *c;
      v.config.walk_n = true;
      v.knobs.group_m = 0;  // the finalist's group counts rows; the twin's counts columns
      add(v, "a finalist built to walk along N (--walk-n-twins)");
      // cuBLAS's scheduler is both: its order, and tiles taken as clusters free up. (A finalist
      // built with the dynamic walk already had both added above.)
      v.config.dynamic_walk = true;
      if (o_.dynamic_walk_twins && !c->config.dynamic_walk &&
          walks_dynamically(v.config, v.knobs, effective_splits(v.config, s.K, v.knobs.splits)))
        add(v, "an unsplit finalist built to walk along N with the dynamic walk (--walk-n-twins --dynamic-walk-twins)");
    }
    if (c->knobs.splits > 1 && !c->knobs.cluster_reduction && c->config.cluster_m * c->config.cluster_n == 1)
      for (const auto& [cm, cn] : o_.cluster_twins) {
        KernelCandidate v = *c;
        v.config.cluster_m = cm;
        v.config.cluster_n = cn;
        v.config.multicast = true;
        if (!is_valid(v.config)) continue;
        // As many parts as one wave of the resident clusters holds, at most the finalist's: a
        // sliced sum needs every part of a tile at once, and more parts start a second wave
        // (16 parts of 8 tiles fit 128 SMs, but not 16 clusters of 8 where 15 fit).
        const int64_t fit = residency_.clusters_of(cm * cn) / std::max<int64_t>(1, cluster_tiles(v.config, s.M, s.N));
        v.knobs.splits = int(std::min<int64_t>(c->knobs.splits, fit));
        if (v.knobs.splits < 2) continue;
        std::string why = "a split finalist in a " + std::to_string(cm) + "x" + std::to_string(cn) + " cluster (--cluster-twins)";
        if (v.knobs.splits < c->knobs.splits)
          why += ", " + std::to_string(v.knobs.splits) + " parts where it has " + std::to_string(c->knobs.splits) +
                 ": as many as the resident clusters hold";
        add(v, why);
      }
  }
  return out;
}

void Tuner::measure_raster_variants(const Shape& s, Layout l, std::map<std::string, Measurement>& known,
                                    const std::optional<double>& baseline_us) {
  for (const auto& v : raster_variants(s, known, heavy(baseline_us)))
    measure_candidate(s, l, v.candidate, known, nullptr, baseline_us, v.why);
}

bool Tuner::needs_raster(const Shape& s, Layout l) const {
  if (!wants_finalist_variants() || needs_work(s, l) || rerastered_.count(problem_name(s, l)) || !db_.decision(s, l, o_.acc))
    return false;
  return !raster_variants(s, recorded(s, l), heavy(recorded_baseline_us(s, l))).empty();
}

// The problem's search stays as it was: its finalists are measured with the raster groups
// (beyond the budget, as builds for the shape are), and its final is run again over them all.
void Tuner::raster_problem(const Shape& s, Layout l) {
  rerastered_.insert(problem_name(s, l));
  const std::optional<double> baseline_us = recorded_baseline_us(s, l);
  budget_ = db_.decision(s, l, o_.acc)->budget;
  auto known = recorded(s, l);
  measure_raster_variants(s, l, known, baseline_us);
  final_comparison(s, l, known, baseline_us);
}

bool Tuner::needs_refinal(const Shape& s, Layout l) const {
  if (!(o_.refinal_heavy || o_.refinal_stale) || needs_work(s, l) || refinaled_.count(problem_name(s, l)) ||
      !db_.decision(s, l, o_.acc))
    return false;
  return (o_.refinal_heavy && heavy(recorded_baseline_us(s, l))) || (o_.refinal_stale && !unfinaled_finalists(s, l).empty());
}

std::vector<std::string> Tuner::unfinaled_finalists(const Shape& s, Layout l) const {
  std::set<std::string> timed;
  for (const auto& m : db_.measurements_of(s, l, o_.acc, "gemmforge", "gpu")) timed.insert(m.config);
  std::vector<std::string> out;
  for (const auto& name : fastest_passing(recorded(s, l), finalist_count(heavy(recorded_baseline_us(s, l)))))
    if (!timed.count(name)) out.push_back(name);
  return out;
}

// The problem's search stays as it was; only its final is run again, over the candidates the
// database holds for it: a decision made from two finalists is made from heavy_finalists, or
// from the fastest candidates measured since (class-rule evidence among them).
void Tuner::refinal_problem(const Shape& s, Layout l) {
  refinaled_.insert(problem_name(s, l));
  budget_ = db_.decision(s, l, o_.acc)->budget;
  final_comparison(s, l, recorded(s, l), recorded_baseline_us(s, l));
}

std::vector<EntryResult> Tuner::compare(const Shape& s, Layout l, const std::vector<std::string>& names,
                                        std::vector<Contender>& contenders, std::optional<EntryResult>& baseline) {
  std::vector<FinalEntry> entries;
  std::vector<std::string> entry_names;
  for (const auto& name : names) {
    const auto c = candidate_named(db_, name);
    if (!c) continue;
    const CompiledConfig compiled = source_.get(*c);
    if (!compiled.ok) {
      // Recorded as this final's, so --refinal-stale does not reopen the problem for it again.
      Measurement m = candidate_measurement(s, l, o_.acc, name, "gpu");
      m.verdict = kNotBuilt + compiled.why;
      m.note = "final: not built";
      db_.record(m);
      continue;
    }
    entries.push_back(FinalEntry{c, compiled.cubin_key, {}});
    entry_names.push_back(name);
  }
  entries.push_back(FinalEntry{std::nullopt, {}, o_.baseline});
  const auto results = backend_.compare(l, entries, o_.final_rounds);
  if (results.size() != entries.size())
    throw Error("the device answered a comparison of " + std::to_string(entries.size()) + " entries with " +
                std::to_string(results.size()) + " results");
  for (size_t i = 0; i < results.size(); ++i) {
    const bool is_baseline = i + 1 == results.size();
    Measurement m;
    m.shape = s;
    m.layout = l;
    m.acc = o_.acc;
    m.impl = is_baseline ? o_.baseline : "gemmforge";
    m.config = is_baseline ? "" : entry_names[i];
    m.mode = "gpu";
    m.verdict = results[i].verdict;
    m.median_us = results[i].median_us;
    if (results[i].median_us) m.spread = results[i].spread();
    m.note = "final, interleaved with " + std::to_string(results.size() - 1) + " other(s)" +
             (results[i].note.empty() ? std::string() : "; " + results[i].note);
    db_.record(m);
    if (is_baseline) baseline = results[i];
    else contenders.push_back({entry_names[i], results[i]});
  }
  return results;
}

void Tuner::final_comparison(const Shape& s, Layout l, const std::map<std::string, Measurement>& known,
                             const std::optional<double>& baseline_us) {
  const std::vector<std::string> finalists = fastest_passing(known, finalist_count(heavy(baseline_us)));

  std::vector<Contender> contenders;
  std::optional<EntryResult> baseline;
  auto results = compare(s, l, finalists, contenders, baseline);
  auto all_failed = [](const std::vector<EntryResult>& rs) {
    return std::all_of(rs.begin(), rs.end(), [](const EntryResult& e) { return e.verdict != "pass"; });
  };
  // The baseline failing with the candidates means the worker died or the shape broke: try each
  // finalist alone with the baseline, so one bad finalist cannot cost the problem its decision.
  if (all_failed(results) && !finalists.empty()) {
    for (const auto& name : finalists) {
      contenders.clear();
      baseline.reset();
      if (!all_failed(compare(s, l, {name}, contenders, baseline))) break;
    }
  }
  Decision d = decide(s, l, o_.acc, contenders, baseline, o_.min_tie, budget_);
  db_.record_decision(d);
  if (d.speedup > best_speedup_ && d.outcome == "win") {
    best_speedup_ = d.speedup;
    best_where_ = problem_name(s, l);
  }
}

void Tuner::run(TuneResult& r) {
  std::vector<Shape> shapes = o_.shapes;
  // Ascending work keeps the heavy shapes together at the end, so the card heats into its power
  // cap once and stays there (design.md section 5).
  std::stable_sort(shapes.begin(), shapes.end(), [](const Shape& x, const Shape& y) { return x.flops() < y.flops(); });
  // First in the compile pool, the builds the problems to tune will meet soonest, in their order:
  // their --prior seeds and the finalists of an earlier run (a resumed database's, builds for the
  // shape among them), so the final comparisons do not wait on compiles one by one (session 10's
  // resumed grid tune spent its first 3 of 6 minutes so on a fresh machine).
  std::vector<KernelCandidate> soon;
  // The --split-seeds tiles in each layout: a few builds, met by the first problem whose tiles leave SMs idle.
  if (o_.compile_whole_space)
    for (Layout l : o_.layouts)
      for (const auto& seed : o_.split_seeds)
        if (const auto c = carried_to(seed, l, o_.acc)) soon.push_back(KernelCandidate{*c, LaunchKnobs{}});
  size_t todo = 0;
  for (const auto& s : shapes)
    for (Layout l : o_.layouts) {
      ++r.problems;
      if (needs_raster(s, l)) {
        ++todo;
        for (const auto& name : fastest_passing(recorded(s, l), finalist_count(true)))
          if (const auto c = candidate_named(db_, name)) soon.push_back(*c);
        continue;
      }
      if (needs_refinal(s, l)) {
        ++todo;
        // Its finalists compile ahead, as a search's seeds do.
        for (const auto& name : fastest_passing(recorded(s, l), finalist_count(true)))
          if (const auto c = candidate_named(db_, name)) soon.push_back(*c);
        continue;
      }
      if (!needs_work(s, l)) {
        ++r.already_done;
        continue;
      }
      ++todo;
      if (!o_.compile_whole_space) continue;
      for (const auto& c : o_.prior.find(s, l, o_.acc))
        if (seedable_prior(c, Problem{s, l, o_.acc})) soon.push_back(c);
      if (const auto d = db_.decision(s, l, o_.acc))
        for (const auto& name : {d->best, d->runner_up})
          if (const auto c = name.empty() ? std::nullopt : candidate_named(db_, name)) soon.push_back(*c);
    }
  if (todo && o_.compile_whole_space) {
    source_.prefetch(soon);
    std::vector<KernelCandidate> all;
    for (const auto& [l, space] : spaces_)
      for (const auto& c : space) all.push_back(KernelCandidate{c, LaunchKnobs{}});
    // The sm80 space too, where some problem will search it.
    for (const auto& [l, space] : sm80_spaces_) {
      const bool searched = std::any_of(shapes.begin(), shapes.end(), [&](const Shape& s) {
        const Problem p{s, l, o_.acc};
        return sm80_measurements(s, o_.budget, !servable_hopper(p).empty()) > 0 && !servable_sm80(p).empty();
      });
      if (searched)
        for (const auto& c : space) all.push_back(sm80_candidate(c));
    }
    source_.prefetch(all);
  }
  Progress progress("tune", todo);
  size_t done = 0;
  int open_failures_in_a_row = 0;
  for (const auto& s : shapes) {
    std::vector<Layout> layouts;
    for (Layout l : o_.layouts)
      if (needs_work(s, l) || needs_raster(s, l) || needs_refinal(s, l)) layouts.push_back(l);
    if (layouts.empty()) continue;
    if (out_of_time()) {
      r.stopped_by_time_limit = true;
      break;
    }
    size_t next = 0;  // the first layout of this shape not yet tuned
    try {
      backend_.open(s, o_.acc, o_.seed);
      for (; next < layouts.size(); ++next) {
        progress.update(done, status(s, layouts[next]));
        if (needs_raster(s, layouts[next])) {
          raster_problem(s, layouts[next]);
          ++r.rerastered;
        } else if (needs_refinal(s, layouts[next])) {
          refinal_problem(s, layouts[next]);
          ++r.refinaled;
        } else {
          tune_problem(s, layouts[next], progress, done);
          ++r.tuned_now;
        }
        ++done;
      }
      open_failures_in_a_row = 0;
    } catch (const ShapeSetupError& e) {
      std::fprintf(stderr, "\ngemmforge tune: shape %s skipped: %s\n", to_string(s).c_str(), e.what());
      r.skipped += layouts.size() - next;
      done += layouts.size() - next;
      if (++open_failures_in_a_row >= 3)
        throw Error("three shapes in a row could not be set up on the device; last: " + std::string(e.what()));
    }
  }
  refinal_after_evidence(shapes, r);
  progress.finish(std::to_string(r.tuned_now) + " problems tuned, " +
                  (r.refinaled ? std::to_string(r.refinaled) + " decided ones compared again, " : std::string()) +
                  (r.after_evidence ? std::to_string(r.after_evidence) +
                                          " decided again after the class rules' or neighbours' evidence, " : std::string()) +
                  (r.rerastered ? std::to_string(r.rerastered) + " decided ones reopened for finalists' variants, " : std::string()) +
                  std::to_string(measured_) +
                  " candidates measured (" + std::to_string(failed_) + " failed), " +
                  (not_built_ ? std::to_string(not_built_) + " did not compile, " : std::string()) +
                  std::to_string(reused_) + " results reused from the database" +
                  (r.stopped_by_time_limit ? "; stopped at the time limit" : ""));
  r.not_built = not_built_;
  r.measured = measured_;
  r.reused = reused_;
  r.failed = failed_;
}

std::vector<RuleEvidence> Tuner::rule_evidence(const std::vector<Decision>& group, const std::vector<std::string>& names,
                                               std::vector<EvidenceGap>* gaps) const {
  std::vector<RuleEvidence> out;
  for (const auto& name : names) {
    const auto c = candidate_named(db_, name);
    if (!c || c->specialized()) continue;  // a rule serves shapes it was not built for
    RuleEvidence e;
    e.candidate = name;
    for (const auto& d : group) {
      if (!why_not_supported(*c, Problem{d.shape, d.layout, d.acc}).empty()) continue;
      const auto base = db_.find(d.shape, d.layout, d.acc, o_.baseline, "", "estimate");
      if (!base || base->verdict != "pass" || !base->median_us) continue;
      ++e.servable;
      // The rule's launch on this shape, as the runtime would serve it.
      const KernelCandidate here = launched_on(*c, d.shape, residency_);
      const auto m = db_.find(d.shape, d.layout, d.acc, "gemmforge", here.name(), "estimate");
      if (!m) {
        if (gaps) gaps->emplace_back(d.shape, d.layout, d.acc, here);
        continue;
      }
      if (m->verdict != "pass" || !m->median_us) {
        e.disqualified = "fails on " + problem_name(d.shape, d.layout) + ": " + m->verdict.substr(0, 200);
        break;
      }
      e.speedups.push_back(*base->median_us / *m->median_us);
    }
    out.push_back(std::move(e));
  }
  return out;
}

using RuleGroupKey = std::tuple<ShapeClass, Layout, Accum>;

std::map<RuleGroupKey, std::vector<Decision>> rule_groups(const std::vector<Decision>& decisions) {
  std::map<RuleGroupKey, std::vector<Decision>> groups;
  for (const auto& d : decisions) groups[{classify(d.shape), d.layout, d.acc}].push_back(d);
  return groups;
}

void Tuner::fill_rule_gaps(const std::vector<Decision>& decisions) {
  std::vector<EvidenceGap> gaps;
  for (const auto& [key, group] : rule_groups(generic_decisions(decisions)))
    rule_evidence(group, rule_contenders(group, size_t(std::max(0, o_.rule_candidates))), &gaps);
  measure_evidence(std::move(gaps), "class rules", kClassRuleEvidence);
}

void Tuner::fill_neighbour_gaps(const std::vector<Shape>& shapes) {
  const std::vector<Decision> decided = db_.decisions();
  std::vector<EvidenceGap> gaps;
  for (const auto& s : shapes)
    for (Layout l : o_.layouts) {
      if (!db_.decision(s, l, o_.acc) || needs_work(s, l)) continue;
      const Problem p{s, l, o_.acc};
      const auto known = recorded(s, l);
      std::set<std::string> taken;
      int neighbours = 0;
      double last = 0;
      for (const auto& [distance, d] : nearest_decisions(p, decided)) {
        // Its own winner was measured here: it takes none of the N places.
        if (d->shape == s && d->layout == l) continue;
        // Every neighbour as near as the N-th: on the grid most neighbours a doubling away tie, and
        // the database's order would give the smaller shapes, tuned before this one, whose winners
        // its search could already seed from; the larger ones, tuned after it, are the point.
        if (neighbours >= o_.neighbour_evidence && distance > last) break;
        ++neighbours;
        last = distance;
        const auto here = winner_on(*d, p);
        if (here && !known.count(here->name()) && taken.insert(here->name()).second) gaps.emplace_back(s, l, o_.acc, *here);
      }
    }
  measure_evidence(std::move(gaps), "neighbours", kNeighbourEvidence);
}

void Tuner::measure_evidence(std::vector<EvidenceGap> gaps, const std::string& what, const std::string& note) {
  if (gaps.empty()) return;
  std::sort(gaps.begin(), gaps.end(), [](const auto& x, const auto& y) {
    return std::make_tuple(std::get<0>(x).flops(), std::get<0>(x), int(std::get<2>(x))) <
           std::make_tuple(std::get<0>(y).flops(), std::get<0>(y), int(std::get<2>(y)));
  });
  Progress progress(what, gaps.size());
  std::optional<std::pair<Shape, Accum>> open;
  // A shape whose set-up failed in this pass: its other gaps are skipped, not set up again each.
  // (No stop after three in a row: the pass also runs as the table is written, and a table of the
  // decisions made is worth more than evidence.)
  std::set<std::pair<Shape, Accum>> unopened;
  const auto setup_failed = [&](const Shape& s, Accum a, const ShapeSetupError& e) {
    std::fprintf(stderr, "\ngemmforge tune: %s on %s skipped: %s\n", note.c_str(), to_string(s).c_str(), e.what());
    open.reset();
    unopened.insert({s, a});
  };
  for (size_t i = 0; i < gaps.size(); ++i) {
    const auto& [s, l, a, c] = gaps[i];
    if (out_of_time()) break;
    if (unopened.count({s, a})) continue;
    if (!open || open->first != s || open->second != a) {
      try {
        backend_.open(s, a, o_.seed);
        open = {s, a};
      } catch (const ShapeSetupError& e) {
        setup_failed(s, a, e);
        continue;
      }
    }
    progress.update(i, problem_name(s, l) + " " + c.name());
    Measurement m = candidate_measurement(s, l, a, c.name(), "estimate");
    m.note = note;
    db_.add_candidate(c.name(), c.to_json().dump());
    const CompiledConfig compiled = source_.get(c);
    if (!compiled.ok) {
      m.verdict = kNotBuilt + compiled.why;
    } else {
      try {
        const Outcome out = backend_.measure(l, c, compiled.cubin_key);
        m.verdict = out.verdict;
        m.median_us = out.passed() ? out.us : std::nullopt;
      } catch (const ShapeSetupError& e) {
        setup_failed(s, a, e);
        continue;
      }
    }
    db_.record(m);
    ++measured_;
    if (m.verdict != "pass") ++failed_;
  }
  progress.finish(std::to_string(gaps.size()) + " measurements of " + note);
}

void Tuner::refinal_after_evidence(const std::vector<Shape>& shapes, TuneResult& r) {
  const bool rules = o_.measure_rule_gaps && o_.rule_candidates > 0, neighbours = o_.neighbour_evidence > 0;
  if (!o_.refinal_stale || !(rules || neighbours) || out_of_time()) return;
  // Deciding again changes winners, and so the class rules' contenders and the neighbours' best:
  // a few rounds until no problem of this run is stale (build_table's own pass may still add
  // evidence for the next run).
  constexpr int kRounds = 3;
  int failures_in_a_row = 0;
  for (int round = 0; round < kRounds; ++round) {
    if (rules) fill_rule_gaps(db_.decisions());
    if (neighbours && !out_of_time()) fill_neighbour_gaps(shapes);
    if (out_of_time()) {
      r.stopped_by_time_limit = true;
      return;
    }
    size_t decided_again = 0;
    for (const auto& s : shapes) {
      std::vector<Layout> layouts;
      for (Layout l : o_.layouts)  // also where the main loop compared it again already: new evidence
        if (db_.decision(s, l, o_.acc) && !needs_work(s, l) && !unfinaled_finalists(s, l).empty()) layouts.push_back(l);
      if (layouts.empty()) continue;
      if (out_of_time()) {
        r.stopped_by_time_limit = true;
        return;
      }
      size_t next = 0;
      try {
        backend_.open(s, o_.acc, o_.seed);
        for (; next < layouts.size(); ++next) {
          const Layout l = layouts[next];
          // A new finalist gets its variants measured (--raster-groups, the twins), as a reopened problem's do.
          if (!raster_variants(s, recorded(s, l), heavy(recorded_baseline_us(s, l))).empty()) raster_problem(s, l);
          else refinal_problem(s, l);
          ++decided_again;
          ++r.after_evidence;
        }
        failures_in_a_row = 0;
      } catch (const ShapeSetupError& e) {
        std::string left;
        for (size_t i = next; i < layouts.size(); ++i) left += (left.empty() ? "" : ", ") + problem_name(s, layouts[i]);
        std::fprintf(stderr, "\ngemmforge tune: %s not decided again: %s\n", left.c_str(), e.what());
        if (++failures_in_a_row >= 3)
          throw Error("three shapes in a row could not be set up on the device; last: " + std::string(e.what()));
      }
    }
    if (decided_again == 0) return;
  }
}

// Which of cuBLASLt's heuristic algorithms the baseline's autotuning kept in this problem's
// latest final comparison (its note says "algo X of Y ..."); -1 when unknown.
int Tuner::autotuned_algo(const Decision& d) const {
  static const std::regex picked("algo ([0-9]+) of ([0-9]+)");
  const auto finals = db_.measurements_of(d.shape, d.layout, d.acc, o_.baseline, "gpu");
  for (auto it = finals.rbegin(); it != finals.rend(); ++it) {
    std::smatch m;
    if (it->verdict == "pass" && std::regex_search(it->note, m, picked)) {
      const int index = std::stoi(m[1].str()) - 1;
      return index >= 0 && index < kLtHeuristicCount ? index : -1;
    }
  }
  return -1;
}

Table Tuner::build_table(const DbEnvironment& env) {
  Table t;
  t.gpu = env.gpu;
  t.arch = env.arch;
  t.kernel_source_hash = env.kernel_source_hash;
  std::vector<Decision> decisions = db_.decisions();
  if (o_.measure_rule_gaps && o_.rule_candidates > 0 && !out_of_time()) fill_rule_gaps(decisions);
  for (const auto& d : decisions) {
    TableEntry e;
    e.speedup = 1.0;
    if (d.served == "cublaslt") {
      e.cublaslt_algo = autotuned_algo(d);
    } else {
      const auto c = candidate_named(db_, d.served);
      if (!c) throw Error("results database: the winner " + d.served + " of " + problem_name(d.shape, d.layout) +
                          " is not in its candidates table");
      if (c->built_for && *c->built_for != d.shape)
        throw Error("results database: the winner " + d.served + " of " + problem_name(d.shape, d.layout) +
                    " is built for another shape");
      name_kernel(e, *c);
      e.specialized = c->specialized();
      e.speedup = d.speedup;
    }
    t.exact[{d.shape.M, d.shape.N, d.shape.K, d.layout, d.acc}] = e;
  }
  add_fastest_kernels(t, db_);
  for (const auto& [key, group] : rule_groups(generic_decisions(decisions))) {
    const auto names = rule_contenders(group, size_t(std::max(0, o_.rule_candidates)));
    const RuleChoice choice = choose_rule(rule_evidence(group, names, nullptr), o_.min_tie);
    TableEntry e;
    e.speedup = choice.geomean;
    if (choice.candidate) {
      const auto c = candidate_named(db_, *choice.candidate);  // generic: rule_evidence takes no other
      name_kernel(e, *c);
    }
    t.rules[key] = e;
  }
  return t;
}

}  // namespace

int budget_for(const TuneOptions& o, const std::optional<double>& baseline_us) {
  int budget = o.budget;
  if (baseline_us)
    for (const auto& t : o.budget_tiers)
      if (*baseline_us < t.below_us) budget = std::max(budget, t.budget);
  return budget;
}

double shape_distance(const Shape& a, const Shape& b) {
  auto steps = [](int64_t x, int64_t y) { return std::abs(std::log2(double(x) / double(y))); };
  return steps(a.M, b.M) + steps(a.N, b.N) + steps(a.K, b.K);
}

std::string sm80_arch_of(const nlohmann::json& device) {
  const std::string cc = device.value("compute_capability", std::string());
  const auto dot = cc.find('.');
  const auto major = parse_integer(cc.substr(0, dot)), minor = dot == std::string::npos ? std::nullopt : parse_integer(cc.substr(dot + 1));
  if (!major || !minor)
    throw Error("the worker did not say the GPU's compute capability (\"" + cc + "\"), which the sm80 family compiles for");
  return sm80_family_arch(int(*major), int(*minor));
}

DbEnvironment db_environment(const nlohmann::json& device, const std::string& kernel_source_hash) {
  auto text = [&](const char* key) -> std::string {
    if (!device.contains(key) || device.at(key).is_null()) return {};
    const auto& v = device.at(key);
    return v.is_string() ? v.get<std::string>() : v.dump();
  };
  DbEnvironment e;
  e.gpu = text("gpu");
  e.arch = text("arch");
  e.kernel_source_hash = kernel_source_hash;
  e.driver = text("nvidia_driver").empty() ? text("cuda_driver") : text("nvidia_driver");
  e.cuda = text("cuda_runtime");
  if (e.gpu.empty() || e.arch.empty()) throw Error("the worker did not say which GPU and architecture it runs on");
  return e;
}

std::filesystem::path companion_path(const std::filesystem::path& table, const std::string& suffix) {
  std::filesystem::path p = table;
  if (p.extension() == ".json") p.replace_extension();
  return p.string() + suffix;
}

TuneResult run_tune(const TuneOptions& o, MeasureBackend& backend, KernelSource& source) {
  if (o.budget < 1) throw UsageError("--budget must be at least 1");
  const nlohmann::json device = backend.environment();
  const DbEnvironment env = db_environment(device, o.kernel_source_hash);
  ResultsDb db(o.db, env);
  TuneResult r;
  r.sm_count = device.value("sm_count", 0);
  if (r.sm_count < 1) throw Error("the worker did not say how many SMs the GPU has");
  // A worker that measured the resident clusters says so; else they are estimated from the SMs.
  r.residency = device.contains("residency") ? Residency::from_json(device.at("residency")) : Residency(r.sm_count);
  if (r.residency.sm_count != r.sm_count) throw Error("the worker's residency counts another number of SMs");
  // Set whenever the device says its compute capability: sm80 kernels may reach the compiler
  // even when that family is not searched now (class rules of a database tuned with it).
  try {
    source.set_sm80_arch(sm80_arch_of(device));
  } catch (const Error&) {
    if (o.search_sm80 && (o.configs.empty() || !o.sm80_configs.empty())) throw;
  }
  r.foreign = db.foreign_count();
  if (r.foreign)
    std::fprintf(stderr,
                 "gemmforge tune: %lld measurements in %s come from another GPU, architecture or kernel source; "
                 "they are kept but not used\n",
                 r.foreign, o.db.c_str());
  nlohmann::json settings = {{"strategy", o.strategy}, {"budget", o.budget}, {"seed", o.seed},
                             {"acc", to_string(o.acc)}, {"shapes", o.shapes.size()}, {"seeds", o.seeds},
                             {"rule_candidates", o.rule_candidates}, {"max_splits", o.max_splits},
                             {"min_tie", o.min_tie}, {"final_rounds", o.final_rounds}, {"baseline", o.baseline},
                             {"heavy_us", o.heavy_us}, {"heavy_finalists", o.heavy_finalists},
                             {"refinal_heavy", o.refinal_heavy}, {"refinal_stale", o.refinal_stale}, {"raster_groups", o.raster_groups}, {"parts_apart", o.parts_apart}, {"cluster_push", o.cluster_push}, {"cluster_twins", o.cluster_twins}, {"ksplit_twins", o.ksplit_twins}, {"space_twins", o.space_twins}, {"uniform_warpgroup_twins", o.uniform_warpgroup_twins}, {"dynamic_walk_twins", o.dynamic_walk_twins}, {"walk_n_twins", o.walk_n_twins},
                             {"configs", o.configs.empty() && o.sm80_configs.empty() ? nlohmann::json("all")
                                                                                   : nlohmann::json(o.configs.size())},
                             {"sm80_configs", o.configs.empty() && o.sm80_configs.empty()
                                                  ? nlohmann::json("all")
                                                  : nlohmann::json(o.sm80_configs.size())},
                             {"families", nlohmann::json::array()}, {"specialize", o.specialize},
                             {"prior_problems", o.prior.size()}, {"neighbour_seeds", o.neighbour_seeds}, {"neighbour_evidence", o.neighbour_evidence},
                             {"split_seeds", nlohmann::json::array()},
                             {"budget_under_us", nlohmann::json::array()}};
  for (const auto& t : o.budget_tiers) settings["budget_under_us"].push_back({t.below_us, t.budget});
  for (const auto& c : o.split_seeds) settings["split_seeds"].push_back(c.name());
  if (o.search_hopper) settings["families"].push_back("hopper");
  if (o.search_sm80) settings["families"].push_back("sm80");
  nlohmann::json layouts = nlohmann::json::array();
  for (Layout l : o.layouts) layouts.push_back(to_string(l));
  settings["layouts"] = layouts;
  db.begin_run(o.command, device.dump(), settings.dump());

  Tuner tuner(o, backend, source, db, r.residency);
  tuner.run(r);
  r.table = tuner.build_table(env);
  // The table must load the way the runtime library will load it.
  table_from_json(r.table.to_json(), TableExpectation{env.gpu, env.arch, env.kernel_source_hash});

  for (const auto& s : o.shapes)
    for (Layout l : o.layouts)
      if (auto d = db.decision(s, l, o.acc)) r.decisions.push_back(*d);
  r.summary = summarize_decisions(r.decisions);

  r.table_path = o.out;
  r.decisions_path = companion_path(o.out, ".decisions.csv");
  r.summary_path = companion_path(o.out, ".summary.json");
  if (o.out.has_parent_path()) std::filesystem::create_directories(o.out.parent_path());
  write_file_atomically(r.table_path, r.table.to_json().dump(1) + "\n");
  write_file_atomically(r.decisions_path, decisions_csv(r.decisions));
  const nlohmann::json summary = {{"schema", "gemmforge.tune-summary/2"},
                                  {"command", o.command},
                                  {"environment", device},
                                  {"settings", settings},
                                  {"database", o.db.string()},
                                  {"table", r.table_path.string()},
                                  {"problems", r.problems},
                                  {"tuned_now", r.tuned_now},
                                  {"refinaled", r.refinaled}, {"after_evidence", r.after_evidence},
                                  {"rerastered", r.rerastered},
                                  {"already_done", r.already_done},
                                  {"skipped", r.skipped},
                                  {"stopped_by_time_limit", r.stopped_by_time_limit},
                                  {"candidates_measured", r.measured},
                                  {"candidates_failed", r.failed},
                                  {"candidates_not_built", r.not_built},
                                  {"results_reused", r.reused},
                                  {"foreign_measurements_ignored", r.foreign},
                                  {"table_entries", r.table.exact.size()},
                                  {"table_rules", r.table.rules.size()},
                                  {"classes", summary_json(r.summary)}};
  write_file_atomically(r.summary_path, summary.dump(1) + "\n");
  db.finish_run(summary.dump());
  return r;
}

}  // namespace gemmforge::tune
