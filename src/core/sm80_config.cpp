#include "core/sm80_config.hpp"

#include <algorithm>
#include <random>
#include <set>
#include <sstream>

#include "core/covering_sample.hpp"

namespace gemmforge {

namespace {

bool power_of_two(int v) { return v > 0 && (v & (v - 1)) == 0; }

}  // namespace

std::string Sm80Config::name() const {
  std::ostringstream o;
  o << "sm80_" << to_string(layout) << "_" << to_string(acc) << "_" << block_m << "x" << block_n << "x" << block_k
    << "_w" << warps_m << "x" << warps_n << "_s" << stages << (vec16 ? "_v16" : "_v2");
  return o.str();
}

Sm80Config Sm80Config::from_name(const std::string& name) {
  // sm80_<layout>_<acc>_<BM>x<BN>x<BK>_w<WM>x<WN>_s<stages>_v16|v2
  std::vector<std::string> part;
  std::stringstream in(name);
  for (std::string p; std::getline(in, p, '_');) part.push_back(p);
  auto bad = [&](const std::string& what) { return Error("sm80 config name '" + name + "': " + what); };
  if (part.size() != 7 || part[0] != "sm80")
    throw bad("expected sm80_<layout>_<acc>_<BM>x<BN>x<BK>_w<WM>x<WN>_s<stages>_v16|v2");
  auto ints = [&](const std::string& text, size_t count, const std::string& what) {
    std::vector<int> v;
    std::stringstream t(text);
    for (std::string x; std::getline(t, x, 'x');) {
      const auto n = parse_integer(x);
      if (!n || *n < 0 || *n > 4096) throw bad(what + " '" + text + "' is not " + std::to_string(count) + " numbers");
      v.push_back(int(*n));
    }
    if (v.size() != count) throw bad(what + " '" + text + "' is not " + std::to_string(count) + " numbers");
    return v;
  };
  Sm80Config c;
  try {
    c.layout = parse_layout(part[1]);
    c.acc = parse_accum(part[2]);
  } catch (const Error& e) {
    throw bad(e.what());
  }
  const auto tile = ints(part[3], 3, "tile");
  c.block_m = tile[0], c.block_n = tile[1], c.block_k = tile[2];
  if (part[4].size() < 2 || part[4][0] != 'w') throw bad("'" + part[4] + "' is not w<warps_m>x<warps_n>");
  const auto warps = ints(part[4].substr(1), 2, "warps");
  c.warps_m = warps[0], c.warps_n = warps[1];
  if (part[5].size() < 2 || part[5][0] != 's') throw bad("'" + part[5] + "' is not s<stages>");
  c.stages = ints(part[5].substr(1), 1, "stages")[0];
  if (part[6] == "v16") c.vec16 = true;
  else if (part[6] == "v2") c.vec16 = false;
  else throw bad("load width '" + part[6] + "' is not v16 or v2");
  if (c.name() != name) throw bad("reads back as '" + c.name() + "'");
  return c;
}

nlohmann::json Sm80Config::to_json() const {
  return {{"family", "sm80"},   {"layout", to_string(layout)}, {"acc", to_string(acc)},
          {"block_m", block_m}, {"block_n", block_n},          {"block_k", block_k},
          {"warps_m", warps_m}, {"warps_n", warps_n},          {"stages", stages},
          {"vec16", vec16}};
}

Sm80Config Sm80Config::from_json(const nlohmann::json& j) {
  if (j.is_string()) return from_name(j.get<std::string>());
  try {
    if (!j.is_object()) throw Error("sm80 config: expected an object or a name, got " + j.dump());
    const std::string family = j.value("family", std::string("sm80"));
    if (family != "sm80") throw Error("sm80 config: family is '" + family + "', not sm80");
    // An object that only names its config ({"name": "sm80_..."}).
    if (!j.contains("block_m") && j.contains("name")) return from_name(j.at("name").get<std::string>());
    Sm80Config c;
    c.layout = parse_layout(j.at("layout").get<std::string>());
    c.acc = parse_accum(j.at("acc").get<std::string>());
    c.block_m = j.at("block_m").get<int>();
    c.block_n = j.at("block_n").get<int>();
    c.block_k = j.at("block_k").get<int>();
    c.warps_m = j.at("warps_m").get<int>();
    c.warps_n = j.at("warps_n").get<int>();
    c.stages = j.at("stages").get<int>();
    c.vec16 = j.at("vec16").get<bool>();
    return c;
  } catch (const nlohmann::json::exception& e) {
    throw Error(std::string("sm80 config: ") + e.what());
  }
}

int Sm80Config::shared_bytes() const { return stages * (block_m + block_n) * block_k * 2; }

int Sm80Config::accumulator_registers() const {
  return warp_tile_m() * warp_tile_n() / (acc == Accum::f32 ? 32 : 64);
}

int Sm80Config::register_estimate() const {
  if (threads() <= 0) return 0;
  const int fragments = warp_tile_m() / 16 * 4 + warp_tile_n() / 8 * 2;  // one k-step of A and B
  auto chunks_per_thread = [&](int rows_times_k) { return (rows_times_k / 8 + threads() - 1) / threads(); };
  const int chunks = chunks_per_thread(block_m * block_k) + chunks_per_thread(block_n * block_k);
  // ptxas keeps each chunk's global and shared addresses (about 3 registers) live across the main
  // loop; the scalar path also holds the next k-block's chunks (4 registers each) across the
  // mmas. NVRTC 13.0 spilled a one-warp 128x32x64 tile (40 chunks a thread) at 255 registers,
  // and gave a one-warp 16x128x64 tile (36 chunks) 254.
  const int loads = 3 * chunks + (vec16 ? 0 : 4 * chunks);
  // Per-lane ldmatrix offsets: one per k-step for A, and for B one per k-step or mma-tile pair.
  const int offsets = block_k / 16 * 3;
  return accumulator_registers() + fragments + loads + offsets + 40;
}

std::vector<std::string> Sm80Config::validity_problems() const {
  std::vector<std::string> p;
  auto need = [&](bool ok, const std::string& why) {
    if (!ok) p.push_back(why);
  };
  need(block_k == 32 || block_k == 64 || block_k == 128,
       "block_k must be 32, 64 or 128: shared rows of 4, 8 or 16 16-byte chunks (the swizzle needs a power of two) "
       "and whole 16-deep mma k-steps");
  need(block_m >= 16 && block_m <= 256 && block_m % 16 == 0, "block_m must be 16..256 in steps of 16 (mma.sync M is 16)");
  need(block_n >= 8 && block_n <= 256 && block_n % 8 == 0, "block_n must be 8..256 in steps of 8 (mma.sync N is 8)");
  need(layout == Layout::tn || power_of_two(block_n),
       "layout nn stores B as rows of block_n: block_n must be a power of two (the swizzle works on power-of-two rows)");
  const bool warps_ok = warps_m >= 1 && warps_n >= 1 && warps_m * warps_n <= 8;
  need(warps_ok, "1 to 8 warps (warps_m × warps_n)");
  if (warps_ok) {
    const bool split = block_m % warps_m == 0 && block_n % warps_n == 0;
    need(split, "warps_m must divide block_m and warps_n block_n");
    need(!split || (warp_tile_m() % 16 == 0 && warp_tile_n() % 8 == 0),
         "the warp tile " + std::to_string(warp_tile_m()) + "x" + std::to_string(warp_tile_n()) +
             " must be a multiple of 16x8 (the mma.sync tile)");
  }
  need(stages >= 2 && stages <= 8, "2..8 pipeline stages (a ring needs one stage filling while another is read)");
  need(vec16 || stages == 2,
       "the scalar (2-byte) path stages one k-block through registers: more than 2 stages only add shared memory");
  need(shared_bytes() <= kSm80MaxSharedBytes,
       "needs " + std::to_string(shared_bytes()) + " bytes of shared memory, more than the " +
           std::to_string(kSm80MaxSharedBytes) + " an A100 CTA can have");
  if (warps_ok)
    need(register_estimate() <= kSm80RegisterBudget,
         "about " + std::to_string(register_estimate()) + " registers per thread (" +
             std::to_string(accumulator_registers()) + " of them accumulators) exceed the budget of " +
             std::to_string(kSm80RegisterBudget) + ": use more warps or a smaller tile");
  return p;
}

std::vector<Sm80Config> sm80_config_space(Layout layout, Accum acc, const Sm80SpaceAxes& ax) {
  std::vector<Sm80Config> out;
  for (int bm : ax.block_m)
    for (int bn : ax.block_n)
      for (int bk : ax.block_k)
        for (auto [wm, wn] : ax.warps)
          for (bool v : ax.vec16)
            for (int s : ax.stages) {
              Sm80Config c;
              c.layout = layout;
              c.acc = acc;
              c.block_m = bm, c.block_n = bn, c.block_k = bk;
              c.warps_m = wm, c.warps_n = wn;
              c.stages = s;
              c.vec16 = v;
              if (!c.valid()) continue;
              // Left out of the space, though valid: warp tiles narrower than 16 in N (each 8-wide
              // mma column costs a whole A fragment load), and several warps of 16x16 each (two
              // mmas per three ldmatrix: more warps of that buy load instructions, not mma rate).
              if (c.warp_tile_n() < 16 || c.warp_tile_m() < 16) continue;
              if (c.warp_tile_m() * c.warp_tile_n() < 16 * 32 && c.warps_m * c.warps_n > 1) continue;
              out.push_back(c);
            }
  return out;
}

std::vector<Sm80Config> sm80_covering_sample(const std::vector<Sm80Config>& space, size_t count, uint64_t seed) {
  auto knobs = [](const Sm80Config& c) {
    return std::vector<std::string>{"layout=" + to_string(c.layout),
                                    "acc=" + to_string(c.acc),
                                    "bm=" + std::to_string(c.block_m),
                                    "bn=" + std::to_string(c.block_n),
                                    "bk=" + std::to_string(c.block_k),
                                    "w=" + std::to_string(c.warps_m) + "x" + std::to_string(c.warps_n),
                                    "s=" + std::to_string(c.stages),
                                    std::string("v16=") + (c.vec16 ? "1" : "0")};
  };
  return covering_sample_of(space, count, seed, knobs);
}

std::string sm80_jit_source(const Sm80Config& c, const ShapeConstants& constants) {
  const auto problems = c.validity_problems();
  if (!problems.empty()) throw Error("sm80 config " + c.name() + " is not valid: " + problems.front());
  auto b = [](bool v) { return v ? "true" : "false"; };
  std::ostringstream o;
  o << "// gemmforge JIT instantiation: " << c.name() << specialization_suffix(constants) << "\n"
    << "#include \"sm80/hgemm_mma.cuh\"\n"
    << "struct Knobs {\n"
    << "  static constexpr int kBlockM = " << c.block_m << ", kBlockN = " << c.block_n << ", kBlockK = " << c.block_k
    << ";\n"
    << "  static constexpr int kWarpsM = " << c.warps_m << ", kWarpsN = " << c.warps_n << ", kStages = " << c.stages
    << ";\n"
    << "  static constexpr bool kVec16 = " << b(c.vec16) << ", kF32Acc = " << b(c.acc == Accum::f32)
    << ", kBNMajor = " << b(c.layout == Layout::nn) << ";\n"
    << "};\n"
    << "using Traits = gemmforge::sm80::HgemmMmaTraits<Knobs>;\n"
    << "static_assert(Traits::kSmemBytes == " << c.shared_bytes() << ", \"host and kernel disagree on shared memory\");\n"
    << "static_assert(Traits::kThreads == " << c.threads() << ", \"host and kernel disagree on threads\");\n"
    // A minimum of one CTA per SM: without it ptxas trades registers for occupancy and spills
    // (NVRTC 13.0 spilled 32 bytes at 72 registers on a 64x64x64 tile of 4 warps).
    << "extern \"C\" __global__ void __launch_bounds__(Traits::kThreads, 1)\n"
    << kSm80JitKernelName
    << "(const gemmforge::ptx::u16* __restrict__ A, const gemmforge::ptx::u16* __restrict__ B,\n"
    << "    gemmforge::ptx::u16* __restrict__ C, int M, int N, int K) {\n"
    << "  gemmforge::sm80::hgemm_body<Traits>(A, B, C, " << kernel_dimension_arguments(constants) << ");\n"
    << "}\n";
  return o.str();
}

bool is_sm80_config_json(const nlohmann::json& j) {
  auto sm80_name = [](const nlohmann::json& n) { return n.is_string() && n.get<std::string>().rfind("sm80_", 0) == 0; };
  if (sm80_name(j)) return true;
  if (!j.is_object()) return false;
  if (auto f = j.find("family"); f != j.end()) return f->is_string() && f->get<std::string>() == "sm80";
  if (auto n = j.find("name"); n != j.end()) return sm80_name(*n);
  return false;
}

}  // namespace gemmforge
