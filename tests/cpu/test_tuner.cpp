// The tuner's loop on CPU, against the stand-in worker process (fake_worker.cpp) and a pretend
// compiler: bad candidates are recorded and the run finishes, a rerun resumes without measuring
// anything twice, results of another GPU or kernel source are never reused, split-K is tried
// where tiles are few, and the table and its class rules follow from the measurements.
#include <gtest/gtest.h>

#include <functional>

#include <regex>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "fake_device.hpp"
#include "runtime/table.hpp"
#include "tune/carry.hpp"
#include "tune/tuner.hpp"
#include "tune/worker_backend.hpp"

namespace gemmforge::tune {
namespace {

struct TempDir {
  std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("gemmforge_tune_test_" + std::to_string(getpid()) + "_" +
                                                ::testing::UnitTest::GetInstance()->current_test_info()->name());
  TempDir() {
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~TempDir() { std::filesystem::remove_all(path); }
};

std::string fake_worker() {
  return (std::filesystem::read_symlink("/proc/self/exe").parent_path() / "gemmforge_fake_worker").string();
}

// Instant "compiles"; the configs named in `broken` do not compile.
class FakeSource final : public KernelSource {
 public:
  std::set<std::string> broken;
  std::vector<std::string> built;  // build names asked for, in order
  std::string sm80_arch;
  CompiledConfig get(const KernelCandidate& c) override {
    built.push_back(c.build_name());
    if (broken.count(c.config_name())) return {false, "", "compile failed: planted"};
    return {true, "fake-" + c.build_name(), ""};
  }
  void set_sm80_arch(const std::string& arch) override { sm80_arch = arch; }
};

// A config of the real tn space by its knobs.
KernelConfig config(int bm, int bn, int stages, int consumers) {
  for (const auto& c : config_space(Layout::tn, Accum::f32))
    if (c.block_m == bm && c.block_n == bn && c.stages == stages && c.consumers == consumers &&
        c.mode == ConsumerMode::cooperative && c.cluster_m == 1 && c.cluster_n == 1 && !c.tma_store && !c.swap_ab)
      return c;
  throw Error("no such config in the space");
}

bool is_variant_of(const std::string& candidate, const KernelConfig& c);

struct Fixture {
  TempDir dir;
  KernelConfig good = config(128, 128, 4, 2);
  std::vector<KernelConfig> slow = {config(64, 32, 2, 1), config(64, 32, 3, 1), config(64, 32, 4, 1),
                                    config(64, 32, 5, 1), config(64, 32, 6, 1), config(64, 32, 7, 1)};
  std::filesystem::path log = dir.path / "worker.log";

  TuneOptions options(std::vector<Shape> shapes, int budget) const {
    TuneOptions o;
    o.shapes = std::move(shapes);
    o.layouts = {Layout::tn};
    o.strategy = "exhaustive";
    o.budget = budget;
    o.configs = slow;
    o.configs.insert(o.configs.begin() + 2, good);
    o.max_splits = 1;
    o.compile_whole_space = false;
    o.kernel_source_hash = "hash1";
    o.db = dir.path / "tune.sqlite";
    o.out = dir.path / "table.json";
    o.command = "gemmforge tune (test)";
    return o;
  }
  // Options whose search alone decides: no seeds, no class-rule pass.
  TuneOptions searched_only(std::vector<Shape> shapes, int budget) const {
    TuneOptions o = options(std::move(shapes), budget);
    o.seeds = 0;
    o.neighbour_seeds = 0;
    o.measure_rule_gaps = false;
    return o;
  }
  // A passing estimate of `c` on `s`, recorded after whatever was decided there.
  void record_estimate(const Shape& s, const KernelCandidate& c, double us, const std::string& note) const {
    ResultsDb d = db();
    d.add_candidate(c.name(), c.to_json().dump());
    Measurement m;
    m.shape = s;
    m.layout = Layout::tn;
    m.acc = Accum::f32;
    m.impl = "gemmforge";
    m.config = c.name();
    m.mode = "estimate";
    m.verdict = "pass";
    m.median_us = us;
    m.note = note;
    d.record(m);
  }
  // Whether an estimate of a build of `c` on `s` carries `note` (what the evidence passes write).
  bool estimated_with_note(const Shape& s, const KernelConfig& c, const std::string& note) const {
    for (const auto& m : db().measurements_of(s, Layout::tn, Accum::f32, "gemmforge", "estimate"))
      if (is_variant_of(m.config, c) && m.note == note) return true;
    return false;
  }
  std::vector<std::string> worker(std::vector<std::string> extra = {}) const {
    std::vector<std::string> argv = {fake_worker(), "worker", "--cache-dir", dir.path.string(), "--log", log.string()};
    argv.insert(argv.end(), extra.begin(), extra.end());
    return argv;
  }
  TuneResult run(const TuneOptions& o, std::vector<std::string> extra = {}, int* starts = nullptr,
                 double candidate_timeout_s = 30) const {
    WorkerTimeouts t;
    t.candidate_s = candidate_timeout_s;
    WorkerBackend backend(worker(std::move(extra)), t);
    FakeSource source;
    TuneResult r = run_tune(o, backend, source);
    if (starts) *starts = backend.worker_starts();
    return r;
  }
  // The worker's log lines of one kind ("measure M N K layout name", "baseline ...", ...).
  std::vector<std::string> logged(const std::string& op) const {
    std::vector<std::string> out;
    std::ifstream in(log);
    for (std::string line; std::getline(in, line);)
      if (line.rfind(op + " ", 0) == 0) out.push_back(line);
    return out;
  }
  ResultsDb db(const std::string& gpu = "Fake GPU", const std::string& hash = "hash1") const {
    return ResultsDb(dir.path / "tune.sqlite", DbEnvironment{gpu, "sm_90a", hash, "", ""});
  }
};

// Whether a measured candidate's name is this config with launch knobs (e.g. "_k4_pdl") or none.
bool is_variant_of(const std::string& candidate, const KernelConfig& c) {
  if (candidate.rfind(c.name(), 0) != 0) return false;
  static const std::regex knobs("((_g|_k)[0-9]+|_sk|_np|_pdl|_lastsum|_dsm)*");
  return std::regex_match(candidate.substr(c.name().size()), knobs);
}

std::string verdict_of(const std::vector<Measurement>& ms, const KernelConfig& c) {
  for (const auto& m : ms)
    if (is_variant_of(m.config, c)) return m.verdict;
  return "not measured";
}

TEST(Tuner, RecordsCrashesHangsGarbageAndWrongResultsAsFailuresAndFinishes) {
  Fixture f;
  const Shape s{512, 512, 512};
  const auto o = f.options({s}, 7);
  int starts = 0;
  // The hang costs one candidate timeout (1 s here).
  const TuneResult r = f.run(o,
                             {"--crash", f.slow[0].name(), "--hang", f.slow[1].name(), "--garbage", f.slow[2].name(),
                              "--exit", f.slow[3].name(), "--fatal", f.slow[4].name(), "--wrong", f.slow[5].name()},
                             &starts, 1.0);
  EXPECT_EQ(r.tuned_now, 1u);
  EXPECT_EQ(r.measured, 7);
  EXPECT_EQ(r.failed, 6);
  EXPECT_EQ(starts, 6);  // the first worker, and one after each of the five that killed it

  const auto ms = f.db().measurements_of(s, Layout::tn, Accum::f32, "gemmforge", "estimate");
  ASSERT_EQ(ms.size(), 7u);
  EXPECT_NE(verdict_of(ms, f.slow[0]).find("signal 11"), std::string::npos) << verdict_of(ms, f.slow[0]);
  EXPECT_NE(verdict_of(ms, f.slow[1]).find("timeout after 1 s"), std::string::npos) << verdict_of(ms, f.slow[1]);
  EXPECT_NE(verdict_of(ms, f.slow[2]).find("garbage"), std::string::npos) << verdict_of(ms, f.slow[2]);
  EXPECT_NE(verdict_of(ms, f.slow[3]).find("exited with code 7"), std::string::npos) << verdict_of(ms, f.slow[3]);
  EXPECT_NE(verdict_of(ms, f.slow[4]).find("illegal memory access"), std::string::npos) << verdict_of(ms, f.slow[4]);
  EXPECT_NE(verdict_of(ms, f.slow[4]).find("CUDA context was lost"), std::string::npos);
  EXPECT_NE(verdict_of(ms, f.slow[5]).find("out of tolerance"), std::string::npos) << verdict_of(ms, f.slow[5]);
  EXPECT_EQ(verdict_of(ms, f.good), "pass");
  for (const auto& m : ms)
    EXPECT_TRUE(m.verdict == "pass" || m.verdict.rfind("fail: ", 0) == 0) << m.verdict;

  // The good config beats the pretend baseline outside the noise: the table serves it.
  const auto d = f.db().decision(s, Layout::tn, Accum::f32);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->outcome, "win");
  EXPECT_TRUE(is_variant_of(d->served, f.good)) << d->served;
  const Table t = load_table(o.out, {"Fake GPU", "sm_90a", "hash1"});
  const auto e = t.lookup(s, Layout::tn, Accum::f32);
  ASSERT_TRUE(e && e->config);
  EXPECT_EQ(*e->config, f.good);
  EXPECT_TRUE(std::filesystem::exists(r.decisions_path));
  EXPECT_TRUE(std::filesystem::exists(r.summary_path));
  // The final rounds are recorded too, with the clocks they ran at.
  const auto finals = f.db().measurements_of(s, Layout::tn, Accum::f32, "gemmforge", "gpu");
  ASSERT_EQ(finals.size(), 1u);
  EXPECT_NE(finals[0].note.find("sm_clock_mhz"), std::string::npos);
  EXPECT_TRUE(f.db().find(s, Layout::tn, Accum::f32, "cublaslt-autotune", "", "gpu").has_value());
}

TEST(Tuner, AFailedCompileIsAFailedCandidateNotAStop) {
  Fixture f;
  const Shape s{512, 512, 512};
  auto o = f.options({s}, 6);  // seven configs, one of which does not compile
  WorkerBackend backend(f.worker());
  FakeSource source;
  source.broken = {f.slow[0].name()};
  run_tune(o, backend, source);
  const auto ms = f.db().measurements_of(s, Layout::tn, Accum::f32, "gemmforge", "estimate");
  EXPECT_EQ(verdict_of(ms, f.slow[0]), "fail: not built: compile failed: planted");
  // The worker never saw it, and it cost no budget: the other six were all measured.
  EXPECT_EQ(f.logged("measure").size(), 6u);
  EXPECT_EQ(ms.size(), 7u);
}

TEST(Tuner, ARerunResumesAndMeasuresNothingTwice) {
  Fixture f;
  const std::vector<Shape> shapes = {{512, 512, 512}, {1024, 256, 2048}};
  const TuneResult first = f.run(f.options(shapes, 3));
  EXPECT_EQ(first.measured, 6);
  EXPECT_EQ(f.logged("measure").size(), 6u);  // the budget counts measurements
  EXPECT_EQ(f.logged("baseline").size(), 2u);

  const TuneResult again = f.run(f.options(shapes, 3));
  EXPECT_EQ(again.already_done, 2u);
  EXPECT_EQ(again.measured, 0);
  EXPECT_EQ(f.logged("measure").size(), 6u);
  EXPECT_EQ(f.logged("baseline").size(), 2u);
  EXPECT_EQ(f.logged("compare").size(), 2u);
  EXPECT_EQ(again.decisions.size(), 2u);

  // A larger budget goes on searching from where it stopped.
  const TuneResult more = f.run(f.options(shapes, 5));
  EXPECT_EQ(more.measured, 4);
  const auto lines = f.logged("measure");
  EXPECT_EQ(lines.size(), 10u);
  EXPECT_EQ(std::set<std::string>(lines.begin(), lines.end()).size(), lines.size()) << "a candidate was measured twice";
  for (const auto& d : more.decisions) EXPECT_EQ(d.budget, 5);
}

// Stands for a tuner process killed in the middle of a problem.
class DiesAfter final : public MeasureBackend {
 public:
  DiesAfter(MeasureBackend& inner, int measurements) : inner_(inner), left_(measurements) {}
  nlohmann::json environment() override { return inner_.environment(); }
  void open(const Shape& s, Accum a, uint64_t seed) override { inner_.open(s, a, seed); }
  Outcome measure(Layout l, const KernelCandidate& c, const std::string& key) override {
    if (left_-- == 0) throw std::runtime_error("the tuner was killed");
    return inner_.measure(l, c, key);
  }
  Outcome baseline(Layout l, const std::string& impl) override { return inner_.baseline(l, impl); }
  std::vector<EntryResult> compare(Layout l, const std::vector<FinalEntry>& e, int rounds) override {
    return inner_.compare(l, e, rounds);
  }

 private:
  MeasureBackend& inner_;
  int left_;
};

TEST(Tuner, AnInterruptedRunLosesNothingMeasured) {
  Fixture f;
  const Shape s{512, 512, 512};
  {
    WorkerBackend worker(f.worker());
    DiesAfter dying(worker, 3);
    FakeSource source;
    EXPECT_THROW(run_tune(f.options({s}, 5), dying, source), std::runtime_error);
  }
  EXPECT_EQ(f.db().measurements_of(s, Layout::tn, Accum::f32, "gemmforge", "estimate").size(), 3u);
  EXPECT_FALSE(f.db().decision(s, Layout::tn, Accum::f32).has_value());
  const TuneResult r = f.run(f.options({s}, 5));
  EXPECT_EQ(r.measured, 2);
  EXPECT_EQ(r.reused, 3);
  const auto lines = f.logged("measure");
  EXPECT_EQ(lines.size(), 5u);
  EXPECT_EQ(std::set<std::string>(lines.begin(), lines.end()).size(), lines.size());
  EXPECT_TRUE(f.db().decision(s, Layout::tn, Accum::f32).has_value());
}

TEST(Tuner, NeverReusesResultsOfAnotherGpuOrKernelSource) {
  Fixture f;
  const Shape s{512, 512, 512};
  f.run(f.options({s}, 4));
  EXPECT_EQ(f.logged("measure").size(), 4u);

  const TuneResult other_gpu = f.run(f.options({s}, 4), {"--gpu", "Other GPU"});
  EXPECT_EQ(other_gpu.measured, 4);
  EXPECT_EQ(other_gpu.reused, 0);
  EXPECT_GE(other_gpu.foreign, 4);
  EXPECT_EQ(f.logged("measure").size(), 8u);
  EXPECT_THROW(load_table(f.options({s}, 4).out, {"Fake GPU", "sm_90a", "hash1"}), Error);  // the table is Other GPU's
  EXPECT_NO_THROW(load_table(f.options({s}, 4).out, {"Other GPU", "sm_90a", "hash1"}));

  auto edited = f.options({s}, 4);
  edited.kernel_source_hash = "hash2";
  const TuneResult other_source = f.run(edited);
  EXPECT_EQ(other_source.measured, 4);
  EXPECT_EQ(f.logged("measure").size(), 12u);
  EXPECT_EQ(f.db().measurements_of(s, Layout::tn, Accum::f32, "gemmforge", "estimate").size(), 4u);
}

TEST(Tuner, TriesSplitKWhereTheTilesCannotFillTheSms) {
  Fixture f;
  auto o = f.options({{256, 256, 8192}, {4096, 4096, 512}}, 16);
  o.configs = {f.good};
  o.max_splits = kMaxSplits;
  const TuneResult r = f.run(o);
  std::vector<std::string> split, unsplit;
  for (const auto& line : f.logged("measure")) (line.find("_k") != std::string::npos ? split : unsplit).push_back(line);
  // 4 tiles of 128x128: split, summed through global memory and inside a cluster; 1024 tiles: not.
  ASSERT_EQ(split.size(), 2u);
  EXPECT_NE(split[0].find("measure 256 256 8192"), std::string::npos);
  EXPECT_NE(split[1].find("measure 256 256 8192"), std::string::npos);
  EXPECT_EQ(split[0].find("_dsm") == std::string::npos, split[1].find("_dsm") != std::string::npos);
  EXPECT_EQ(unsplit.size(), 2u);
  // On the pretend device the split launch is the faster one where tiles are few.
  const auto d = f.db().decision({256, 256, 8192}, Layout::tn, Accum::f32);
  ASSERT_TRUE(d.has_value());
  EXPECT_NE(d->best.find("_k"), std::string::npos) << d->best;
}

TEST(Tuner, ClassRulesNameTheCandidateThatBeatsCublasLtAcrossTheClass) {
  Fixture f;
  // Three mid shapes with enough 128x128 tiles to fill the pretend GPU: the good config wins
  // each one.
  const std::vector<Shape> mid = {{2048, 2048, 1024}, {2048, 3072, 512}, {3072, 2048, 2048}};
  const TuneResult r = f.run(f.options(mid, 7));
  const Table t = load_table(r.table_path, {"Fake GPU", "sm_90a", "hash1"});
  ASSERT_EQ(t.exact.size(), 3u);
  const auto rule = t.rules.find({ShapeClass::mid, Layout::tn, Accum::f32});
  ASSERT_NE(rule, t.rules.end());
  ASSERT_TRUE(rule->second.config.has_value());
  EXPECT_EQ(*rule->second.config, f.good);
  EXPECT_GT(rule->second.speedup, 1.0);
  // An untuned mid shape gets the rule.
  const auto unseen = t.lookup({1536, 2048, 1024}, Layout::tn, Accum::f32);
  ASSERT_TRUE(unseen && unseen->config);
  EXPECT_EQ(*unseen->config, f.good);

  // Where every candidate loses, every entry and the rule name cuBLASLt.
  Fixture g;
  const TuneResult lost = g.run(g.options(mid, 7), {"--baseline-scale", "0.5"});
  const Table lt = load_table(lost.table_path, {"Fake GPU", "sm_90a", "hash1"});
  for (const auto& [key, e] : lt.exact) {
    EXPECT_FALSE(e.config.has_value());
    // The baseline's autotuned pick (the stand-in reports "algo 1 of 8"): the runtime uses it.
    EXPECT_EQ(e.cublaslt_algo, 0);
  }
  const auto lrule = lt.rules.find({ShapeClass::mid, Layout::tn, Accum::f32});
  ASSERT_NE(lrule, lt.rules.end());
  EXPECT_FALSE(lrule->second.config.has_value());
  for (const auto& row : lost.summary) {
    if (row.shape_class == "all") {
      EXPECT_EQ(row.losses, 3);
    }
  }
}

TEST(Tuner, SeedsTheSearchWithTheClassWinners) {
  Fixture f;
  // First shape: only the good config. Second shape: only slow configs in the space, but the
  // class winner is measured first as a seed.
  auto o = f.options({{2048, 2048, 1024}}, 3);
  o.configs = {f.good};
  f.run(o);
  ASSERT_EQ(f.db().decision({2048, 2048, 1024}, Layout::tn, Accum::f32)->outcome, "win");
  auto o2 = f.options({{2048, 3072, 512}}, 3);
  o2.configs = f.slow;
  o2.neighbour_seeds = 0;  // the first shape's best would come in as a near problem's first
  f.run(o2);
  const auto ms = f.db().measurements_of({2048, 3072, 512}, Layout::tn, Accum::f32, "gemmforge", "estimate");
  ASSERT_FALSE(ms.empty());
  EXPECT_TRUE(is_variant_of(ms.front().config, f.good)) << ms.front().config;
  EXPECT_EQ(ms.front().note.rfind("seed: a winner on this class", 0), 0u) << ms.front().note;
  EXPECT_EQ(ms.size(), 3u);
}

// A table from an earlier tune, written as gemmforge tune writes one: `kernels` for their
// shapes (tn, f32), then an entry that served cuBLASLt.
std::filesystem::path write_prior_table(const std::filesystem::path& path,
                                        const std::vector<std::pair<Shape, KernelCandidate>>& kernels) {
  nlohmann::json entries = nlohmann::json::array();
  for (const auto& [s, c] : kernels) {
    nlohmann::json e = c.to_json();
    e.update({{"M", s.M}, {"N", s.N}, {"K", s.K}, {"layout", "tn"}, {"acc", "f32"}, {"speedup_vs_cublaslt", 1.2}});
    entries.push_back(e);
  }
  entries.push_back({{"M", 4096}, {"N", 4096}, {"K", 4096}, {"layout", "tn"}, {"acc", "f32"}, {"config", "cublaslt"}});
  std::ofstream(path) << nlohmann::json{
      {"schema", kTableSchema}, {"kernel_source_hash", "an older hash"}, {"entries", entries}, {"rules", nlohmann::json::array()}};
  return path;
}

TEST(Tuner, MeasuresThePriorTablesKernelFirstWithinTheBudget) {
  Fixture f;
  const Shape shape{2048, 2048, 1024};
  auto o = f.options({shape}, 3);
  o.configs = f.slow;  // the search alone would never meet the good config
  o.prior = PriorTable::read(write_prior_table(f.dir.path / "prior.json", {{shape, KernelCandidate(f.good)}}));
  EXPECT_EQ(o.prior.size(), 1u);  // the cuBLASLt entry seeds nothing
  f.run(o);
  const auto ms = f.db().measurements_of(shape, Layout::tn, Accum::f32, "gemmforge", "estimate");
  ASSERT_EQ(ms.size(), 3u);  // the seed counts against the budget
  EXPECT_EQ(ms.front().config, KernelCandidate(f.good).name());
  EXPECT_NE(ms.front().note.find("prior run"), std::string::npos) << ms.front().note;
  const auto d = f.db().decision(shape, Layout::tn, Accum::f32);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->outcome, "win");
  EXPECT_EQ(d->served, KernelCandidate(f.good).name());  // re-measured here, not taken on trust
}

TEST(Tuner, APriorTableThatIsNotOneIsRefusedWithTheReason) {
  TempDir dir;
  const auto path = dir.path / "prior.json";
  auto expect_refused = [&](const std::string& text, const std::string& reason) {
    std::ofstream(path) << text;
    try {
      PriorTable::read(path);
      ADD_FAILURE() << "read: " << text;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(reason), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(path.string()), std::string::npos) << e.what();
    }
  };
  const std::string head = std::string(R"({"schema": ")") + kTableSchema + R"(", "entries": [)";
  nlohmann::json config = KernelConfig{}.to_json();  // a tn f32 Hopper config
  auto entry = [&](const std::string& fields) { return head + "{" + fields + ", \"config\": " + config.dump() + "}]}"; };
  expect_refused("{\"entries\": [", "is not valid JSON");
  expect_refused(R"({"entries": []})", "not a table from gemmforge tune");  // no schema
  expect_refused(entry(R"("N": 64, "K": 64, "layout": "tn")"), "entry 0");  // no M
  expect_refused(entry(R"("M": 64, "N": 64, "K": 64, "layout": "xx")"), "xx");
  expect_refused(entry(R"("M": 64, "N": 64, "K": 64, "layout": "nn")"), "another layout");
  expect_refused(head + R"({"M": 64, "N": 64, "K": 64, "layout": "tn", "config": "cublas"}]})", "cublaslt");
  expect_refused(head + "{\"M\": 64, \"N\": 64, \"K\": 64, \"layout\": \"tn\", \"config\": " + config.dump() +
                     "}, {\"M\": 64, \"N\": 64, \"K\": 64, \"layout\": \"tn\", \"config\": " + config.dump() + "}]}",
                 "a second entry");
  EXPECT_THROW(PriorTable::read(dir.path / "missing.json"), Error);
  // A table without "acc" fields (older tables) reads as f32.
  std::ofstream(path) << entry(R"("M": 64, "N": 64, "K": 64, "layout": "tn")");
  EXPECT_EQ(PriorTable::read(path).find({64, 64, 64}, Layout::tn, Accum::f32).size(), 1u);
}

// A sweep.csv as `gemmforge bench --impl gemmforge --configs` writes one (the columns the prior reads).
std::filesystem::path write_sweep(const std::filesystem::path& dir, const std::vector<std::string>& rows) {
  std::filesystem::create_directories(dir);
  std::ofstream f(dir / "sweep.csv");
  f << "M,N,K,layout,acc,config,verdict,estimate_us,finalist_median_us,launch\n";
  for (const auto& r : rows) f << r << "\n";
  return dir;
}

TEST(Tuner, ASweepSeedsEachProblemWithItsFastestPassingCandidate) {
  TempDir dir;
  const KernelConfig fast = config(128, 128, 4, 2), quick = config(64, 32, 4, 1), broken = config(64, 32, 2, 1);
  KernelCandidate split(fast);
  split.knobs.splits = 4;
  split.knobs.pdl = true;
  const auto sweep = write_sweep(
      dir.path / "skinny",
      {// 64x4096x4096: the finalist with the fastest median wins over a faster estimate that was not a finalist,
       // a failed gate verdict and a build for this one shape.
       "64,4096,4096,tn,f32," + KernelCandidate(quick).name() + ",pass,5.0,,\"grid\"",
       "64,4096,4096,tn,f32," + split.name() + ",pass,9.0,8.0,\"grid, split\"",
       "64,4096,4096,tn,f32," + KernelCandidate(fast).name() + ",pass,8.5,8.6,\"grid\"",
       "64,4096,4096,tn,f32," + KernelCandidate(broken).name() + ",fail: max error,1.0,,\"grid\"",
       "64,4096,4096,tn,f32," + KernelCandidate(fast).specialized_for({64, 4096, 4096}).name() + ",pass,2.0,2.0,\"grid\"",
       "64,4096,4096,tn,f32," + KernelCandidate(quick).name() + "_pdl,pass,4.0,,\"grid\"",  // after the finalists
       // 128x128x128: no finalists recorded, so the fastest estimate.
       "128,128,128,tn,f32," + KernelCandidate(fast).name() + ",pass,7.0,,\"grid\"",
       "128,128,128,tn,f32," + KernelCandidate(quick).name() + ",pass,6.0,,\"grid\""});
  for (const auto& path : {sweep, sweep / "sweep.csv"}) {  // the run's directory or its sweep.csv
    const PriorTable prior = PriorTable::read(path);
    EXPECT_EQ(prior.size(), 2u);
    EXPECT_EQ(prior.find({64, 4096, 4096}, Layout::tn, Accum::f32), std::vector<KernelCandidate>{split});  // knobs kept
    EXPECT_EQ(prior.find({128, 128, 128}, Layout::tn, Accum::f32), std::vector<KernelCandidate>{KernelCandidate(quick)});
    EXPECT_TRUE(prior.find({64, 4096, 4096}, Layout::nn, Accum::f32).empty());
  }
}

TEST(Tuner, SeedsFromATableAndASweepAreEachMeasuredFirst) {
  Fixture f;
  const Shape shape{2048, 2048, 1024};
  auto o = f.options({shape}, 3);
  o.configs = f.slow;  // the search alone would never meet either seed
  const KernelConfig other = config(128, 64, 4, 1);
  o.prior = PriorTable::read(write_prior_table(f.dir.path / "prior.json", {{shape, KernelCandidate(f.good)}}));
  const auto sweep = write_sweep(f.dir.path / "sweep",
                                 {"2048,2048,1024,tn,f32," + KernelCandidate(other).name() + ",pass,9.0,9.0,\"grid\""});
  o.prior.merge(PriorTable::read(sweep));
  // The table's kernel from a second source: one seed.
  o.prior.merge(PriorTable::read(write_prior_table(f.dir.path / "again.json", {{shape, KernelCandidate(f.good)}})));
  EXPECT_EQ(o.prior.find(shape, Layout::tn, Accum::f32),
            (std::vector<KernelCandidate>{KernelCandidate(f.good), KernelCandidate(other)}));
  f.run(o);
  const auto ms = f.db().measurements_of(shape, Layout::tn, Accum::f32, "gemmforge", "estimate");
  ASSERT_EQ(ms.size(), 3u);  // both seeds count against the budget
  EXPECT_EQ(ms[0].config, KernelCandidate(f.good).name());
  EXPECT_EQ(ms[1].config, KernelCandidate(other).name());
  EXPECT_NE(ms[1].note.find("prior"), std::string::npos) << ms[1].note;
}

TEST(Tuner, ASweepThatCannotSeedIsRefusedWithTheReason) {
  TempDir dir;
  auto expect_refused = [&](const std::filesystem::path& path, const std::string& reason) {
    try {
      PriorTable::read(path);
      ADD_FAILURE() << "read: " << path;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(reason), std::string::npos) << e.what();
    }
  };
  const std::string good = KernelCandidate(config(128, 128, 4, 2)).name();
  std::filesystem::create_directories(dir.path / "empty");
  expect_refused(dir.path / "empty", "without a sweep.csv");
  std::ofstream(dir.path / "results.csv") << "M,N,K,layout,impl,median_us\n64,64,64,tn,cublas,3.0\n";
  expect_refused(dir.path / "results.csv", "no column 'acc'");
  expect_refused(write_sweep(dir.path / "a", {"64,64,64,tn,f32,sm90_tn_nonsense,pass,3.0,,\"\""}), "sm90_tn_nonsense");
  expect_refused(write_sweep(dir.path / "b", {"64,64,64,nn,f32," + good + ",pass,3.0,,\"\""}), "another layout");
  expect_refused(write_sweep(dir.path / "c", {"64,64,64,tn,f32," + good + ",pass,-1,,\"\""}), "positive time");
  expect_refused(write_sweep(dir.path / "d", {"64,64,64,tn,f32," + good + ",fail: planted,3.0,,\"\""}),
                 "no passing gemmforge measurement");
}

TEST(Tuner, MeasuresClassRuleContendersWhereTheSearchDidNot) {
  for (bool measure_gaps : {true, false}) {
    Fixture f;
    auto a = f.options({{2048, 2048, 1024}}, 3);
    a.configs = {f.good};
    f.run(a);
    auto b = f.options({{2048, 3072, 512}}, 2);
    b.configs = f.slow;
    b.seeds = 0;
    b.neighbour_seeds = 0;  // a's best would seed b: the search alone must miss it here
    b.measure_rule_gaps = measure_gaps;
    f.run(b);
    const auto m = f.db().find({2048, 3072, 512}, Layout::tn, Accum::f32, "gemmforge",
                               launch_variants(f.good, {2048, 3072, 512}, 132, kMaxSplits).front().name(), "estimate");
    EXPECT_EQ(m.has_value(), measure_gaps);
    if (m) {
      EXPECT_EQ(m->note, "class rule evidence");
      // Evidence is not search: the problem's decision stands on its own candidates.
      EXPECT_NE(f.db().decision({2048, 3072, 512}, Layout::tn, Accum::f32)->best.find("64x32"), std::string::npos);
    }
  }
}

// The first `count` configs of the real sm80 tn space with 16-byte loads (small tiles first).
std::vector<Sm80Config> some_sm80_configs(size_t count) {
  std::vector<Sm80Config> out;
  for (const auto& c : sm80_config_space(Layout::tn, Accum::f32))
    if (c.vec16 && out.size() < count) out.push_back(c);
  return out;
}

// The measurements of one problem as the worker logged them, split by family.
struct LoggedFamilies {
  size_t hopper = 0, sm80 = 0;
};
LoggedFamilies families(const std::vector<std::string>& measure_lines) {
  LoggedFamilies n;
  for (const auto& line : measure_lines) (line.find(" sm80_") != std::string::npos ? n.sm80 : n.hopper)++;
  return n;
}

TEST(Tuner, AnSm80KernelFastestOnATinyShapeGetsTheExactEntry) {
  Fixture f;
  const Shape s{256, 256, 256};
  auto o = f.options({s}, 6);
  o.sm80_configs = some_sm80_configs(4);
  WorkerBackend backend(f.worker({"--sm80-speedup", "4"}));
  FakeSource source;
  run_tune(o, backend, source);
  EXPECT_EQ(source.sm80_arch, "sm_90a");  // from the worker's compute capability 9.0
  // Half the budget to each family on a tiny shape.
  const LoggedFamilies n = families(f.logged("measure"));
  EXPECT_EQ(n.sm80, 3u);
  EXPECT_EQ(n.hopper, 3u);
  const auto d = f.db().decision(s, Layout::tn, Accum::f32);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->outcome, "win");
  EXPECT_EQ(d->served.rfind("sm80_", 0), 0u) << d->served;
  const Table t = load_table(o.out, {"Fake GPU", "sm_90a", "hash1"});
  const auto e = t.lookup(s, Layout::tn, Accum::f32);
  ASSERT_TRUE(e && e->sm80);
  EXPECT_FALSE(e->config.has_value());
  EXPECT_FALSE(e->specialized);
  EXPECT_EQ(e->sm80->name(), d->served);
}

TEST(Tuner, Sm80ConfigsAreNotSearchedWhereTheHopperFamilyServesALargerShape) {
  Fixture f;
  auto o = f.options({{2048, 2048, 1024}}, 4);
  o.sm80_configs = some_sm80_configs(4);
  f.run(o, {"--sm80-speedup", "4"});
  const LoggedFamilies n = families(f.logged("measure"));
  EXPECT_EQ(n.sm80, 0u);
  EXPECT_EQ(n.hopper, 4u);
}

TEST(Tuner, ABuildForTheShapeThatIsFastestIsServedSpecializedButNeverByARule) {
  Fixture f;
  const std::vector<Shape> mid = {{2048, 2048, 1024}, {2048, 3072, 512}, {3072, 2048, 2048}};
  auto o = f.options(mid, 7);
  o.specialize = 2;
  const TuneResult r = f.run(o, {"--specialized-speedup", "1.5"});
  for (const auto& s : mid) {
    // The budget's 7, then the two best generic candidates built for the shape.
    const auto ms = f.db().measurements_of(s, Layout::tn, Accum::f32, "gemmforge", "estimate");
    size_t built_for_it = 0;
    for (const auto& m : ms) built_for_it += m.config.find("_at" + to_string(s)) != std::string::npos;
    EXPECT_EQ(built_for_it, 2u) << to_string(s);
    EXPECT_EQ(ms.size(), 9u) << to_string(s);
  }
  // No build ran on a shape other than its own.
  for (const auto& line : f.logged("measure")) {
    const auto at = line.find("_at");
    if (at == std::string::npos) continue;
    std::istringstream in(line.substr(8));
    int64_t M, N, K;
    in >> M >> N >> K;
    EXPECT_EQ(line.substr(at + 3), to_string(Shape{M, N, K})) << line;
  }
  const Table t = load_table(r.table_path, {"Fake GPU", "sm_90a", "hash1"});
  ASSERT_EQ(t.exact.size(), 3u);
  for (const auto& [key, e] : t.exact) {
    ASSERT_TRUE(e.config.has_value());
    EXPECT_TRUE(e.specialized);
    EXPECT_EQ(*e.config, f.good);
  }
  // The class rule serves shapes nobody built for: the same kernel, built for any shape.
  const auto rule = t.rules.find({ShapeClass::mid, Layout::tn, Accum::f32});
  ASSERT_NE(rule, t.rules.end());
  ASSERT_TRUE(rule->second.config.has_value());
  EXPECT_EQ(*rule->second.config, f.good);
  EXPECT_FALSE(rule->second.specialized);
  // A rerun finds everything done: builds for one shape cost no budget on resume either.
  const TuneResult again = f.run(o, {"--specialized-speedup", "1.5"});
  EXPECT_EQ(again.already_done, 3u);
  EXPECT_EQ(again.measured, 0);
}

// A database tuned without --specialize: a rerun with it adds the builds for each shape (they
// cost no budget), and the one after that finds everything done.
TEST(Tuner, ARerunWithSpecializeAddsTheBuildsToProblemsTunedWithout) {
  Fixture f;
  const std::vector<Shape> mid = {{2048, 2048, 1024}, {2048, 3072, 512}};
  auto o = f.options(mid, 7);
  f.run(o, {"--specialized-speedup", "1.5"});
  o.specialize = 2;
  const TuneResult with = f.run(o, {"--specialized-speedup", "1.5"});
  EXPECT_EQ(with.already_done, 0u);
  EXPECT_EQ(with.tuned_now, 2u);
  for (const auto& s : mid) {
    size_t built_for_it = 0;
    for (const auto& m : f.db().measurements_of(s, Layout::tn, Accum::f32, "gemmforge", "estimate"))
      built_for_it += m.config.find("_at" + to_string(s)) != std::string::npos;
    EXPECT_EQ(built_for_it, 2u) << to_string(s);
  }
  const TuneResult again = f.run(o, {"--specialized-speedup", "1.5"});
  EXPECT_EQ(again.already_done, 2u);
  EXPECT_EQ(again.measured, 0);
}

TEST(Tuner, AnSm80KernelBuiltForATinyShapeCanWinItsEntry) {
  Fixture f;
  const Shape s{128, 128, 128};
  auto o = f.options({s}, 4);
  o.sm80_configs = some_sm80_configs(4);
  o.specialize = 1;
  const TuneResult r = f.run(o, {"--sm80-speedup", "4", "--specialized-speedup", "1.5"});
  const Table t = load_table(r.table_path, {"Fake GPU", "sm_90a", "hash1"});
  const auto e = t.lookup(s, Layout::tn, Accum::f32);
  ASSERT_TRUE(e && e->sm80);
  EXPECT_TRUE(e->specialized);
  const auto d = f.db().decision(s, Layout::tn, Accum::f32);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->served, e->sm80->name() + "_at128x128x128");
  const auto rule = t.rules.find({ShapeClass::tiny, Layout::tn, Accum::f32});
  ASSERT_NE(rule, t.rules.end());
  EXPECT_FALSE(rule->second.specialized);
  if (rule->second.sm80) {
    EXPECT_EQ(*rule->second.sm80, *e->sm80);
  }
}

TEST(Tuner, ATimeLimitStopsBeforeTheNextShapeAndStillWritesTheTable) {
  Fixture f;
  auto o = f.options({{512, 512, 512}}, 3);
  o.time_limit_s = 1e-9;
  const TuneResult r = f.run(o);
  EXPECT_TRUE(r.stopped_by_time_limit);
  EXPECT_EQ(r.tuned_now, 0u);
  EXPECT_TRUE(std::filesystem::exists(r.table_path));
  EXPECT_TRUE(f.logged("measure").empty());
}

TEST(Tuner, AShapeThatCannotBeSetUpIsSkippedAndTheRunGoesOn) {
  Fixture f;
  const TuneResult r = f.run(f.options({{512, 512, 512}, {1024, 256, 2048}}, 2), {"--open-fails", "512x512x512"});
  EXPECT_EQ(r.skipped, 1u);
  EXPECT_EQ(r.tuned_now, 1u);
  EXPECT_EQ(r.decisions.size(), 1u);
}

TEST(Tuner, NoGpuStopsTheRunWithTheReason) {
  Fixture f;
  try {
    f.run(f.options({{512, 512, 512}}, 2), {"--no-gpu"});
    FAIL() << "ran without a GPU";
  } catch (const NoGpuError& e) {
    EXPECT_NE(std::string(e.what()).find("no usable NVIDIA GPU"), std::string::npos);
  }
  EXPECT_FALSE(std::filesystem::exists(f.dir.path / "tune.sqlite"));
}

TEST(Tuner, ABudgetTierIsChosenByTheBaselinesTimeAndShapeDistanceCountsDoublings) {
  TuneOptions o;
  o.budget = 6;
  o.budget_tiers = {{32, 12}, {128, 24}};
  EXPECT_EQ(budget_for(o, 20.0), 24);  // the largest tier it falls in
  EXPECT_EQ(budget_for(o, 100.0), 24);
  EXPECT_EQ(budget_for(o, 128.0), 6);  // "under" is strict
  EXPECT_EQ(budget_for(o, std::nullopt), 6);  // no estimate (or a failed one): the plain budget
  EXPECT_DOUBLE_EQ(shape_distance({1024, 2048, 512}, {1024, 2048, 512}), 0);
  EXPECT_DOUBLE_EQ(shape_distance({1024, 2048, 512}, {2048, 1024, 512}), 2);
  EXPECT_DOUBLE_EQ(shape_distance({64, 64, 64}, {64, 64, 256}), 2);
}

TEST(Tuner, CheapProblemsGetTheirTiersBudgetAndARerunWithALargerTierTunesOnlyThem) {
  Fixture f;
  const Shape cheap{512, 512, 512}, dear{4096, 4096, 4096};  // ~7 µs and ~275 µs on the pretend GPU
  auto o = f.options({cheap, dear}, 3);
  o.budget_tiers = {{50, 5}};
  const TuneResult r = f.run(o);
  EXPECT_EQ(r.measured, 5 + 3);
  EXPECT_EQ(f.db().measurements_of(cheap, Layout::tn, Accum::f32, "gemmforge", "estimate").size(), 5u);
  EXPECT_EQ(f.db().measurements_of(dear, Layout::tn, Accum::f32, "gemmforge", "estimate").size(), 3u);
  EXPECT_EQ(f.db().decision(cheap, Layout::tn, Accum::f32)->budget, 5);  // the budget it ran with
  EXPECT_EQ(f.db().decision(dear, Layout::tn, Accum::f32)->budget, 3);

  o.budget_tiers = {{50, 6}};
  const TuneResult more = f.run(o);
  EXPECT_EQ(more.already_done, 1u);  // the dear problem keeps its decision
  EXPECT_EQ(more.tuned_now, 1u);
  EXPECT_EQ(more.measured, 1);  // the cheap one goes on from its five
  EXPECT_EQ(f.logged("baseline").size(), 2u);  // its baseline estimate was reused
  EXPECT_EQ(f.db().decision(cheap, Layout::tn, Accum::f32)->budget, 6);
}

// Configs of the fixture's space carried to nn (nn needs whole 64-column blocks of B).
std::vector<KernelConfig> as_nn(std::vector<KernelConfig> cs) {
  for (auto& c : cs) {
    c.layout = Layout::nn;
    EXPECT_TRUE(is_valid(c)) << c.name();
  }
  return cs;
}

size_t seeded_by_near_problems(const std::vector<Measurement>& ms) {
  return size_t(std::count_if(ms.begin(), ms.end(), [](const Measurement& m) {
    return m.note.rfind("seed: the best kernel of a near problem", 0) == 0;
  }));
}

TEST(Tuner, TheSameShapeInTheOtherLayoutAndTheNearestShapesSeedAProblemFirst) {
  Fixture f;
  const Shape a{2048, 2048, 1024}, b{2048, 2048, 512}, near{2048, 2048, 2048};  // and c, 2048x2048x256
  auto o = f.options({a, b}, 3);
  o.configs = {f.good};
  f.run(o);  // tn: the good config wins a and b
  // nn, with only slower configs to search and no class seeds: the tn problem's best comes first.
  const std::vector<KernelConfig> slow_nn = as_nn({config(64, 64, 2, 1), config(64, 64, 3, 1), config(64, 64, 5, 1)});
  auto nn = f.options({a}, 3);
  nn.layouts = {Layout::nn};
  nn.configs = slow_nn;
  nn.seeds = 0;
  f.run(nn);
  auto ms = f.db().measurements_of(a, Layout::nn, Accum::f32, "gemmforge", "estimate");
  ASSERT_EQ(ms.size(), 3u);
  EXPECT_TRUE(is_variant_of(ms[0].config, as_nn({f.good})[0])) << ms[0].config;
  EXPECT_EQ(seeded_by_near_problems(ms), 1u);  // b's nn problem was never decided
  // A third shape, three doublings from `near`, won by another kernel.
  auto oc = f.options({{2048, 2048, 256}}, 1);
  oc.configs = {f.slow[3]};
  oc.neighbour_seeds = 0;  // else a's best would be its first measurement
  oc.seeds = 0;
  f.run(oc);
  // `near` is a doubling of K from a, two from b, three from c: a's and b's bests are the same
  // kernel, so the second seed is c's, not a repeat.
  auto o2 = f.options({near}, 3);
  o2.configs = f.slow;
  o2.seeds = 0;
  f.run(o2);
  ms = f.db().measurements_of(near, Layout::tn, Accum::f32, "gemmforge", "estimate");
  ASSERT_EQ(ms.size(), 3u);
  EXPECT_TRUE(is_variant_of(ms[0].config, f.good)) << ms[0].config;
  EXPECT_TRUE(is_variant_of(ms[1].config, f.slow[3])) << ms[1].config;
  EXPECT_EQ(seeded_by_near_problems(ms), 2u);
  // Without neighbour seeds the search alone never meets the good config here.
  auto none = f.options({{2048, 4096, 1024}}, 3);
  none.configs = f.slow;
  none.seeds = 0;
  none.neighbour_seeds = 0;
  none.measure_rule_gaps = false;  // class-rule evidence would measure it after the search
  f.run(none);
  for (const auto& m : f.db().measurements_of({2048, 4096, 1024}, Layout::tn, Accum::f32, "gemmforge", "estimate"))
    EXPECT_FALSE(is_variant_of(m.config, f.good)) << m.config;
}

TEST(Tuner, AProblemsOwnBestIsMeasuredAgainWhereItNowLaunchesWithOtherKnobs) {
  Fixture f;
  const Shape s{1024, 256, 8192};  // 16 tiles of 128x128: split-K in 8 parts fills one wave
  KernelCandidate old(f.good);
  old.knobs.pdl = true;
  old.knobs.splits = 9;  // the count of an earlier rule: 144 units, a second wave
  {
    ResultsDb db = f.db();
    db.add_candidate(old.name(), old.to_json().dump());
    Decision d;
    d.shape = s;
    d.served = "cublaslt";
    d.outcome = "loss";
    d.best = old.name();
    d.budget = 1;
    db.record_decision(d);
  }
  auto o = f.options({s}, 2);
  o.configs = f.slow;
  o.seeds = 0;
  o.neighbour_seeds = 1;
  o.max_splits = kMaxSplits;
  f.run(o);
  const auto ms = f.db().measurements_of(s, Layout::tn, Accum::f32, "gemmforge", "estimate");
  ASSERT_FALSE(ms.empty());
  KernelCandidate now = old;
  now.knobs.splits = 8;
  EXPECT_EQ(ms.front().config, now.name());
  EXPECT_NE(ms.front().note.find("near problem"), std::string::npos) << ms.front().note;
}

TEST(Tuner, SplitSeedsAreMeasuredFirstSplitWhereTheirTilesLeaveSmsIdleInTheProblemsLayout) {
  Fixture f;
  const Shape few{1024, 256, 8192}, many{4096, 4096, 512};  // 16 tiles of 128x128 (8 parts fill a wave); 1024
  auto o = f.options({few, many}, 3);
  o.configs = f.slow;
  o.seeds = 0;
  o.neighbour_seeds = 0;
  o.measure_rule_gaps = false;
  o.max_splits = kMaxSplits;
  o.split_seeds = as_nn({f.good});  // an nn tile seeds tn problems in tn
  f.run(o);
  const auto seeded = [](const std::vector<Measurement>& ms) {
    return size_t(std::count_if(ms.begin(), ms.end(), [](const Measurement& m) {
      return m.note.rfind("seed: a split-K tile (--split-seeds)", 0) == 0;
    }));
  };
  auto ms = f.db().measurements_of(few, Layout::tn, Accum::f32, "gemmforge", "estimate");
  ASSERT_EQ(ms.size(), 3u);
  KernelCandidate split(f.good);
  split.knobs.pdl = true;
  split.knobs.splits = 8;
  EXPECT_EQ(ms.front().config, split.name());  // its split launch only, measured first
  EXPECT_EQ(seeded(ms), 1u);
  for (size_t i = 1; i < ms.size(); ++i) EXPECT_FALSE(is_variant_of(ms[i].config, f.good)) << ms[i].config;
  // Its tiles fill the SMs on the other shape: there it is no seed, and the search alone never meets it.
  for (const auto& m : f.db().measurements_of(many, Layout::tn, Accum::f32, "gemmforge", "estimate"))
    EXPECT_FALSE(is_variant_of(m.config, f.good)) << m.config;
  // A rerun with a larger budget goes on searching without measuring the seed again.
  o.budget = 4;
  f.run(o);
  ms = f.db().measurements_of(few, Layout::tn, Accum::f32, "gemmforge", "estimate");
  EXPECT_EQ(ms.size(), 4u);
  EXPECT_EQ(seeded(ms), 1u);
}

// A problem whose baseline estimate is over --heavy-us runs at the power cap, where the quick
// estimates rank kernels badly: its final times more of its fastest candidates at steady state.
TEST(Tuner, AHeavyProblemsFinalComparesMoreCandidatesThanALightOnes) {
  Fixture f;
  const Shape light{512, 512, 512}, heavy{4096, 4096, 4096};  // baselines ~3 µs and ~277 µs
  auto o = f.options({light, heavy}, 7);
  o.seeds = 0;
  o.neighbour_seeds = 0;
  o.measure_rule_gaps = false;
  f.run(o);
  const auto compares = f.logged("compare");
  ASSERT_EQ(compares.size(), 2u);
  EXPECT_EQ(compares[0], "compare 512 512 512 tn 3");       // two finalists and cuBLASLt
  EXPECT_EQ(compares[1], "compare 4096 4096 4096 tn 7");    // six and cuBLASLt
}

// Where the two best estimates both lose at steady state, a final of two misses the kernel that
// wins there; --refinal-heavy compares the decided heavy problem again, measuring nothing new.
TEST(Tuner, RefinalHeavyDecidesAHeavyProblemAgainFromItsRecordedCandidates) {
  Fixture f;
  const Shape light{512, 512, 512}, heavy{4096, 4096, 4096};
  const KernelConfig second = f.slow[2];  // 64x32, 4 stages: the best estimate after `good`
  const std::vector<std::string> slower = {"--steady-slower", f.good.name(), "--steady-slower", second.name()};
  auto o = f.options({light, heavy}, 7);
  o.seeds = 0;
  o.neighbour_seeds = 0;
  o.measure_rule_gaps = false;
  o.heavy_finalists = 2;
  f.run(o, slower);
  const auto before = f.db().decision(heavy, Layout::tn, Accum::f32);
  ASSERT_TRUE(before);
  EXPECT_TRUE(is_variant_of(before->best, f.good) || is_variant_of(before->best, second)) << before->best;
  const size_t measured_before = f.logged("measure").size();

  o.heavy_finalists = 6;
  o.refinal_heavy = true;
  const TuneResult again = f.run(o, slower);
  EXPECT_EQ(again.refinaled, 1u);  // the light problem is left as it was
  EXPECT_EQ(again.already_done, 1u);
  EXPECT_EQ(again.measured, 0);
  EXPECT_EQ(f.logged("measure").size(), measured_before);
  const auto compares = f.logged("compare");
  ASSERT_EQ(compares.size(), 3u);
  EXPECT_EQ(compares.back(), "compare 4096 4096 4096 tn 7");
  const auto after = f.db().decision(heavy, Layout::tn, Accum::f32);
  ASSERT_TRUE(after);
  EXPECT_FALSE(is_variant_of(after->best, f.good) || is_variant_of(after->best, second)) << after->best;
  EXPECT_EQ(after->budget, before->budget);
}

// A candidate measured after a problem's final (here as the class-rule pass records its evidence)
// that is faster than what the final compared: --refinal-stale times it in a final again,
// measuring nothing new, and decides with it; once it has been in a final nothing is reopened.
TEST(Tuner, RefinalStaleDecidesAgainWithACandidateMeasuredAfterTheFinal) {
  Fixture f;
  const Shape s{2048, 4096, 1024}, other{1024, 1024, 512};  // `good` is the fastest on s
  auto o = f.searched_only({s, other}, 3);
  o.configs = f.slow;  // the search never meets it
  f.run(o);
  const auto before = f.db().decision(s, Layout::tn, Accum::f32);
  ASSERT_TRUE(before);
  ASSERT_FALSE(is_variant_of(before->best, f.good)) << before->best;
  const KernelCandidate late(f.good);
  f.record_estimate(s, late, testing::fake_candidate_us(s, late), "class rule evidence");
  const size_t measured_before = f.logged("measure").size(), compares_before = f.logged("compare").size();

  o.refinal_stale = true;
  const TuneResult again = f.run(o);
  EXPECT_EQ(again.refinaled, 1u);  // `other` has no candidate its finals did not time
  EXPECT_EQ(again.already_done, 1u);
  EXPECT_EQ(again.measured, 0);
  EXPECT_EQ(f.logged("measure").size(), measured_before);
  const auto compares = f.logged("compare");
  ASSERT_EQ(compares.size(), compares_before + 1);
  EXPECT_EQ(compares.back(), "compare 2048 4096 1024 tn 3");
  const auto after = f.db().decision(s, Layout::tn, Accum::f32);
  ASSERT_TRUE(after);
  EXPECT_EQ(after->best, late.name());
  EXPECT_EQ(after->budget, before->budget);

  const TuneResult third = f.run(o);
  EXPECT_EQ(third.refinaled, 0u);
  EXPECT_EQ(third.already_done, 2u);
  EXPECT_EQ(f.logged("compare").size(), compares_before + 1);
}

// In one run: a problem whose search never met `good` is decided without it; the class-rule pass
// then measures `good` there (it won a problem of the same class), and with --refinal-stale the
// run decides the problem again with it, so the table serves `good` there.
TEST(Tuner, RefinalStaleUsesTheClassRuleEvidenceOfTheSameRun) {
  Fixture f;
  const Shape won{2048, 4096, 1024}, missed{4096, 2048, 1024};  // both mid; `good` is the fastest on both
  f.run(f.searched_only({won}, 3));  // the exhaustive search meets `good` third
  const auto won_decision = f.db().decision(won, Layout::tn, Accum::f32);
  ASSERT_TRUE(won_decision);
  ASSERT_TRUE(is_variant_of(won_decision->best, f.good)) << won_decision->best;

  auto o = f.options({missed}, 3);
  o.configs = f.slow;
  o.seeds = 0;
  o.neighbour_seeds = 0;
  o.refinal_stale = true;
  const TuneResult r = f.run(o);
  EXPECT_EQ(r.tuned_now, 1u);
  EXPECT_EQ(r.refinaled, 0u);
  EXPECT_EQ(r.after_evidence, 1u);
  EXPECT_TRUE(f.estimated_with_note(missed, f.good, "class rule evidence"));
  const auto after = f.db().decision(missed, Layout::tn, Accum::f32);
  ASSERT_TRUE(after);
  EXPECT_TRUE(is_variant_of(after->best, f.good)) << after->best;
  const auto entry = r.table.exact.find({missed.M, missed.N, missed.K, Layout::tn, Accum::f32});
  ASSERT_NE(entry, r.table.exact.end());
  EXPECT_EQ(entry->second.config.value_or(KernelConfig{}).name(), f.good.name());

  o.refinal_stale = false;  // without it the same run leaves the decision as the search made it
  const Shape missed_too{4096, 4096, 1024};
  o.shapes = {missed_too};
  const TuneResult plain = f.run(o);
  EXPECT_EQ(plain.refinaled + plain.after_evidence, 0u);
  const auto left = f.db().decision(missed_too, Layout::tn, Accum::f32);
  ASSERT_TRUE(left);
  EXPECT_FALSE(is_variant_of(left->best, f.good)) << left->best;
}

// A problem whose search never met `good` is decided without it, though its nearest decided
// neighbour won with it (tuned first, the neighbour could not seed it). --neighbour-evidence
// measures `good` there after the problems and the run decides again with it; --refinal-stale
// alone does not, and a further run finds nothing left to measure or decide.
TEST(Tuner, NeighbourEvidenceMeasuresANearWinnerAndDecidesWithIt) {
  Fixture f;
  const Shape won{2048, 4096, 1024}, missed{4096, 2048, 1024};  // `good` is the fastest on both
  f.run(f.searched_only({won}, 3));  // the exhaustive search meets `good` third
  ASSERT_TRUE(is_variant_of(f.db().decision(won, Layout::tn, Accum::f32)->best, f.good));
  auto o = f.searched_only({missed}, 3);  // no class-rule pass: the evidence is the neighbours' alone
  o.configs = f.slow;
  f.run(o);
  const auto before = f.db().decision(missed, Layout::tn, Accum::f32);
  ASSERT_TRUE(before);
  ASSERT_FALSE(is_variant_of(before->best, f.good)) << before->best;

  o.refinal_stale = true;
  const TuneResult stale_only = f.run(o);
  EXPECT_EQ(stale_only.refinaled + stale_only.after_evidence, 0u);
  EXPECT_EQ(stale_only.measured, 0);

  o.neighbour_evidence = 1;
  const TuneResult r = f.run(o);
  EXPECT_EQ(r.measured, 1);  // `good` on `missed`, nothing on `won` (not a shape of this run)
  EXPECT_EQ(r.after_evidence, 1u);
  EXPECT_TRUE(f.estimated_with_note(missed, f.good, "neighbour winner evidence"));
  const auto after = f.db().decision(missed, Layout::tn, Accum::f32);
  ASSERT_TRUE(after);
  EXPECT_TRUE(is_variant_of(after->best, f.good)) << after->best;
  EXPECT_EQ(after->budget, before->budget);

  const TuneResult again = f.run(o);
  EXPECT_EQ(again.measured, 0);
  EXPECT_EQ(again.refinaled + again.after_evidence, 0u);
}

// Neighbours equally near are all taken: with N = 1 and two problems a doubling away, the one
// after in the database's order (here the larger, decided with `good`) is measured too.
TEST(Tuner, NeighbourEvidenceTakesEveryNeighbourAsNearAsTheNth) {
  Fixture f;
  const Shape smaller{1024, 2048, 1024}, s{2048, 2048, 1024}, larger{4096, 2048, 1024};
  auto slow_only = f.searched_only({smaller, s}, 3);
  slow_only.configs = f.slow;
  f.run(slow_only);  // both measure slow[0..2]: the smaller one's winner is known on s
  f.run(f.searched_only({larger}, 3));
  ASSERT_TRUE(is_variant_of(f.db().decision(larger, Layout::tn, Accum::f32)->best, f.good));
  ASSERT_FALSE(is_variant_of(f.db().decision(s, Layout::tn, Accum::f32)->best, f.good));

  auto o = f.searched_only({s}, 3);
  o.configs = f.slow;
  o.refinal_stale = true;
  o.neighbour_evidence = 1;
  const TuneResult r = f.run(o);
  EXPECT_EQ(r.measured, 1);
  EXPECT_TRUE(f.estimated_with_note(s, f.good, "neighbour winner evidence"));
  EXPECT_TRUE(is_variant_of(f.db().decision(s, Layout::tn, Accum::f32)->best, f.good));
}

// The evidence passes measure outside any search: a later run with a larger budget searches as
// many more candidates as the budget grew, whatever evidence the problem holds.
TEST(Tuner, EvidenceDoesNotSpendALaterSearchsBudget) {
  Fixture f;
  const Shape s{2048, 4096, 1024};
  auto o = f.searched_only({s}, 3);
  o.configs = f.slow;
  f.run(o);  // the exhaustive search measures slow[0..2]
  f.record_estimate(s, KernelCandidate(f.slow[5]), 500.0, "class rule evidence");
  f.record_estimate(s, KernelCandidate(f.slow[4]), 500.0, "neighbour winner evidence");
  o.budget = 4;
  const TuneResult r = f.run(o);
  EXPECT_EQ(r.tuned_now, 1u);
  EXPECT_EQ(r.measured, 1);  // slow[3]: the fourth of the budget
  const auto estimates = f.db().measurements_of(s, Layout::tn, Accum::f32, "gemmforge", "estimate");
  EXPECT_TRUE(std::any_of(estimates.begin(), estimates.end(),
                          [&](const Measurement& m) { return is_variant_of(m.config, f.slow[3]); }));
}

// With --raster-groups, the candidate that the class rules' evidence makes a finalist is measured
// with the groups before its final, as any reopened problem's finalists are; the next run then
// finds nothing to reopen. And a stale finalist that no longer compiles is recorded as that
// final's, so it does not reopen its problem on every run.
TEST(Tuner, RefinalStaleMeasuresTheNewFinalistsVariantsAndSettles) {
  Fixture f;
  const Shape won{2048, 4096, 1024}, missed{4096, 2048, 1024};
  f.run(f.searched_only({won}, 3));

  auto o = f.options({missed}, 3);
  o.configs = f.slow;
  o.seeds = 0;
  o.neighbour_seeds = 0;
  o.refinal_stale = true;
  o.raster_groups = {2};
  const TuneResult r = f.run(o);
  EXPECT_EQ(r.after_evidence, 1u);
  bool grouped = false;
  for (const auto& m : f.db().measurements_of(missed, Layout::tn, Accum::f32, "gemmforge", "estimate")) {
    const auto c = candidate_named(f.db(), m.config);
    grouped |= c && c->config == KernelCandidate(f.good).config && c->knobs.group_m == 2;
  }
  EXPECT_TRUE(grouped) << "the new finalist was not measured with raster group 2";
  const TuneResult again = f.run(o);
  EXPECT_EQ(again.rerastered + again.refinaled + again.after_evidence, 0u);
  EXPECT_EQ(again.measured, 0);

  // A faster candidate recorded on `won` that does not compile (a kernel edited since, say).
  const KernelConfig late = f.slow[5];
  f.record_estimate(won, KernelCandidate(late), 1.0, "a later run's");
  auto stale = f.searched_only({won}, 3);
  stale.refinal_stale = true;
  for (int run = 0; run < 2; ++run) {
    WorkerBackend backend(f.worker());
    FakeSource source;
    source.broken = {late.name()};
    const TuneResult t = run_tune(stale, backend, source);
    EXPECT_EQ(t.refinaled, run == 0 ? 1u : 0u) << "run " << run;
  }
  const auto finals = f.db().measurements_of(won, Layout::tn, Accum::f32, "gemmforge", "gpu");
  EXPECT_TRUE(std::any_of(finals.begin(), finals.end(), [&](const Measurement& m) {
    return m.config == KernelCandidate(late).name() && m.verdict.find("not built") != std::string::npos;
  }));
}

// --raster-groups reopens a decided problem once: its finalists are measured again launched with
// each group (beyond the budget), and the final decides among all of them; a rerun finds every
// variant measured and reopens nothing.
TEST(Tuner, RasterGroupsReopenADecidedProblemAndMeasureItsFinalistsWithEachGroup) {
  Fixture f;
  const Shape s{4096, 4096, 128};
  auto o = f.options({s}, 4);
  o.seeds = 0;
  o.neighbour_seeds = 0;
  o.measure_rule_gaps = false;
  const std::vector<std::string> rows_faster = {"--raster-speedup", "1.3"};
  f.run(o, rows_faster);
  const auto before = f.db().decision(s, Layout::tn, Accum::f32);
  ASSERT_TRUE(before);
  EXPECT_EQ(before->best.find("_g"), std::string::npos) << before->best;
  const size_t measured_before = f.logged("measure").size();

  o.raster_groups = {1, 2};
  const TuneResult again = f.run(o, rows_faster);
  EXPECT_EQ(again.rerastered, 1u);
  EXPECT_EQ(again.tuned_now, 0u);
  EXPECT_EQ(again.measured, 4);  // two finalists, two groups each
  const auto measures = f.logged("measure");
  ASSERT_EQ(measures.size(), measured_before + 4);
  for (size_t i = measured_before; i < measures.size(); ++i)
    EXPECT_TRUE(measures[i].find("_g1") != std::string::npos || measures[i].find("_g2") != std::string::npos) << measures[i];
  const auto after = f.db().decision(s, Layout::tn, Accum::f32);
  ASSERT_TRUE(after);
  EXPECT_NE(after->best.find("_g"), std::string::npos) << after->best;  // 1.3x faster along rows
  EXPECT_EQ(after->budget, before->budget);

  const TuneResult third = f.run(o, rows_faster);
  EXPECT_EQ(third.rerastered, 0u);
  EXPECT_EQ(third.measured, 0);
  EXPECT_EQ(third.already_done, 1u);
}

// The finalists' twins (--parts-apart, --cluster-push, --cluster-twins, --ksplit-twins,
// --space-twins): a tune
// decides the problem without them, then a second run with them (`enable`) reopens it, measures
// only twins (beyond the budget, keeping the decision's budget), and its final picks the twin the
// fake worker makes faster (`speedup`); a third run reopens nothing. Returns what the second run
// measured, for each test to check its twins' names.
std::vector<std::string> expect_twins_reopen_and_win(const Fixture& f, TuneOptions o, const Shape& s,
                                                     const std::vector<std::string>& speedup,
                                                     const std::function<void(TuneOptions&)>& enable,
                                                     const std::string& twin_mark) {
  f.run(o, speedup);
  const auto before = f.db().decision(s, Layout::tn, Accum::f32);
  EXPECT_TRUE(before);
  if (!before) return {};
  EXPECT_EQ(before->best.find(twin_mark), std::string::npos) << before->best;
  const size_t measured_before = f.logged("measure").size();

  enable(o);
  const TuneResult again = f.run(o, speedup);
  EXPECT_EQ(again.rerastered, 1u);
  EXPECT_EQ(again.tuned_now, 0u);
  const auto measures = f.logged("measure");
  EXPECT_GT(measures.size(), measured_before);
  const auto after = f.db().decision(s, Layout::tn, Accum::f32);
  EXPECT_TRUE(after);
  if (after) {
    EXPECT_NE(after->best.find(twin_mark), std::string::npos) << after->best;  // 1.2x faster as a twin
    EXPECT_EQ(after->budget, before->budget);
  }
  const TuneResult third = f.run(o, speedup);
  EXPECT_EQ(third.rerastered, 0u);
  EXPECT_EQ(third.measured, 0);
  return {measures.begin() + std::ptrdiff_t(std::min(measured_before, measures.size())), measures.end()};
}

TuneOptions twin_options(const Fixture& f, const Shape& s) {
  auto o = f.options({s}, 4);
  o.seeds = 0;
  o.neighbour_seeds = 0;
  o.measure_rule_gaps = false;
  return o;
}

// --parts-apart: each split finalist built with its tile's parts apart.
TEST(Tuner, PartsApartReopensADecidedSplitProblemAndMeasuresItsFinalistsBuiltSo) {
  Fixture f;
  const Shape s{256, 256, 16384};  // four 128x128 tiles: the finalists split K
  auto o = twin_options(f, s);
  o.max_splits = 16;
  const auto twins = expect_twins_reopen_and_win(
      f, o, s, {"--parts-apart-speedup", "1.2"}, [](TuneOptions& t) { t.parts_apart = true; }, "_pa_k");
  EXPECT_LE(twins.size(), 2u);  // at most one twin per finalist
  for (const auto& m : twins) {
    EXPECT_NE(m.find("_pa_k"), std::string::npos) << m;  // a split launch, built apart
    EXPECT_EQ(m.find("_dsm"), std::string::npos) << m;   // never a sum inside a cluster
  }
}

// --cluster-push: each one-consumer finalist summed inside a cluster, built to push its sums.
TEST(Tuner, ClusterPushReopensADecidedInClusterProblemAndMeasuresItsFinalistsBuiltSo) {
  Fixture f;
  const Shape s{64, 64, 16384};  // two 64x32 tiles: the one-consumer finalists split K, in a cluster too
  auto o = twin_options(f, s);
  o.configs = f.slow;  // one consumer only: every in-cluster finalist has a push twin
  o.max_splits = 16;
  const auto twins = expect_twins_reopen_and_win(
      f, o, s, {"--cluster-push-speedup", "1.2"}, [](TuneOptions& t) { t.cluster_push = true; }, "_push_k");
  for (const auto& m : twins) {
    EXPECT_NE(m.find("_push_k"), std::string::npos) << m;  // a split launch, pushed
    EXPECT_NE(m.find("_dsm"), std::string::npos) << m;     // summed inside a cluster
  }
}

// --cluster-twins: each split finalist without a cluster, in each cluster asked for (both operands
// multicast), where the rules allow it.
TEST(Tuner, ClusterTwinsReopenADecidedSplitProblemAndMeasureItsFinalistsInClusters) {
  Fixture f;
  const Shape s{256, 256, 16384};
  auto o = twin_options(f, s);
  o.max_splits = 16;
  const auto twins = expect_twins_reopen_and_win(
      f, o, s, {"--wide-cluster-speedup", "1.2"}, [](TuneOptions& t) { t.cluster_twins = {{2, 2}, {4, 2}}; }, "_mc");
  EXPECT_LE(twins.size(), 4u);  // at most two twins per finalist
  for (const auto& m : twins) {
    const bool square = m.find("_2x2_mc") != std::string::npos, eight = m.find("_4x2_mc") != std::string::npos;
    EXPECT_TRUE(square || eight) << m;
    EXPECT_NE(m.find("_k"), std::string::npos) << m;  // a split launch
  }
}

// --ksplit-twins: each one-consumer finalist with two k-split consumers, its ring rounded down to
// an even depth.
TEST(Tuner, KSplitTwinsReopenADecidedProblemAndMeasureItsOneConsumerFinalistsOnTwo) {
  Fixture f;
  const Shape s{64, 4096, 4096};
  auto o = twin_options(f, s);
  o.configs = f.slow;  // one consumer only: every finalist has a k-split twin where its ring allows
  const auto twins = expect_twins_reopen_and_win(
      f, o, s, {"--ksplit-speedup", "1.2"}, [](TuneOptions& t) { t.ksplit_twins = true; }, "_c2_ksplit_");
  EXPECT_LE(twins.size(), 2u);  // at most one twin per finalist
  for (const auto& m : twins) {
    EXPECT_NE(m.find("_c2_ksplit_"), std::string::npos) << m;
    const KernelConfig twin = parse_hopper_candidate_name(m.substr(m.find("sm90_"))).first;
    EXPECT_EQ(twin.stages % 2, 0) << m;
    EXPECT_GE(twin.stages, 4) << m;
  }
}

// --space-twins: each finalist tuned before the space's optional knobs (configs without them, as
// in the shipped tables and older databases), built as the space builds it now: lean cluster sync
// where multicast.
TEST(Tuner, SpaceTwinsReopenADecidedProblemAndMeasureItsOldFinalistsAsTheSpaceBuildsThem) {
  Fixture f;
  const Shape s{64, 4096, 4096};
  auto o = twin_options(f, s);
  std::vector<KernelConfig> old;
  for (auto c : f.slow) {  // multicast pairs as configured before lean sync, as the tables' cluster entries
    c.cluster_n = 2;
    c.multicast = true;
    c.lean_cluster_sync = false;
    if (is_valid(c)) old.push_back(c);
  }
  ASSERT_GE(old.size(), 2u);
  o.configs = old;
  const auto twins = expect_twins_reopen_and_win(
      f, o, s, {"--lean-sync-speedup", "1.2"}, [](TuneOptions& t) { t.space_twins = true; }, "_lean");
  EXPECT_LE(twins.size(), 2u);  // at most one twin per finalist
  for (const auto& m : twins) {
    const KernelConfig twin = parse_hopper_candidate_name(m.substr(m.find("sm90_"))).first;
    EXPECT_TRUE(twin.lean_cluster_sync) << m;
    EXPECT_EQ(with_space_knobs(twin), twin) << m;
  }
}

// --uniform-warpgroup-twins: each two-consumer finalist also built with the uniform warpgroup
// index; one-consumer finalists get no twin.
TEST(Tuner, UniformWarpgroupTwinsReopenADecidedProblemAndMeasureItsTwoConsumerFinalistsSoBuilt) {
  Fixture f;
  const Shape s{1024, 1024, 1024};
  auto o = twin_options(f, s);
  o.configs = {config(128, 128, 4, 2), config(128, 64, 4, 2), config(64, 32, 4, 1)};
  const auto twins = expect_twins_reopen_and_win(f, o, s, {"--uniform-warpgroup-speedup", "1.2"},
                                                 [](TuneOptions& t) { t.uniform_warpgroup_twins = true; }, "_uw");
  EXPECT_GE(twins.size(), 1u);
  EXPECT_LE(twins.size(), 2u);  // at most one twin per finalist
  for (const auto& m : twins) {
    const KernelConfig twin = parse_hopper_candidate_name(m.substr(m.find("sm90_"))).first;
    EXPECT_TRUE(twin.uniform_warpgroup) << m;
    EXPECT_EQ(twin.consumers, 2) << m;
  }
}

// --dynamic-walk-twins: each unsplit persistent finalist also built with the dynamic walk; split
// finalists get no twin (their launches walk statically).
TEST(Tuner, DynamicWalkTwinsReopenADecidedProblemAndMeasureItsUnsplitFinalistsSoBuilt) {
  Fixture f;
  const Shape s{1024, 1024, 1024};
  auto o = twin_options(f, s);
  o.configs = {config(128, 128, 4, 2), config(128, 64, 4, 2), config(64, 32, 4, 1)};
  const auto twins = expect_twins_reopen_and_win(f, o, s, {"--dynamic-walk-speedup", "1.2"},
                                                 [](TuneOptions& t) { t.dynamic_walk_twins = true; }, "_dw");
  EXPECT_GE(twins.size(), 1u);
  EXPECT_LE(twins.size(), 3u);  // at most one twin per finalist
  for (const auto& m : twins) {
    const auto [twin, knobs] = parse_hopper_candidate_name(m.substr(m.find("sm90_")));
    EXPECT_TRUE(twin.dynamic_walk) << m;
    EXPECT_EQ(knobs.splits, 1) << m;
    EXPECT_FALSE(knobs.stream_k) << m;
  }
}

// --walk-n-twins: each finalist also built to walk along N, launched with the automatic group
// (a finalist's explicit group counts rows; the twin's would count columns).
TEST(Tuner, WalkNTwinsReopenADecidedProblemAndMeasureItsFinalistsSoBuilt) {
  Fixture f;
  const Shape s{1024, 1024, 1024};
  auto o = twin_options(f, s);
  o.configs = {config(128, 128, 4, 2), config(128, 64, 4, 2), config(64, 32, 4, 1)};
  o.raster_groups = {2};  // the first run's finalists may have a group of rows; their twins do not
  const auto twins = expect_twins_reopen_and_win(f, o, s, {"--walk-n-speedup", "1.2"}, [](TuneOptions& t) {
    t.walk_n_twins = true;
    t.raster_groups.clear();
  }, "_wn");
  EXPECT_GE(twins.size(), 1u);
  std::set<std::string> measured;
  for (const auto& m : twins) {
    const auto [twin, knobs] = parse_hopper_candidate_name(m.substr(m.find("sm90_")));
    EXPECT_TRUE(twin.walk_n) << m;
    EXPECT_EQ(knobs.group_m, 0) << m;
    EXPECT_TRUE(measured.insert(KernelCandidate{twin, knobs}.name()).second) << m << " measured twice";
  }
}

// --walk-n-twins with --dynamic-walk-twins: each unsplit finalist also built with both, and it
// wins where the two together are fastest.
TEST(Tuner, WalkNAndDynamicWalkTwinsTogetherMeasureFinalistsBuiltWithBoth) {
  Fixture f;
  const Shape s{1024, 1024, 1024};
  auto o = twin_options(f, s);
  o.configs = {config(128, 128, 4, 2), config(128, 64, 4, 2), config(64, 32, 4, 1)};
  const auto twins = expect_twins_reopen_and_win(f, o, s, {"--walk-n-speedup", "1.1", "--dynamic-walk-speedup", "1.1"},
                                                 [](TuneOptions& t) { t.walk_n_twins = t.dynamic_walk_twins = true; },
                                                 "_dw_wn");
  size_t both = 0;
  for (const auto& m : twins) {
    const auto [twin, knobs] = parse_hopper_candidate_name(m.substr(m.find("sm90_")));
    EXPECT_TRUE(twin.walk_n || twin.dynamic_walk) << m;
    both += twin.walk_n && twin.dynamic_walk;
  }
  EXPECT_GE(both, 1u);
}

// After a kernel edit, `gemmforge db carry` moves what the edit left alone: the results of
// candidates built to the same code, every baseline, and the decisions of problems that measured
// no changed candidate. A tune under the new source then finishes only the other problems.
TEST(Tuner, CarriedResultsOfUnchangedCandidatesLetATuneUnderANewKernelSourceResume) {
  Fixture f;
  const Shape one{512, 512, 512}, two{1024, 256, 2048};
  auto o = f.options({one}, 1);  // measures the first config only
  o.seeds = 0;
  o.neighbour_seeds = 0;
  o.measure_rule_gaps = false;
  f.run(o);
  o.shapes = {two};
  o.budget = 3;  // the first three, the edited one among them
  f.run(o);
  const KernelConfig edited = f.slow[1];

  CarryOptions c;
  c.db = o.db;
  c.from = DbEnvironment{"Fake GPU", "sm_90a", "hash1", "", ""};
  c.to = DbEnvironment{"Fake GPU", "sm_90a", "hash2", "", ""};
  c.same_code = [&](const KernelCandidate& k) { return std::optional<bool>(k.config_name() != edited.name()); };
  c.command = "gemmforge db carry (test)";
  const CarryResult r = carry_results(c);
  EXPECT_GE(r.identical, 2u);
  EXPECT_EQ(r.changed, 1u);
  EXPECT_EQ(r.decisions, 1);  // the first shape's; the second measured the edited config
  EXPECT_GE(r.baselines, 2);
  const ResultsDb now = f.db("Fake GPU", "hash2");
  EXPECT_TRUE(now.decision(one, Layout::tn, Accum::f32));
  EXPECT_FALSE(now.decision(two, Layout::tn, Accum::f32));
  const auto carried = now.measurements_of(two, Layout::tn, Accum::f32, "gemmforge", "estimate");
  EXPECT_EQ(carried.size(), 2u);
  for (const auto& m : carried) {
    EXPECT_FALSE(is_variant_of(m.config, edited)) << m.config;
    EXPECT_EQ(m.note.rfind("carried from kernel source hash1: the same code", 0), 0u) << m.note;
  }
  // Carrying again adds nothing.
  const CarryResult again = carry_results(c);
  EXPECT_EQ(again.measurements + again.baselines + again.decisions, 0);
  EXPECT_GT(again.already, 0);

  // Under the new source: the first shape is done; the second has spent its budget on the
  // carried measurements, so nothing is searched, but the kernel a prior table served it (the
  // edited one, not carried) is measured again before its final.
  const size_t measured_before = f.logged("measure").size(), compared_before = f.logged("compare").size();
  auto n = f.options({one, two}, 1);
  n.seeds = 0;
  n.neighbour_seeds = 0;
  n.measure_rule_gaps = false;
  n.kernel_source_hash = "hash2";
  n.prior = PriorTable::read(write_prior_table(f.dir.path / "prior.json", {{two, KernelCandidate(edited)}}));
  const TuneResult t = f.run(n);
  EXPECT_EQ(t.already_done, 1u);
  EXPECT_EQ(t.tuned_now, 1u);
  EXPECT_EQ(t.measured, 1);
  EXPECT_EQ(f.logged("measure").size(), measured_before + 1);
  EXPECT_EQ(f.logged("compare").size(), compared_before + 1);
  const auto remeasured = f.db("Fake GPU", "hash2").measurements_of(two, Layout::tn, Accum::f32, "gemmforge", "estimate");
  ASSERT_EQ(remeasured.size(), 3u);
  EXPECT_TRUE(std::any_of(remeasured.begin(), remeasured.end(), [&](const Measurement& m) {
    return m.config == KernelCandidate(edited).name() && m.note.find("prior run") != std::string::npos;
  }));

  // Only between kernel sources of one GPU, architecture and protocol.
  c.to.gpu = "Other GPU";
  EXPECT_THROW(carry_results(c), Error);
  c.to = c.from;
  EXPECT_THROW(carry_results(c), Error);
}

}  // namespace
}  // namespace gemmforge::tune
