#include "eval/verify.hpp"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <random>

#include "eval/check_ops.hpp"

namespace gemmforge {
namespace {

using check_ops::FillPattern;

std::string fmtf(const char* f, double v) {
  char b[64];
  std::snprintf(b, sizeof b, f, v);
  return b;
}

size_t thread_count() {
  std::error_code ec;
  size_t n = 0;
  for (auto it = std::filesystem::directory_iterator("/proc/self/task", ec);
       !ec && it != std::filesystem::directory_iterator(); it.increment(ec))
    ++n;
  return n;
}

// What a candidate may not leave behind after its call (design.md 6.7).
struct SideEffects {
  size_t threads = 0;
  size_t persisting_l2 = 0;
  size_t stream_window_bytes = 0;
  static SideEffects read(cudaStream_t s) {
    SideEffects e;
    e.threads = thread_count();
    GF_CUDA(cudaDeviceGetLimit(&e.persisting_l2, cudaLimitPersistingL2CacheSize));
    cudaStreamAttrValue v{};
    GF_CUDA(cudaStreamGetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &v));
    e.stream_window_bytes = v.accessPolicyWindow.num_bytes;
    return e;
  }
};

const char* trial_name(int t) {
  static const char* names[] = {"random-normal", "binary 0/1", "ones (accumulator)", "cancellation (accumulator)"};
  return names[t];
}

uint64_t mix(uint64_t a, uint64_t b) {
  uint64_t x = a ^ (b + 0x9E3779B97F4A7C15ull + (a << 6) + (a >> 2));
  x = (x ^ (x >> 31)) * 0x7FB5D329728EA185ull;
  return x ^ (x >> 27);
}

}  // namespace

std::string Verdict::text() const {
  if (failures.empty()) return "pass";
  // Up to four reasons: enough to tell a precision problem from a wrong kernel at a glance.
  std::string t = "fail: ";
  for (size_t i = 0; i < failures.size() && i < 4; ++i) t += (i ? "; " : "") + failures[i];
  if (failures.size() > 4) t += " (+" + std::to_string(failures.size() - 4) + " more)";
  return t;
}

Tolerance random_trial_tolerance(Accum acc, int64_t K) {
  const double sk = std::sqrt(double(K));
  // Inputs are N(0, 1), so C has standard deviation √K. f32: output rounding (half an fp16 ulp,
  // 2^-11) twice over, plus 2^-8·√K for the few fp16-rounded partial sums of a split-K
  // reduction. f16: each of ~K/16 additions rounds a partial sum of size up to √K; seen on
  // cuBLAS (H200): max |error| 1.2 at K = 2048 and 7.0 at K = 16384.
  if (acc == Accum::f32) return {float(std::ldexp(1.0, -10)), float(std::ldexp(sk, -8)), 2e-3};
  return {float(std::ldexp(1.0, -8)), float(std::ldexp(double(K), -10)), std::ldexp(sk, -10) + 1e-3};
}

CorrectnessGate::CorrectnessGate(DeviceContext& ctx, ShapeBuffers& buf, Accum acc, GateOptions opt)
    : ctx_(ctx), buf_(buf), acc_(acc), opt_(opt) {
  if (!opt_.fixed_inputs) ref_.values = DeviceBuffer(size_t(buf.shape().M * buf.shape().N) * sizeof(float));
}

std::vector<Verdict> CorrectnessGate::check(const std::vector<Candidate>& cands) {
  std::vector<Verdict> v(cands.size());
  const auto& s = buf_.shape();
  const uint64_t round = opt_.fixed_inputs ? 0 : uint64_t(rounds_++);
  const uint64_t base = mix(mix(mix(opt_.seed, uint64_t(s.M)), uint64_t(s.N)), uint64_t(s.K)) + round * 1000;
  for (int t = 0; t < opt_.random_trials; ++t) run_trial(Trial::normal, base + 1 + t, cands, v);
  // Binary sums are integers; they are exact under f32, and under f16 only while they fit
  // fp16's integers (K ≤ 2048).
  if (acc_ == Accum::f32 || s.K <= 2048) run_trial(Trial::binary, base + 100, cands, v);
  if (acc_ == Accum::f32) {
    if (s.K > 2048) run_trial(Trial::ones, 0, cands, v);
    if (s.K >= 64) run_trial(Trial::cancel, 0, cands, v);
  }
  return v;
}

std::vector<Verdict> CorrectnessGate::recheck_after_timing(const std::vector<Candidate>& cands) {
  std::vector<Verdict> v(cands.size());
  const auto& s = buf_.shape();
  const uint64_t round = opt_.fixed_inputs ? 0 : uint64_t(rounds_++);
  const uint64_t seed = mix(mix(opt_.seed ^ 0xAF7E2ull, uint64_t(s.M * 31 + s.N)), uint64_t(s.K)) + round * 1000;
  run_trial(Trial::normal, seed, cands, v);
  for (auto& verdict : v)
    for (auto& f : verdict.failures) f = "after timing, " + f;
  return v;
}

void CorrectnessGate::run_trial(Trial trial, uint64_t seed, const std::vector<Candidate>& cands,
                                std::vector<Verdict>& verdicts) {
  const auto& s = buf_.shape();
  cudaStream_t st = ctx_.stream();
  const FillPattern a_pat = trial == Trial::normal   ? FillPattern::normal
                            : trial == Trial::binary ? FillPattern::binary
                            : trial == Trial::ones   ? FillPattern::ones
                                                     : FillPattern::cancel_a;
  const FillPattern b_pat = trial == Trial::cancel ? FillPattern::cancel_b : a_pat;
  const bool needs_ref = trial == Trial::normal || trial == Trial::binary;
  check_ops::fill(buf_.a().data(), s.M, s.K, false, a_pat, seed * 2 + 1, true, st);
  check_ops::fill(buf_.b().data(), s.K, s.N, false, b_pat, seed * 2 + 2, false, st);
  float expected = 0;
  const Reference* ref = nullptr;
  if (needs_ref) ref = &reference(trial, seed);
  else expected = trial == Trial::ones ? float(s.K) : float(check::cancel_expected(s.K));
  for (Layout layout : {Layout::nn, Layout::tn}) {
    bool filled = layout == Layout::nn;
    for (size_t i = 0; i < cands.size(); ++i) {
      if (cands[i].layout != layout) continue;
      if (!filled) {  // same logical B, stored N×K
        check_ops::fill(buf_.b().data(), s.K, s.N, true, b_pat, seed * 2 + 2, false, st);
        filled = true;
      }
      Verdict one;
      static const std::vector<std::pair<int64_t, int64_t>> no_spots;
      static const std::vector<double> no_values;
      check_one(trial, cands[i], ref ? static_cast<const float*>(ref->values.get()) : nullptr, expected, one,
                ref ? ref->spots : no_spots, ref ? ref->spot_values : no_values);
      for (auto& f : one.failures) verdicts[i].failures.push_back(std::string(trial_name(int(trial))) + ": " + f);
    }
  }
}

void CorrectnessGate::check_one(Trial trial, const Candidate& cand, const float* ref, float expected,
                                Verdict& v, const std::vector<std::pair<int64_t, int64_t>>& spots,
                                const std::vector<double>& spot_values) {
  const auto& s = buf_.shape();
  cudaStream_t st = ctx_.stream();
  // Item 4: NaN poison (0x7E7E is an fp16 NaN) so unwritten elements cannot pass.
  GF_CUDA(cudaMemsetAsync(buf_.c().data(), 0x7E, size_t(s.M * s.N) * sizeof(__half), st));
  buf_.a().reset_guards(st);
  buf_.b().reset_guards(st);
  buf_.c().reset_guards(st);
  GF_CUDA(cudaStreamSynchronize(st));
  const SideEffects before = SideEffects::read(st);
  try {
    cand.impl->run(buf_.guarded());
  } catch (const Error& e) {
    v.failures.push_back(std::string("the call failed: ") + e.what());
    GF_CUDA(cudaStreamSynchronize(st));
    return;
  }
  // Only our stream is waited on here, on purpose: work a candidate left on another stream is
  // still running and shows up as poison or wrong values (item 7).
  const Tolerance tol = random_trial_tolerance(acc_, s.K);
  const bool exact = trial != Trial::normal;
  const auto stats = check_ops::compare(buf_.c().data(), ref, expected, s.M * s.N, tol.rel, tol.abs, exact, st);
  if (cudaError_t e = cudaGetLastError(); e != cudaSuccess)
    throw Error(std::string("CUDA error after a candidate's call (the context may be lost): ") + cudaGetErrorString(e));
  const SideEffects after = SideEffects::read(st);

  auto where = [&](unsigned long long idx) {
    std::string at = "(";  // appended, not "(" + ...: GCC 12 warns falsely (-Wrestrict) on that form
    at += std::to_string(idx / uint64_t(s.N));
    at += ", ";
    at += std::to_string(idx % uint64_t(s.N));
    return at + ")";
  };
  if (stats.nan_count)
    v.failures.push_back(std::to_string(stats.nan_count) + " elements NaN/Inf or never written, first at " +
                         where(stats.first_bad));
  if (stats.bad_count) {
    float max_err;
    std::memcpy(&max_err, &stats.max_err_bits, sizeof max_err);
    v.failures.push_back(std::to_string(stats.bad_count) + (exact ? " elements not bit-exact" : " elements out of tolerance") +
                         ", first at " + where(stats.first_bad) + ", max |error| " + fmtf("%.4g", max_err) +
                         (ref ? "" : ", expected every element = " + fmtf("%.0f", expected)));
  }
  if (trial == Trial::normal && stats.ref_sq > 0) {
    const double rel = std::sqrt(stats.err_sq / stats.ref_sq);
    if (rel > tol.frobenius)
      v.failures.push_back("relative Frobenius error " + fmtf("%.3g", rel) + " above " + fmtf("%.3g", tol.frobenius));
  }
  for (auto* g : {&buf_.a(), &buf_.b(), &buf_.c()})
    if (auto n = g->changed_guard_bytes(st))
      v.failures.push_back("out-of-bounds write: " + std::to_string(n) + " guard bytes changed around " +
                           (g == &buf_.a() ? "A" : g == &buf_.b() ? "B" : "C"));
  // Only new threads count: one of the process's own (the CUDA runtime's, a compile pool's) may
  // end during the call, and that is not the candidate's doing.
  if (after.threads > before.threads)
    v.failures.push_back("the call left " + std::to_string(after.threads - before.threads) + " new threads running");
  if (after.persisting_l2 != before.persisting_l2 || after.stream_window_bytes != before.stream_window_bytes)
    v.failures.push_back("the call changed the persisting-L2 limit or the stream's access-policy window");
  // Spot checks against fp64 on the CPU.
  if (!spots.empty() && stats.nan_count == 0) {
    for (size_t i = 0; i < spots.size(); ++i) {
      __half h;
      GF_CUDA(cudaMemcpy(&h, buf_.c().data() + spots[i].first * s.N + spots[i].second, sizeof h, cudaMemcpyDeviceToHost));
      const double c = double(__half2float(h)), r = spot_values[i];
      if (std::abs(c - r) > double(tol.abs) + double(tol.rel) * std::abs(r)) {
        v.failures.push_back("element (" + std::to_string(spots[i].first) + ", " + std::to_string(spots[i].second) +
                             ") is " + fmtf("%.6g", c) + ", fp64 says " + fmtf("%.6g", r));
        break;
      }
    }
  }
}

const CorrectnessGate::Reference& CorrectnessGate::reference(Trial trial, uint64_t seed) {
  const auto& s = buf_.shape();
  auto compute = [&](Reference& r) {
    cudaStream_t st = ctx_.stream();
    check_ops::reference_gemm(buf_.a().data(), buf_.b().data(), static_cast<float*>(r.values.get()), s.M, s.N, s.K, st);
    GF_CUDA(cudaStreamSynchronize(st));
    r.spots.clear();
    r.spot_values.clear();
    if (trial == Trial::normal) {
      r.spots = pick_spots(seed);
      r.spot_values = fp64_values(r.spots, static_cast<const float*>(r.values.get()));  // B is in nn order now
    }
  };
  if (!opt_.fixed_inputs) {
    compute(ref_);
    return ref_;
  }
  if (auto it = kept_refs_.find({int(trial), seed}); it != kept_refs_.end()) return it->second;
  // With fixed inputs, a reference is kept only once it is complete: a throw in compute must not
  // leave a half-made one for the next call to take as valid.
  Reference fresh;
  fresh.values = DeviceBuffer(size_t(s.M * s.N) * sizeof(float));
  compute(fresh);
  return kept_refs_.emplace(std::make_pair(int(trial), seed), std::move(fresh)).first->second;
}

std::vector<std::pair<int64_t, int64_t>> CorrectnessGate::pick_spots(uint64_t seed) const {
  const auto& s = buf_.shape();
  std::mt19937_64 rng(seed);
  std::vector<std::pair<int64_t, int64_t>> spots;
  // The corners first: edge tiles are where bounds handling goes wrong.
  spots.push_back({s.M - 1, s.N - 1});
  spots.push_back({0, s.N - 1});
  spots.push_back({s.M - 1, 0});
  while (int(spots.size()) < opt_.spot_checks)
    spots.push_back({int64_t(rng() % uint64_t(s.M)), int64_t(rng() % uint64_t(s.N))});
  return spots;
}

// Reads A's row and B's column (nn order) for each spot and computes the dot product in fp64;
// also holds the reference kernel to account, so an evaluator bug cannot pass or fail silently.
std::vector<double> CorrectnessGate::fp64_values(const std::vector<std::pair<int64_t, int64_t>>& spots,
                                                 const float* ref) const {
  const auto& s = buf_.shape();
  std::vector<double> out;
  std::vector<__half> row(size_t(s.K)), col(size_t(s.K));
  for (auto [i, j] : spots) {
    GF_CUDA(cudaMemcpy(row.data(), buf_.a().data() + i * s.K, size_t(s.K) * sizeof(__half), cudaMemcpyDeviceToHost));
    GF_CUDA(cudaMemcpy2D(col.data(), sizeof(__half), buf_.b().data() + j, size_t(s.N) * sizeof(__half), sizeof(__half),
                         size_t(s.K), cudaMemcpyDeviceToHost));
    double dot = 0, mag = 0;
    for (int64_t k = 0; k < s.K; ++k) {
      const double p = double(__half2float(row[size_t(k)])) * double(__half2float(col[size_t(k)]));
      dot += p;
      mag += std::abs(p);
    }
    float r;
    GF_CUDA(cudaMemcpy(&r, ref + i * s.N + j, sizeof r, cudaMemcpyDeviceToHost));
    if (std::abs(double(r) - dot) > 1e-5 * mag + 1e-6)
      throw Error("evaluator bug: the fp32 reference disagrees with fp64 at (" + std::to_string(i) + ", " +
                  std::to_string(j) + ") of " + to_string(s) + ": " + fmtf("%.8g", r) + " vs " + fmtf("%.8g", dot));
    out.push_back(dot);
  }
  return out;
}

}  // namespace gemmforge
