// gemmforge db carry: a database's results under one kernel source carried to the current one,
// for the candidates whose compiled code the edit left as it was. A kernel edit changes the
// source hash of every build, so a tune would measure all 2000 grid problems again (about 16
// device minutes) though most configs often compile to the same code: the edit sat behind a
// knob they do not set. A measurement is of the code that ran, so where both sources build a
// candidate to the same code (jit::code_fingerprint), its measurements hold for the new source.
// Nothing is carried silently: each carried row says so in its note, the carry is a run of its
// own in the database, and only what both sources build alike moves.
#pragma once
#include <functional>
#include <optional>
#include <string>

#include "core/kernel_candidate.hpp"
#include "search/results_db.hpp"

namespace gemmforge::tune {

struct CarryOptions {
  std::filesystem::path db;
  DbEnvironment from, to;  // same GPU, architecture and protocol; other kernel source hashes
  // Whether the candidate compiles to the same code under both sources; nullopt where either
  // build failed (then it counts as changed).
  std::function<std::optional<bool>(const KernelCandidate&)> same_code;
  std::string command;  // recorded as the carry's run
};

struct CarryResult {
  size_t candidates = 0, identical = 0, changed = 0, not_built = 0;
  long long measurements = 0;  // candidate measurements carried
  long long baselines = 0;     // baseline measurements carried (they run no kernel of ours)
  long long decisions = 0;     // problems whose every measured candidate is identical
  long long already = 0;       // rows the target environment held already (a second carry)
  std::vector<std::string> changed_names, not_built_names;
};

// Copies, into the `to` environment: every baseline measurement; every measurement of a candidate
// that same_code says is unchanged; and the decision of every problem all of whose measured
// candidates are unchanged. A problem with a changed candidate keeps no decision, so the next
// tune finishes it (the carried measurements count toward its budget; the changed candidate is
// measured again if proposed). Throws Error when the environments differ in more than the
// kernel source, or the database cannot be opened.
CarryResult carry_results(const CarryOptions&);

// The candidates the `from` environment holds measurements of, each once: what carry_results
// asks same_code about (so a caller can compile them all at once first).
std::vector<KernelCandidate> measured_candidates(const std::filesystem::path& db, const DbEnvironment& from);

}  // namespace gemmforge::tune
