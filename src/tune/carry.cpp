#include "tune/carry.hpp"

#include <map>
#include <set>
#include <tuple>

#include <nlohmann/json.hpp>

#include "tune/tuner.hpp"

namespace gemmforge::tune {
namespace {

using ProblemKey = std::tuple<int64_t, int64_t, int64_t, int, int>;
ProblemKey key_of(const Shape& s, Layout l, Accum a) { return {s.M, s.N, s.K, int(l), int(a)}; }

}  // namespace

std::vector<KernelCandidate> measured_candidates(const std::filesystem::path& db, const DbEnvironment& from) {
  ResultsDb d(db, from);
  std::set<std::string> seen;
  std::vector<KernelCandidate> out;
  for (const auto& m : d.all_in_this_environment())
    if (m.impl == "gemmforge" && seen.insert(m.config).second)
      if (const auto c = candidate_named(d, m.config)) out.push_back(*c);
  return out;
}

CarryResult carry_results(const CarryOptions& o) {
  if (o.from.gpu != o.to.gpu || o.from.arch != o.to.arch || o.from.protocol != o.to.protocol)
    throw Error("db carry: results move only between kernel sources of one GPU, architecture and protocol (" +
                o.from.key() + " -> " + o.to.key() + ")");
  if (o.from.kernel_source_hash == o.to.kernel_source_hash) throw Error("db carry: both name kernel source " + o.to.kernel_source_hash);
  ResultsDb from(o.db, o.from);
  const std::vector<Measurement> measured = from.all_in_this_environment();
  const std::vector<Decision> decided = from.decisions();

  CarryResult r;
  std::map<std::string, bool> unchanged;  // candidate name -> same code under both sources
  for (const auto& m : measured) {
    if (m.impl != "gemmforge" || unchanged.count(m.config)) continue;
    const auto c = candidate_named(from, m.config);
    const std::optional<bool> same = c ? o.same_code(*c) : std::nullopt;
    unchanged[m.config] = same.value_or(false);
    ++r.candidates;
    if (!same) {
      ++r.not_built;
      r.not_built_names.push_back(m.config);
    } else if (*same) {
      ++r.identical;
    } else {
      ++r.changed;
      r.changed_names.push_back(m.config);
    }
  }

  ResultsDb to(o.db, o.to);
  // What an earlier carry (or a tune under the new source) left there stays; everything else
  // moves in its order, so the latest of repeated measurements stays the latest.
  using RowKey = std::tuple<ProblemKey, std::string, std::string, std::string>;
  auto row_key = [](const Measurement& m) { return RowKey{key_of(m.shape, m.layout, m.acc), m.impl, m.config, m.mode}; };
  std::set<RowKey> present;
  for (const auto& m : to.all_in_this_environment()) present.insert(row_key(m));
  to.begin_run(o.command, nlohmann::json{{"carried_from", o.from.key()}}.dump(),
               nlohmann::json{{"kernel_source_from", o.from.kernel_source_hash}}.dump());
  std::set<ProblemKey> touched_by_a_change;
  const std::string note = "carried from kernel source " + o.from.kernel_source_hash + ": ";
  for (Measurement m : measured) {
    const bool baseline = m.impl != "gemmforge";
    if (!baseline && !unchanged.at(m.config)) {
      touched_by_a_change.insert(key_of(m.shape, m.layout, m.acc));
      continue;
    }
    if (present.count(row_key(m))) {
      ++r.already;
      continue;
    }
    m.note = note + (baseline ? "a baseline" : "the same code") + (m.note.empty() ? "" : "; " + m.note);
    to.record(m);
    ++(baseline ? r.baselines : r.measurements);
  }
  for (const auto& d : decided) {
    if (touched_by_a_change.count(key_of(d.shape, d.layout, d.acc))) continue;
    if (to.decision(d.shape, d.layout, d.acc)) {
      ++r.already;
      continue;
    }
    to.record_decision(d);
    ++r.decisions;
  }
  to.finish_run(nlohmann::json{{"candidates", r.candidates}, {"identical", r.identical}, {"changed", r.changed},
                               {"not_built", r.not_built}, {"measurements", r.measurements},
                               {"baselines", r.baselines}, {"decisions", r.decisions}, {"already", r.already}}
                    .dump());
  return r;
}

}  // namespace gemmforge::tune
