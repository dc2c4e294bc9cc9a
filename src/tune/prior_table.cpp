#include "tune/prior_table.hpp"

#include <fstream>

#include <nlohmann/json.hpp>


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
  if (!table.is_object() || !table.contains("entries") || !table["entries"].is_array())
    throw Error("the prior table '" + path.string() + "' has no \"entries\" list: is it a table from gemmforge tune?");
  PriorTable prior;
  size_t i = 0;
  for (const auto& e : table["entries"]) {
    const std::string where = "the prior table '" + path.string() + "', entry " + std::to_string(i++);
    try {
      if (!e.at("config").is_object()) continue;  // served by cuBLASLt: nothing to seed
      nlohmann::json candidate = {{"config", e.at("config")}};
      if (e.contains("launch")) candidate["launch"] = e.at("launch");
      const Shape s{e.at("M").get<int64_t>(), e.at("N").get<int64_t>(), e.at("K").get<int64_t>()};
      prior.entries_[key(s, parse_layout(e.at("layout").get<std::string>()), parse_accum(e.at("acc").get<std::string>()))] =
          KernelCandidate::from_json(candidate);
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
