#include "runtime/table.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>
#include <sstream>

#include "core/json_file.hpp"

namespace gemmforge {

namespace {

// A Hopper config an entry of this layout and accumulator may name; `what` says which field.
KernelConfig checked_hopper_config(const KernelConfig& k, Layout layout, Accum acc, const char* what) {
  if (k.layout != layout || k.acc != acc) throw Error(std::string(what) + " " + k.name() + " is for another layout or accumulator");
  if (auto p = validity_problems(k); !p.empty()) throw Error(std::string(what) + " " + k.name() + " is not valid: " + p.front());
  return k;
}

// A fastest kernel is kept by its candidate name (config and launch knobs in one word): the
// tables hold one beside most cuBLASLt entries, and a JSON config each would double their size.
FastestKernel fastest_from_json(const nlohmann::json& j, Layout layout, Accum acc) {
  if (!j.contains("fastest_kernel") || !j.contains("fastest_speedup"))
    throw Error("fastest_kernel and fastest_speedup go together");
  if (!j.at("fastest_kernel").is_string()) throw Error("fastest_kernel must be a Hopper candidate's name");
  const std::string name = j.at("fastest_kernel").get<std::string>();
  FastestKernel f;
  std::tie(f.config, f.knobs) = parse_hopper_candidate_name(name);
  checked_hopper_config(f.config, layout, acc, "fastest_kernel");
  if (auto p = launch_problem(f.config, f.knobs); !p.empty()) throw Error("fastest_kernel " + name + ": " + p);
  f.speedup = j.at("fastest_speedup").get<double>();
  if (!(f.speedup > 0)) throw Error("fastest_speedup must be above 0");
  return f;
}

// `exact`: an entry for one shape (it may name a kernel built for that shape), not a class rule.
TableEntry entry_from_json(const nlohmann::json& j, Layout layout, Accum acc, bool exact) {
  TableEntry e;
  e.speedup = j.value("speedup_vs_cublaslt", 0.0);
  const auto& c = j.at("config");
  if ((j.contains("fastest_kernel") || j.contains("fastest_speedup")) && (!exact || !c.is_string()))
    throw Error("fastest_kernel belongs to an exact entry that names cuBLASLt");
  if (c.is_string()) {
    if (c.get<std::string>() != "cublaslt") throw Error("config must be a kernel config or \"cublaslt\"");
    if (j.contains("specialized")) throw Error("\"specialized\" names a kernel built for one shape, not cuBLASLt");
    e.cublaslt_algo = j.value("cublaslt_algo", -1);
    if (e.cublaslt_algo < -1 || e.cublaslt_algo >= kLtHeuristicCount)
      throw Error("cublaslt_algo must be -1.." + std::to_string(kLtHeuristicCount - 1));
    if (j.contains("fastest_kernel") || j.contains("fastest_speedup")) e.fastest = fastest_from_json(j, layout, acc);
    return e;
  }
  e.specialized = j.value("specialized", false);
  if (e.specialized && !exact) throw Error("a class rule cannot name a kernel built for one shape (specialized)");
  if (is_sm80_config_json(c)) {
    const Sm80Config k = Sm80Config::from_json(c);
    if (k.layout != layout || k.acc != acc) throw Error("config " + k.name() + " is for another layout or accumulator");
    if (auto p = k.validity_problems(); !p.empty()) throw Error("config " + k.name() + " is not valid: " + p.front());
    if (j.contains("launch")) throw Error("config " + k.name() + ": sm80 kernels take no launch knobs");
    e.sm80 = k;
    return e;
  }
  e.config = checked_hopper_config(KernelConfig::from_json(c), layout, acc, "config");
  if (j.contains("launch")) e.knobs = LaunchKnobs::from_json(j.at("launch"));
  return e;
}

// What entry_from_json reads back as the same entry; throws Error for an entry it would refuse.
nlohmann::json entry_to_json(const TableEntry& e, bool exact) {
  if (e.config && e.sm80) throw Error("a table entry names both a Hopper and an sm80 kernel");
  if (e.specialized && (!exact || !e.names_a_kernel()))
    throw Error("only an exact entry that names a kernel can be built for its shape (specialized)");
  if (e.fastest && (!exact || e.names_a_kernel()))
    throw Error("only an exact entry that names cuBLASLt keeps a fastest kernel");
  const nlohmann::json config =
      e.config ? e.config->to_json() : (e.sm80 ? e.sm80->to_json() : nlohmann::json("cublaslt"));
  nlohmann::json j = {{"config", config}, {"speedup_vs_cublaslt", e.speedup}};
  if (e.config && !(e.knobs == LaunchKnobs{})) j["launch"] = e.knobs.to_json();
  if (e.names_a_kernel() && e.specialized) j["specialized"] = true;
  if (!e.names_a_kernel() && e.cublaslt_algo >= 0) j["cublaslt_algo"] = e.cublaslt_algo;
  if (e.fastest) {
    j["fastest_kernel"] = KernelCandidate(e.fastest->config, e.fastest->knobs).name();
    j["fastest_speedup"] = e.fastest->speedup;
  }
  return j;
}

}  // namespace

std::optional<TableEntry> Table::lookup(const Shape& s, Layout l, Accum a) const {
  if (auto it = exact.find({s.M, s.N, s.K, l, a}); it != exact.end()) return it->second;
  if (auto it = rules.find({classify(s), l, a}); it != rules.end()) {
    TableEntry e = it->second;
    e.from_rule = true;
    return e;
  }
  return std::nullopt;
}

std::optional<TableEntry> TableEntry::as_fastest() const {
  if (!fastest) return std::nullopt;
  TableEntry e;
  e.config = fastest->config;
  e.knobs = fastest->knobs;
  e.speedup = fastest->speedup;
  return e;
}

std::vector<TableEntry> Table::nearest_kernels(const Shape& s, Layout l, Accum a, size_t count,
                                               bool with_fastest) const {
  auto log_distance = [&](int64_t M, int64_t N, int64_t K) {
    double d = 0;
    for (auto [x, y] : {std::pair{M, s.M}, std::pair{N, s.N}, std::pair{K, s.K}}) {
      const double r = std::log2(double(x) / double(y));
      d += r * r;
    }
    return d;
  };
  // The entries stay where they are until chosen: a table holds a thousand per layout.
  std::vector<std::pair<double, const TableEntry*>> near;
  for (const auto& [key, e] : exact) {
    const auto& [M, N, K, layout, acc] = key;
    if (layout != l || acc != a || !(e.config || (with_fastest && e.fastest))) continue;
    const double d = log_distance(M, N, K);
    if (e.config || e.fastest->serves_staged_calls_at(d)) near.emplace_back(d, &e);
  }
  std::stable_sort(near.begin(), near.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<TableEntry> out;
  std::set<std::string> seen;
  for (const auto& [d, e] : near) {
    if (out.size() >= count) break;
    TableEntry k = e->config ? *e : *e->as_fastest();  // Hopper kernels, or the fastest beside cuBLASLt
    if (!seen.insert(KernelCandidate{*k.config, k.knobs}.name()).second) continue;
    k.from_rule = true;
    k.specialized = false;  // a build for another shape: this shape gets the generic one
    out.push_back(std::move(k));
  }
  return out;
}

nlohmann::json Table::to_json() const {
  nlohmann::json ex = nlohmann::json::array(), ru = nlohmann::json::array();
  for (const auto& [k, e] : exact) {
    auto j = entry_to_json(e, true);
    j["M"] = std::get<0>(k), j["N"] = std::get<1>(k), j["K"] = std::get<2>(k);
    j["layout"] = to_string(std::get<3>(k)), j["acc"] = to_string(std::get<4>(k));
    ex.push_back(j);
  }
  for (const auto& [k, e] : rules) {
    auto j = entry_to_json(e, false);
    j["class"] = to_string(std::get<0>(k)), j["layout"] = to_string(std::get<1>(k)), j["acc"] = to_string(std::get<2>(k));
    ru.push_back(j);
  }
  return {{"schema", kTableSchema}, {"gpu", gpu}, {"arch", arch}, {"kernel_source_hash", kernel_source_hash},
          {"entries", ex}, {"rules", ru}};
}

Table table_from_json(const nlohmann::json& j, const TableExpectation& want) {
  Table t;
  try {
    if (!j.is_object() || j.value("schema", std::string()) != kTableSchema)
      throw Error(std::string("not a gemmforge table (schema ") + kTableSchema + " expected)");
    t.gpu = j.at("gpu").get<std::string>();
    t.arch = j.at("arch").get<std::string>();
    t.kernel_source_hash = j.at("kernel_source_hash").get<std::string>();
    if (t.gpu != want.gpu && !want.other_gpu_allowed) throw Error("made on " + t.gpu + ", this GPU is " + want.gpu);
    if (t.arch != want.arch) throw Error("made for " + t.arch + ", this GPU runs " + want.arch);
    if (t.kernel_source_hash != want.kernel_source_hash)
      throw Error("made with other kernel sources (hash " + t.kernel_source_hash + ", these are " +
                  want.kernel_source_hash + "): its timings do not describe these kernels");
    const auto& entries = j.at("entries");
    for (size_t i = 0; i < entries.size(); ++i) {
      const auto& e = entries[i];
      try {
        const Shape s{e.at("M").get<int64_t>(), e.at("N").get<int64_t>(), e.at("K").get<int64_t>()};
        if (s.M < 1 || s.N < 1 || s.K < 1) throw Error("dimensions must be at least 1");
        const Layout l = parse_layout(e.at("layout").get<std::string>());
        const Accum a = parse_accum(e.value("acc", std::string("f32")));
        if (!t.exact.emplace(std::make_tuple(s.M, s.N, s.K, l, a), entry_from_json(e, l, a, true)).second)
          throw Error(to_string(s) + " " + to_string(l) + " appears twice");
      } catch (const std::exception& ex) {
        throw Error("entry " + std::to_string(i) + ": " + ex.what());
      }
    }
    const auto rules = j.value("rules", nlohmann::json::array());
    for (size_t i = 0; i < rules.size(); ++i) {
      const auto& r = rules[i];
      try {
        const ShapeClass c = parse_shape_class(r.at("class").get<std::string>());
        const Layout l = parse_layout(r.at("layout").get<std::string>());
        const Accum a = parse_accum(r.value("acc", std::string("f32")));
        if (!t.rules.emplace(std::make_tuple(c, l, a), entry_from_json(r, l, a, false)).second)
          throw Error("class " + to_string(c) + " " + to_string(l) + " appears twice");
      } catch (const std::exception& ex) {
        throw Error("rule " + std::to_string(i) + ": " + ex.what());
      }
    }
  } catch (const nlohmann::json::exception& e) {
    throw Error(std::string("malformed table: ") + e.what());
  }
  return t;
}

Table load_table(const std::filesystem::path& path, const TableExpectation& want) {
  const nlohmann::json j = read_json_file(path, "table");
  try {
    return table_from_json(j, want);
  } catch (const Error& e) {
    throw Error("table '" + path.string() + "': " + e.what());
  }
}

Table read_table_file(const std::filesystem::path& path, const std::string& kernel_source_hash) {
  const nlohmann::json j = read_json_file(path, "table");
  if (!j.is_object()) throw Error("'" + path.string() + "' is not a JSON dispatch table");
  const std::string named = j.value("kernel_source_hash", "");
  return table_from_json(j, TableExpectation{j.value("gpu", ""), j.value("arch", ""),
                                             kernel_source_hash.empty() ? named : kernel_source_hash});
}

std::string shipped_table_model(const std::string& gpu_name) {
  std::istringstream words(gpu_name);
  for (std::string w; words >> w;) {
    if (w.size() < 2 || !std::isalpha(static_cast<unsigned char>(w[0])) || !std::isdigit(static_cast<unsigned char>(w[1])))
      continue;
    w.erase(std::find_if(w.begin(), w.end(), [](unsigned char c) { return !std::isalnum(c); }), w.end());
    std::transform(w.begin(), w.end(), w.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return w;
  }
  return {};
}

}  // namespace gemmforge
