#include "tune/prior_table.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "core/json_file.hpp"
#include "runtime/table.hpp"
#include "search/sweep_replay.hpp"

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
  const nlohmann::json table = read_json_file(path, "the prior table");
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

PriorTable PriorTable::read_sweep(const std::filesystem::path& path) {
  struct Best {
    bool finalist;  // a finalist's median outranks any estimate
    double us;
    KernelCandidate candidate;
  };
  std::map<std::string, Best> best;
  read_sweep_rows(path, [&](const SweepRow& r) {
    if (!r.estimate_us) return;  // failed the gate
    const Best row{r.finalist_us.has_value(), r.finalist_us.value_or(*r.estimate_us), r.candidate};
    auto rank = [](const Best& x) { return std::make_pair(!x.finalist, x.us); };
    // On a tie the earlier row stays.
    if (auto [it, added] = best.try_emplace(key(r.shape, r.layout, r.acc), row); !added && rank(row) < rank(it->second))
      it->second = row;
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
