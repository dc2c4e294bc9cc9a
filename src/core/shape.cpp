#include "core/shape.hpp"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>

namespace gemmforge {

std::string to_string(Layout l) { return l == Layout::nn ? "nn" : "tn"; }
std::string to_string(Accum a) { return a == Accum::f32 ? "f32" : "f16"; }
std::string to_string(const Shape& s) {
  return std::to_string(s.M) + "x" + std::to_string(s.N) + "x" + std::to_string(s.K);
}

Layout parse_layout(std::string_view s) {
  if (s == "nn") return Layout::nn;
  if (s == "tn") return Layout::tn;
  throw Error("unknown layout '" + std::string(s) + "': use nn (B is KxN) or tn (B is NxK)");
}

Accum parse_accum(std::string_view s) {
  if (s == "f32") return Accum::f32;
  if (s == "f16") return Accum::f16;
  throw Error("unknown accumulator '" + std::string(s) + "': use f32 or f16");
}

ShapeClass classify(const Shape& s) {
  const int64_t mx = std::max({s.M, s.N, s.K});
  if (mx <= 512) return ShapeClass::tiny;
  if (s.M <= 512 && s.N <= 512 && s.K >= 4096) return ShapeClass::tall_k;
  if (s.K <= 256 && s.M >= 4096 && s.N >= 4096) return ShapeClass::small_k;
  const bool m_small = s.M <= 256, n_small = s.N <= 256;
  if (m_small != n_small) {
    const int64_t other = m_small ? s.N : s.M;
    if (other >= 4096 && s.K >= 4096) return ShapeClass::skinny;
  }
  if (s.M >= 4096 && s.N >= 4096 && s.K >= 4096) return ShapeClass::large;
  return ShapeClass::mid;
}

std::string to_string(ShapeClass c) {
  switch (c) {
    case ShapeClass::tiny: return "tiny";
    case ShapeClass::tall_k: return "tall-K";
    case ShapeClass::small_k: return "small-K";
    case ShapeClass::skinny: return "skinny";
    case ShapeClass::large: return "large";
    case ShapeClass::mid: return "mid";
  }
  return "?";
}

ShapeClass parse_shape_class(std::string_view s) {
  for (ShapeClass c : kAllClasses)
    if (to_string(c) == s) return c;
  throw Error("unknown shape class '" + std::string(s) + "'");
}

std::optional<int64_t> parse_integer(std::string_view tok) {
  int64_t v = 0;
  auto [p, ec] = std::from_chars(tok.data(), tok.data() + tok.size(), v);
  if (tok.empty() || ec != std::errc() || p != tok.data() + tok.size()) return std::nullopt;
  return v;
}

std::optional<double> parse_real(std::string_view tok) {
  double v = 0;
  auto [p, ec] = std::from_chars(tok.data(), tok.data() + tok.size(), v);
  if (tok.empty() || ec != std::errc() || p != tok.data() + tok.size()) return std::nullopt;
  return v;
}

namespace {

// A dimension must be a positive integer that fits comfortably in device indexing.
int64_t parse_dim(std::string_view tok, std::string_view where) {
  const auto parsed = parse_integer(tok);
  if (!parsed) throw Error(std::string(where) + ": '" + std::string(tok) + "' is not an integer dimension");
  const int64_t v = *parsed;
  if (v <= 0)
    throw Error(std::string(where) + ": dimension " + std::to_string(v) +
                " must be at least 1");
  if (v > (int64_t(1) << 20))
    throw Error(std::string(where) + ": dimension " + std::to_string(v) +
                " is larger than gemmforge accepts (1048576)");
  return v;
}

}  // namespace

Shape parse_shape(std::string_view text) {
  std::string t(text);
  std::replace_if(t.begin(), t.end(), [](char c) { return c == 'X' || c == '*'; }, 'x');
  std::vector<std::string_view> parts;
  std::string_view rest(t);
  while (true) {
    auto pos = rest.find('x');
    parts.push_back(rest.substr(0, pos));
    if (pos == std::string_view::npos) break;
    rest.remove_prefix(pos + 1);
  }
  const std::string where = "shape '" + std::string(text) + "'";
  if (parts.size() != 3) throw Error(where + ": expected MxNxK, e.g. 4096x4096x512");
  return Shape{parse_dim(parts[0], where), parse_dim(parts[1], where), parse_dim(parts[2], where)};
}

std::vector<Shape> parse_shape_list(std::string_view text, std::string_view source_name) {
  std::vector<Shape> out;
  std::istringstream in{std::string(text)};
  std::string line;
  int line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (auto hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    std::istringstream ls(line);
    std::vector<std::string> toks;
    for (std::string tok; ls >> tok;) toks.push_back(tok);
    if (toks.empty()) continue;
    const std::string where = std::string(source_name) + ":" + std::to_string(line_no);
    if (toks.size() != 3)
      throw Error(where + ": expected three dimensions 'M N K', found " +
                  std::to_string(toks.size()) + " fields");
    out.push_back({parse_dim(toks[0], where), parse_dim(toks[1], where), parse_dim(toks[2], where)});
  }
  if (out.empty()) throw Error(std::string(source_name) + ": no shapes in the file");
  return out;
}

std::vector<Shape> read_shape_file(const std::filesystem::path& path) {
  std::ifstream f(path);
  if (!f) throw Error("cannot read shape file '" + path.string() + "'");
  std::stringstream ss;
  ss << f.rdbuf();
  if (f.bad()) throw Error("error while reading shape file '" + path.string() + "'");
  return parse_shape_list(ss.str(), path.string());
}

std::filesystem::path find_data_file(std::string_view relative_path) {
  namespace fs = std::filesystem;
  std::vector<fs::path> roots;
  if (const char* env = std::getenv("GEMMFORGE_DATA_DIR")) roots.emplace_back(env);
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const fs::path dir = exe.parent_path();
    for (const char* up : {"..", "../..", "../share/gemmforge"}) roots.push_back(dir / up);
  }
#ifdef GEMMFORGE_INSTALL_DATADIR
  roots.emplace_back(GEMMFORGE_INSTALL_DATADIR);  // a program linking the installed library
#endif
#ifdef GEMMFORGE_SOURCE_DIR
  roots.emplace_back(GEMMFORGE_SOURCE_DIR);
#endif
  for (const auto& r : roots) {
    const fs::path p = r / relative_path;
    if (fs::exists(p, ec)) return fs::weakly_canonical(p, ec);
  }
  throw Error("cannot find '" + std::string(relative_path) +
              "' next to the executable or in the source tree; set GEMMFORGE_DATA_DIR to the "
              "repository root");
}

std::vector<Shape> grid_shapes() { return read_shape_file(find_data_file("shapes/grid.txt")); }

std::vector<Shape> resolve_shapes(const std::string& shapes_arg,
                                  const std::vector<std::string>& shape_args) {
  std::vector<Shape> all;
  if (shapes_arg == "grid") {
    all = grid_shapes();
  } else if (!shapes_arg.empty()) {
    all = read_shape_file(shapes_arg);
  }
  for (const auto& s : shape_args) all.push_back(parse_shape(s));
  if (all.empty()) throw Error("no shapes given: use --shapes grid, --shapes FILE or --shape MxNxK");
  std::set<Shape> seen;
  std::vector<Shape> unique;
  for (const auto& s : all)
    if (seen.insert(s).second) unique.push_back(s);
  return unique;
}

std::vector<Shape> stratified_sample(const std::vector<Shape>& shapes, size_t count, uint64_t seed) {
  if (count >= shapes.size()) return shapes;
  std::map<ShapeClass, std::vector<Shape>> by_class;
  for (const auto& s : shapes) by_class[classify(s)].push_back(s);
  std::mt19937_64 rng(seed);
  for (auto& [c, v] : by_class) std::shuffle(v.begin(), v.end(), rng);
  std::vector<Shape> out;
  // Round-robin over classes so the small classes are represented, not just the big "mid".
  for (size_t i = 0; out.size() < count; ++i)
    for (auto& [c, v] : by_class)
      if (i < v.size() && out.size() < count) out.push_back(v[i]);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace gemmforge
