#include "tune/prior_table.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <optional>

#include <nlohmann/json.hpp>

#include "core/records.hpp"
#include "runtime/table.hpp"

namespace gemmforge::tune {

PriorTable PriorTable::read(const std::filesystem::path& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    const auto sweep = path / "sweep.csv";
    if (!std::filesystem::exists(sweep, ec))
      throw Error("the prior '" + path.string() + "' is a directory without a sweep.csv (a bench run with --configs)");
    return read_sweep(sweep);
  }
  if (path.extension() == ".csv") return read_sweep(path);
  return read_table(path);
}

PriorTable PriorTable::read_table(const std::filesystem::path& path) {
  std::ifstream f(path);
  if (!f) throw Error("cannot read the prior table '" + path.string() + "'");
  nlohmann::json table;
  try {
    table = nlohmann::json::parse(f);
  } catch (const nlohmann::json::exception& e) {
    throw Error("the prior table '" + path.string() + "' is not JSON: " + e.what());
  }
  if (!table.is_object() || table.value("schema", std::string()) != kTableSchema || !table.contains("entries") ||
      !table["entries"].is_array())
    throw Error("the prior table '" + path.string() + "' is not a table from gemmforge tune (schema " + kTableSchema +
                " with an \"entries\" list expected)");
  PriorTable prior;
  size_t i = 0;
  for (const auto& e : table["entries"]) {
    const std::string where = "the prior table '" + path.string() + "', entry " + std::to_string(i++);
    try {
      const nlohmann::json& config = e.at("config");
      if (config.is_string() && config.get<std::string>() == "cublaslt") continue;  // nothing to seed
      if (!config.is_object()) throw Error("its config must be a kernel config or \"cublaslt\"");
      nlohmann::json candidate = {{"config", config}};
      if (e.contains("launch")) candidate["launch"] = e.at("launch");
      const Shape s{e.at("M").get<int64_t>(), e.at("N").get<int64_t>(), e.at("K").get<int64_t>()};
      const Layout l = parse_layout(e.at("layout").get<std::string>());
      const Accum a = parse_accum(e.value("acc", std::string("f32")));
      const KernelCandidate c = KernelCandidate::from_json(candidate);
      if (c.layout() != l || c.acc() != a) throw Error("its kernel is for another layout or accumulator");
      if (prior.entries_.count(key(s, l, a))) throw Error("a second entry for " + key(s, l, a));
      prior.add(key(s, l, a), c);
    } catch (const nlohmann::json::exception& x) {
      throw Error(where + ": " + x.what());
    } catch (const Error& x) {
      throw Error(where + ": " + x.what());
    }
  }
  return prior;
}

namespace {

// A candidate as bench names it in sweep.csv (KernelCandidate::name), without a shape build.
KernelCandidate candidate_from_sweep_name(const std::string& name) {
  if (name.rfind("sm80_", 0) == 0) return sm80_candidate(Sm80Config::from_name(name));
  KernelCandidate c;
  std::tie(c.config, c.knobs) = parse_hopper_candidate_name(name);
  if (c.name() != name) throw Error("config '" + name + "' reads back as '" + c.name() + "'");
  return c;
}

}  // namespace

PriorTable PriorTable::read_sweep(const std::filesystem::path& path) {
  struct Best {
    bool finalist = false;
    double us = 0;
    KernelCandidate candidate;
  };
  std::map<std::string, Best> best;
  size_t m = 0, n = 0, k = 0, layout = 0, acc = 0, config = 0, verdict = 0, estimate = 0, columns = 0;
  std::optional<size_t> finalist;
  read_csv(
      path,
      [&](const std::vector<std::string>& header) {
        auto at = [&](const char* name) {
          const auto it = std::find(header.begin(), header.end(), name);
          if (it == header.end())
            throw Error(std::string("not a sweep.csv of gemmforge bench (no column '") + name + "')");
          return size_t(it - header.begin());
        };
        m = at("M"), n = at("N"), k = at("K"), layout = at("layout"), acc = at("acc"), config = at("config");
        verdict = at("verdict"), estimate = at("estimate_us"), columns = header.size();
        if (const auto it = std::find(header.begin(), header.end(), "finalist_median_us"); it != header.end())
          finalist = size_t(it - header.begin());
      },
      [&](const std::vector<std::string>& v) {
        if (v.size() != columns)
          throw Error(std::to_string(v.size()) + " fields, expected " + std::to_string(columns));
        if (v[verdict] != "pass") return;
        const std::string& name = v[config];
        // A build for one shape ("..._atMxNxK"): its generic build has a row of its own.
        if (name.find("_at") != std::string::npos) return;
        auto dim = [](const std::string& t) {
          const auto d = parse_integer(t);
          if (!d || *d < 1) throw Error("'" + t + "' is not a dimension");
          return *d;
        };
        auto time = [](const std::string& t) {
          const auto us = parse_real(t);
          if (!us || !std::isfinite(*us) || *us <= 0) throw Error("'" + t + "' is not a positive time in µs");
          return *us;
        };
        const Shape s{dim(v[m]), dim(v[n]), dim(v[k])};
        const Layout l = parse_layout(v[layout]);
        const Accum a = parse_accum(v[acc]);
        const KernelCandidate c = candidate_from_sweep_name(name);
        if (c.layout() != l || c.acc() != a) throw Error("config " + name + " recorded under another layout or accumulator");
        const bool is_finalist = finalist && !v[*finalist].empty();
        const double us = time(is_finalist ? v[*finalist] : v[estimate]);
        const std::string problem = key(s, l, a);
        const Best row{is_finalist, us, c};
        auto [it, added] = best.try_emplace(problem, row);
        // A finalist's median outranks any estimate; on a tie the earlier row stays.
        auto rank = [](const Best& x) { return std::make_pair(!x.finalist, x.us); };
        if (!added && rank(row) < rank(it->second)) it->second = row;
      });
  if (best.empty()) throw Error("the prior '" + path.string() + "' holds no passing gemmforge measurement");
  PriorTable prior;
  for (const auto& [problem, b] : best) prior.add(problem, b.candidate);
  return prior;
}

void PriorTable::merge(const PriorTable& other) {
  for (const auto& [problem, seeds] : other.entries_)
    for (const auto& c : seeds) add(problem, c);
}

void PriorTable::add(const std::string& problem, const KernelCandidate& c) {
  auto& seeds = entries_[problem];
  if (std::find(seeds.begin(), seeds.end(), c) == seeds.end()) seeds.push_back(c);
}

std::vector<KernelCandidate> PriorTable::find(const Shape& s, Layout l, Accum a) const {
  const auto it = entries_.find(key(s, l, a));
  return it == entries_.end() ? std::vector<KernelCandidate>() : it->second;
}

std::string PriorTable::key(const Shape& s, Layout l, Accum a) {
  return to_string(s) + "/" + to_string(l) + "/" + to_string(a);
}

}  // namespace gemmforge::tune
