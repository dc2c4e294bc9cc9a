#include "tune/prior_table.hpp"

#include <fstream>

#include <nlohmann/json.hpp>

#include "runtime/table.hpp"

namespace gemmforge::tune {

PriorTable PriorTable::read(const std::filesystem::path& path) {
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
      if (!prior.entries_.emplace(key(s, l, a), c).second) throw Error("a second entry for " + key(s, l, a));
    } catch (const nlohmann::json::exception& x) {
      throw Error(where + ": " + x.what());
    } catch (const Error& x) {
      throw Error(where + ": " + x.what());
    }
  }
  return prior;
}

std::optional<KernelCandidate> PriorTable::find(const Shape& s, Layout l, Accum a) const {
  const auto it = entries_.find(key(s, l, a));
  if (it == entries_.end()) return std::nullopt;
  return it->second;
}

std::string PriorTable::key(const Shape& s, Layout l, Accum a) {
  return to_string(s) + "/" + to_string(l) + "/" + to_string(a);
}

}  // namespace gemmforge::tune
