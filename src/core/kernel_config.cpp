#include "core/kernel_config.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string_view>

#include "core/covering_sample.hpp"
#include "sm90/feed_size.cuh"      // the dynamic walk's shared memory, counted as the kernel lays it out
#include "sm90/work_division.cuh"  // stream-K arithmetic, shared with the kernel

namespace gemmforge {

static_assert(kMaxClusterSplits == sm90::kMaxClusterSplits, "host and kernel agree on the largest cluster");

namespace {

const char* mode_name(ConsumerMode m) {
  return m == ConsumerMode::cooperative ? "coop" : (m == ConsumerMode::pingpong ? "pingpong" : "ksplit");
}

// The config flags a name may end with, in the order name() writes them (from_name sets each).
constexpr std::array<std::string_view, 10> kConfigFlagSuffixes = {"mc", "tmastore", "swap", "fw",   "uw",
                                                                   "dw", "wn",       "pa",   "push", "lean"};

ConsumerMode parse_mode_name(const std::string& s) {
  if (s == "coop" || s == "cooperative") return ConsumerMode::cooperative;
  if (s == "pingpong") return ConsumerMode::pingpong;
  if (s == "ksplit") return ConsumerMode::ksplit;
  throw Error("kernel config: unknown consumer mode '" + s + "' (coop, pingpong or ksplit)");
}

// What no config can run with these knobs (launch_problem adds the config's own limits).
std::string knobs_problem(const LaunchKnobs& k) {
  if (k.splits < 1 || k.splits > kMaxSplits) return "splits must be 1.." + std::to_string(kMaxSplits);
  if (k.stream_k && k.splits > 1) return "stream-K and split-K exclude each other";
  if (k.stream_k && !k.persistent) return "stream-K deals iterations to a persistent grid";
  if (k.cluster_reduction) {
    if (k.splits < 2) return "a reduction inside a cluster needs split-K (splits >= 2)";
    if (k.splits > kMaxClusterSplits)
      return "a reduction inside a cluster takes at most " + std::to_string(kMaxClusterSplits) +
             " parts (a cluster's largest size)";
    if (k.persistent) return "a reduction inside a cluster gives each CTA one unit: launch it non-persistent";
  }
  return {};
}

// The workspace the kernel's reductions use (kernels/sm90/split_k.cuh): arrival and departure
// counters for every (reduced tile, consumer part), padded to 256 bytes, then `slots_per_tile`
// slots of partial sums for each of them.
size_t reduction_workspace_bytes(const KernelConfig& c, int64_t reduced_tiles, int64_t slots_per_tile) {
  const int64_t parts = reduced_tiles * c.tile_parts();
  const int64_t counter_words = (2 * parts + 63) / 64 * 64;
  const int64_t slot_bytes = int64_t(c.accumulator_registers()) * 128 * 4;
  return size_t(counter_words * 4 + parts * slots_per_tile * slot_bytes);
}

}  // namespace

std::string KernelConfig::name() const {
  std::ostringstream o;
  o << "sm90_" << to_string(layout) << "_" << to_string(acc) << "_" << block_m << "x" << block_n << "x" << block_k
    << "_s" << stages << "_c" << consumers << "_" << mode_name(mode) << "_" << cluster_m << "x" << cluster_n
    << (multicast ? "_mc" : "") << (tma_store ? "_tmastore" : "") << (swap_ab ? "_swap" : "") << (fast_walk ? "_fw" : "")
    << (uniform_warpgroup ? "_uw" : "") << (dynamic_walk ? "_dw" : "") << (walk_n ? "_wn" : "") << (parts_apart ? "_pa" : "") << (cluster_push ? "_push" : "")
    << (lean_cluster_sync ? "_lean" : "");
  return o.str();
}

nlohmann::json KernelConfig::to_json() const {
  nlohmann::json j = {{"family", "sm90"},       {"layout", to_string(layout)}, {"acc", to_string(acc)},
                      {"block_m", block_m},     {"block_n", block_n},          {"block_k", block_k},
                      {"stages", stages},       {"consumers", consumers},      {"mode", mode_name(mode)},
                      {"cluster_m", cluster_m}, {"cluster_n", cluster_n},      {"multicast", multicast},
                      {"tma_store", tma_store}, {"swap_ab", swap_ab}};
  // Written only when set, so the JSON of every config from before the knob stays as it was (the
  // results database and the tables key candidates by it).
  if (parts_apart) j["parts_apart"] = true;
  if (cluster_push) j["cluster_push"] = true;
  if (lean_cluster_sync) j["lean_cluster_sync"] = true;
  if (fast_walk) j["fast_walk"] = true;
  if (uniform_warpgroup) j["uniform_warpgroup"] = true;
  if (dynamic_walk) j["dynamic_walk"] = true;
  if (walk_n) j["walk_n"] = true;
  return j;
}

KernelConfig KernelConfig::from_json(const nlohmann::json& j) {
  try {
    KernelConfig c;
    c.layout = parse_layout(j.at("layout").get<std::string>());
    c.acc = parse_accum(j.at("acc").get<std::string>());
    c.block_m = j.at("block_m").get<int>();
    c.block_n = j.at("block_n").get<int>();
    c.block_k = j.value("block_k", 64);
    c.stages = j.at("stages").get<int>();
    c.consumers = j.at("consumers").get<int>();
    c.mode = parse_mode_name(j.value("mode", std::string("coop")));
    c.cluster_m = j.value("cluster_m", 1);
    c.cluster_n = j.value("cluster_n", 1);
    c.multicast = j.value("multicast", false);
    c.tma_store = j.value("tma_store", false);
    c.swap_ab = j.value("swap_ab", false);
    c.parts_apart = j.value("parts_apart", false);
    c.cluster_push = j.value("cluster_push", false);
    c.lean_cluster_sync = j.value("lean_cluster_sync", false);
    c.fast_walk = j.value("fast_walk", false);
    c.uniform_warpgroup = j.value("uniform_warpgroup", false);
    c.dynamic_walk = j.value("dynamic_walk", false);
    c.walk_n = j.value("walk_n", false);
    return c;
  } catch (const nlohmann::json::exception& e) {
    throw Error(std::string("kernel config: ") + e.what());
  }
}

KernelConfig KernelConfig::from_name(const std::string& name) {
  // sm90_<layout>_<acc>_<BM>x<BN>x<BK>_s<stages>_c<consumers>_<mode>_<CM>x<CN>[_mc][_tmastore][_swap][_fw][_uw][_dw][_wn][_pa][_push][_lean]
  std::vector<std::string> part;
  std::stringstream in(name);
  for (std::string p; std::getline(in, p, '_');) part.push_back(p);
  auto bad = [&](const std::string& what) { return Error("kernel config name '" + name + "': " + what); };
  if (part.size() < 8 || part[0] != "sm90") throw bad("expected sm90_<layout>_<acc>_<tile>_s<n>_c<n>_<mode>_<cluster>");
  auto ints = [&](const std::string& text, char sep, size_t count) {
    std::vector<int> v;
    std::stringstream t(text);
    for (std::string x; std::getline(t, x, sep);) {
      const auto n = parse_integer(x);
      if (!n || *n < 0 || *n > 4096) throw bad("'" + text + "' is not " + std::to_string(count) + " numbers");
      v.push_back(int(*n));
    }
    if (v.size() != count) throw bad("'" + text + "' is not " + std::to_string(count) + " numbers");
    return v;
  };
  KernelConfig c;
  c.layout = parse_layout(part[1]);
  c.acc = parse_accum(part[2]);
  const auto tile = ints(part[3], 'x', 3);
  c.block_m = tile[0], c.block_n = tile[1], c.block_k = tile[2];
  if (part[4].size() < 2 || part[4][0] != 's') throw bad("'" + part[4] + "' is not s<stages>");
  c.stages = ints(part[4].substr(1), 'x', 1)[0];
  if (part[5].size() < 2 || part[5][0] != 'c') throw bad("'" + part[5] + "' is not c<consumers>");
  c.consumers = ints(part[5].substr(1), 'x', 1)[0];
  c.mode = parse_mode_name(part[6]);
  const auto cluster = ints(part[7], 'x', 2);
  c.cluster_m = cluster[0], c.cluster_n = cluster[1];
  for (size_t i = 8; i < part.size(); ++i) {
    if (part[i] == "mc") c.multicast = true;
    else if (part[i] == "tmastore") c.tma_store = true;
    else if (part[i] == "swap") c.swap_ab = true;
    else if (part[i] == "pa") c.parts_apart = true;
    else if (part[i] == "push") c.cluster_push = true;
    else if (part[i] == "lean") c.lean_cluster_sync = true;
    else if (part[i] == "fw") c.fast_walk = true;
    else if (part[i] == "uw") c.uniform_warpgroup = true;
    else if (part[i] == "dw") c.dynamic_walk = true;
    else if (part[i] == "wn") c.walk_n = true;
    else throw bad("unknown suffix '" + part[i] + "'");
  }
  if (c.name() != name) throw bad("reads back as '" + c.name() + "'");
  return c;
}

int KernelConfig::wg_rows() const {
  return mode == ConsumerMode::cooperative ? block_m / std::max(consumers, 1) : block_m;
}

int KernelConfig::tile_parts() const { return mode == ConsumerMode::cooperative ? consumers : 1; }

int KernelConfig::epilogue_warpgroups() const { return mode == ConsumerMode::ksplit ? 1 : consumers; }

// kernels/sm90/hgemm_traits.cuh's ksplit_exchange_bytes: a 4-byte word per accumulator register of a
// warpgroup's 128 threads.
int KernelConfig::exchange_bytes() const {
  return mode == ConsumerMode::ksplit ? accumulator_registers() * 128 * 4 : 0;
}

int KernelConfig::epilogue_block_cols() const { return block_n % 64 == 0 ? 64 : (block_n % 32 == 0 ? 32 : 16); }

int KernelConfig::stage_ring_bytes() const { return stages * (block_m + block_n) * block_k * 2; }

int KernelConfig::shared_bytes_beside_epilogue() const {
  const int barriers = 2 * stages * 8 + 16;  // full and empty per stage, and split-K flags
  const int feed = dynamic_walk ? sm90::feed_shared_bytes() : 0;
  return 1024 /* 1024-byte alignment of the swizzled tiles */ + stage_ring_bytes() + exchange_bytes() + barriers + feed;
}

// One staging buffer: a consumer's rows of one column block of C, in fp16.
static int epilogue_buffer_bytes(const KernelConfig& c) { return c.wg_rows() * c.epilogue_block_cols() * 2; }

int KernelConfig::epilogue_buffers() const {
  // The whole sub-tile of a consumer if it has more than two column blocks and fits, else two
  // alternating blocks (kEpiBuffers in kernels/sm90/hgemm_traits.cuh).
  if (!tma_store) return 0;
  const int blocks = block_n / epilogue_block_cols();
  const bool whole_fits =
      shared_bytes_beside_epilogue() + epilogue_warpgroups() * blocks * epilogue_buffer_bytes(*this) <= kMaxSharedBytesPerCta;
  return blocks > 2 && whole_fits ? blocks : 2;
}

int KernelConfig::epilogue_store_rows() const {
  // One storing warpgroup with two alternating buffers: each warp stores its own 16-row slices
  // (kEpiPerWarp in kernels/sm90/hgemm_traits.cuh).
  return tma_store && epilogue_buffers() == 2 && epilogue_warpgroups() == 1 ? 16 : wg_rows();
}

int KernelConfig::shared_bytes() const {
  return shared_bytes_beside_epilogue() + epilogue_warpgroups() * epilogue_buffers() * epilogue_buffer_bytes(*this) +
         (cluster_push ? cluster_push_bytes(*this) : 0);
}

int KernelConfig::accumulator_registers() const {
  return wg_rows() / 64 * block_n / (acc == Accum::f32 ? 2 : 4);
}

std::string LaunchKnobs::suffix() const {
  std::string s;
  if (group_m > 0) s += "_g" + std::to_string(group_m);
  if (splits > 1) s += "_k" + std::to_string(splits);
  if (stream_k) s += "_sk";
  if (!persistent) s += "_np";
  if (pdl) s += "_pdl";
  if (!sliced_reduction && (splits > 1 || stream_k) && !cluster_reduction) s += "_lastsum";
  if (cluster_reduction) s += "_dsm";
  return s;
}

nlohmann::json LaunchKnobs::to_json() const {
  return {{"persistent", persistent}, {"group_m", group_m}, {"splits", splits}, {"stream_k", stream_k}, {"pdl", pdl},
          {"sliced_reduction", sliced_reduction}, {"cluster_reduction", cluster_reduction}};
}

LaunchKnobs LaunchKnobs::from_json(const nlohmann::json& j) {
  try {
    LaunchKnobs k;
    k.persistent = j.value("persistent", true);
    k.group_m = j.value("group_m", 0);
    k.splits = j.value("splits", 1);
    k.stream_k = j.value("stream_k", false);
    k.pdl = j.value("pdl", false);
    k.sliced_reduction = j.value("sliced_reduction", true);
    k.cluster_reduction = j.value("cluster_reduction", false);
    if (k.group_m < 0) throw Error("launch knobs: group_m must be >= 0 (0 = automatic)");
    if (auto why = knobs_problem(k); !why.empty()) throw Error("launch knobs: " + why);
    return k;
  } catch (const nlohmann::json::exception& e) {
    throw Error(std::string("launch knobs: ") + e.what());
  }
}

LaunchKnobs LaunchKnobs::from_suffix(const std::string& suffix) {
  auto bad = [&](const std::string& what) { return Error("launch-knob suffix '" + suffix + "': " + what); };
  LaunchKnobs k;
  bool lastsum = false;
  std::stringstream in(suffix);
  std::string token;
  if (!suffix.empty() && (!std::getline(in, token, '_') || !token.empty())) throw bad("must start with '_'");
  while (std::getline(in, token, '_')) {
    auto number = [&](size_t from) {
      const auto n = parse_integer(token.substr(from));
      if (!n || *n < 1 || *n > 65536) throw bad("'" + token + "' has no positive count");
      return int(*n);
    };
    if (token == "sk") k.stream_k = true;
    else if (token == "np") k.persistent = false;
    else if (token == "pdl") k.pdl = true;
    else if (token == "lastsum") lastsum = true;
    else if (token == "dsm") k.cluster_reduction = true;
    else if (token.size() > 1 && token[0] == 'g') k.group_m = number(1);
    else if (token.size() > 1 && token[0] == 'k') k.splits = number(1);
    else throw bad("unknown part '" + token + "'");
  }
  // suffix() writes "_lastsum" only where it matters: a sum through global memory.
  k.sliced_reduction = !lastsum;
  if (auto why = knobs_problem(k); !why.empty()) throw bad(why);
  if (k.suffix() != suffix) throw bad("reads back as '" + k.suffix() + "'");
  return k;
}

std::pair<KernelConfig, LaunchKnobs> parse_hopper_candidate_name(const std::string& name) {
  // The config's name is its first eight '_'-separated parts and its own flags
  // (kConfigFlagSuffixes); whatever follows is the launch-knob suffix.
  size_t at = 0;
  for (int part = 0; part < 8 && at != std::string::npos; ++part) at = name.find('_', at + (part > 0 ? 1 : 0));
  while (at != std::string::npos) {
    const size_t next = name.find('_', at + 1);
    const std::string part = name.substr(at + 1, next == std::string::npos ? std::string::npos : next - at - 1);
    if (std::find(kConfigFlagSuffixes.begin(), kConfigFlagSuffixes.end(), part) == kConfigFlagSuffixes.end()) break;
    at = next;
  }
  const std::string config = at == std::string::npos ? name : name.substr(0, at);
  return {KernelConfig::from_name(config), LaunchKnobs::from_suffix(at == std::string::npos ? "" : name.substr(at))};
}

int effective_splits(const KernelConfig& c, int64_t K, int splits) {
  const int64_t k_blocks = (K + c.block_k - 1) / c.block_k;
  return int(std::max<int64_t>(1, std::min<int64_t>(splits, k_blocks)));
}

bool walks_dynamically(const KernelConfig& c, const LaunchKnobs& knobs, int splits) {
  return c.dynamic_walk && knobs.persistent && splits == 1 && !knobs.stream_k && !knobs.cluster_reduction;
}

size_t splitk_workspace_bytes(const KernelConfig& c, int64_t M, int64_t N, int64_t K, int splits) {
  const int s = effective_splits(c, K, splits);
  if (s <= 1) return 0;
  if (c.swap_ab) std::swap(M, N);  // the kernel's rows are C's columns
  // Every CTA tile may be reduced, padded to whole cluster tiles as the kernel pads them.
  const int64_t tiles_m = (M + int64_t(c.block_m) * c.cluster_m - 1) / (int64_t(c.block_m) * c.cluster_m) * c.cluster_m;
  const int64_t tiles_n = (N + int64_t(c.block_n) * c.cluster_n - 1) / (int64_t(c.block_n) * c.cluster_n) * c.cluster_n;
  return reduction_workspace_bytes(c, tiles_m * tiles_n, s);
}

size_t streamk_workspace_bytes(const KernelConfig& c, int64_t M, int64_t N, int64_t K, int ctas) {
  if (c.swap_ab) std::swap(M, N);
  const int64_t tiles = ((M + c.block_m - 1) / c.block_m) * ((N + c.block_n - 1) / c.block_n);
  const int k_blocks = int((K + c.block_k - 1) / c.block_k);
  const auto plan = sm90::StreamKPlan::make(tiles, k_blocks, ctas);  // the kernel's own arithmetic
  if (plan.sk_tiles == 0 || plan.max_parts <= 1) return 0;
  return reduction_workspace_bytes(c, plan.sk_tiles, plan.max_parts);  // only the left-over tiles
}

namespace {
// The launches the config knobs built for one kind of launch only serve: parts apart a split
// summed through global memory, cluster_push a split summed inside a cluster.
bool sums_parts_apart(const LaunchKnobs& k) { return k.splits >= 2 && !k.cluster_reduction; }
bool pushes_cluster_sums(const LaunchKnobs& k) { return k.cluster_reduction; }
}  // namespace

std::string launch_problem(const KernelConfig& c, const LaunchKnobs& k) {
  if (auto why = knobs_problem(k); !why.empty()) return why;
  if (k.stream_k && c.cluster_m * c.cluster_n > 1) return "stream-K shares tiles between CTAs, not between clusters";
  if (k.cluster_reduction) {
    if (c.cluster_m * c.cluster_n > 1) return "a reduction inside a cluster runs the cluster along K: the config's cluster must be 1x1";
    if (c.stage_ring_bytes() < cluster_reduction_bytes(c))
      return "a reduction inside a cluster writes " + std::to_string(cluster_reduction_bytes(c)) +
             " bytes of partial sums over the stage ring, which holds " + std::to_string(c.stage_ring_bytes());
  }
  if (c.cluster_push && !pushes_cluster_sums(k))
    return "a pushed in-cluster sum is built for launches whose parts are summed inside a cluster (else it builds "
           "a second cubin for the same launch)";
  if (c.parts_apart && !sums_parts_apart(k))
    return "parts apart orders a split tile's parts summed through global memory: it needs splits >= 2 and no "
           "reduction inside a cluster (else it builds a second cubin for the same launch)";
  return {};
}

int cluster_push_bytes(const KernelConfig& c) {
  // kernels/sm90/split_k.cuh, SplitK::push_bytes: the mbarrier and padding, then a slot for every
  // pair of the tile and, for the rounding of an uneven cut, kMaxClusterSplits more.
  const int pairs = c.accumulator_registers() / 2;
  return 16 + (pairs * 128 + kMaxClusterSplits) * 8;
}

int cluster_reduction_bytes(const KernelConfig& c) {
  return c.tile_parts() * c.accumulator_registers() * 128 * 4;  // kernels/sm90/split_k.cuh's slots
}

LaunchKnobs cluster_reduced(LaunchKnobs split) {
  split.cluster_reduction = true;
  split.persistent = false;
  split.stream_k = false;
  split.splits = std::min(split.splits, kMaxClusterSplits);
  return split;
}

LaunchKnobs knobs_for_shape(const KernelConfig& c, LaunchKnobs tuned, int64_t M, int64_t N, int64_t K, const Residency& r) {
  if (tuned.splits > 1) {
    tuned.splits = auto_splits(c, M, N, K, r);
    if (tuned.cluster_reduction) {
      if (tuned.splits > 1) tuned = cluster_reduced(tuned);
      else tuned.cluster_reduction = false, tuned.persistent = true;  // the tiles fill the GPU: an ordinary launch
    }
  }
  return tuned;
}

KernelConfig config_for_launch(KernelConfig c, const LaunchKnobs& k) {
  if (!sums_parts_apart(k)) c.parts_apart = false;
  if (!pushes_cluster_sums(k)) c.cluster_push = false;
  return c;
}

int auto_splits(const KernelConfig& c, int64_t M, int64_t N, int64_t K, const Residency& r) {
  // In cluster tiles, as the kernel pads them (a 2x2 cluster over 3x3 tiles runs 4 clusters).
  const int64_t tiles = cluster_tiles(c, M, N);
  const int64_t resident = r.clusters_of(c.cluster_m * c.cluster_n);
  if (tiles >= resident) return 1;
  const int64_t k_blocks = (K + c.block_k - 1) / c.block_k;
  // The most parts that still run in one wave: one part more starts a second wave that a few
  // units run alone (16 tiles split 9 ways: 144 units on 132 SMs take two rounds of K/9, 1.8x the
  // time of 8 parts in one; session 10 found such launches at 0.50-0.55x of cuBLASLt, tune/).
  const int64_t fill = resident / tiles;
  return int(std::max<int64_t>(1, std::min<int64_t>({fill, k_blocks / kMinSplitKBlocks, kMaxSplits})));
}

int64_t cluster_tiles(const KernelConfig& c, int64_t M, int64_t N) {
  if (c.swap_ab) std::swap(M, N);
  const int64_t tile_h = int64_t(c.block_m) * c.cluster_m, tile_w = int64_t(c.block_n) * c.cluster_n;
  return ((M + tile_h - 1) / tile_h) * ((N + tile_w - 1) / tile_w);
}

// Cluster-tile rows of a grid over M rows, at least one.
static int64_t tile_rows(const KernelConfig& c, int64_t M) {
  const int64_t tile_h = int64_t(c.block_m) * c.cluster_m;
  return std::max<int64_t>(1, (M + tile_h - 1) / tile_h);
}

// The walk along N is the default walk of the transposed grid: tile height and width swap.
static KernelConfig transposed(KernelConfig c) {
  std::swap(c.block_m, c.block_n);
  std::swap(c.cluster_m, c.cluster_n);
  return c;
}

int auto_group_m(const KernelConfig& c, int resident_clusters, int64_t M) {
  const double tile_h = double(c.block_m) * c.cluster_m, tile_w = double(c.block_n) * c.cluster_n;
  const double rows = std::sqrt(std::max(1, resident_clusters) * tile_w / tile_h);
  return int(std::clamp<int64_t>(std::llround(rows), 1, tile_rows(c, M)));
}

int auto_group(const KernelConfig& c, int resident_clusters, int64_t M, int64_t N) {
  return c.walk_n ? auto_group_m(transposed(c), resident_clusters, N) : auto_group_m(c, resident_clusters, M);
}

int launch_group(const KernelConfig& c, int group, int resident_clusters, int64_t M, int64_t N) {
  if (group <= 0) return auto_group(c, resident_clusters, M, N);
  return int(std::min<int64_t>(group, c.walk_n ? tile_rows(transposed(c), N) : tile_rows(c, M)));
}

std::vector<std::string> validity_problems(const KernelConfig& c) {
  std::vector<std::string> p;
  auto need = [&](bool ok, const std::string& why) {
    if (!ok) p.push_back(why);
  };
  need(c.block_k == 64, "block_k must be 64: one 128-byte swizzle row of fp16 per stage");
  need(c.block_n >= 8 && c.block_n <= 256 && c.block_n % 8 == 0, "block_n must be 8..256 in steps of 8 (wgmma N)");
  need(c.block_m >= 64 && c.block_m <= 256 && c.block_m % 64 == 0,
       "block_m must be 64..256 in steps of 64 (wgmma M is 64; a TMA box side is at most 256)");
  need(c.consumers == 1 || c.consumers == 2, "1 or 2 consumer warpgroups");
  if (c.mode == ConsumerMode::cooperative && c.consumers > 0)
    need(c.block_m % (64 * c.consumers) == 0, "cooperative consumers split block_m into whole 64-row wgmma tiles");
  need(c.mode != ConsumerMode::pingpong || c.consumers == 2, "ping-pong alternates tiles between 2 consumers");
  need(c.mode != ConsumerMode::ksplit || c.consumers == 2, "ksplit alternates k-blocks between 2 consumers");
  need(c.mode != ConsumerMode::ksplit || c.stages % 2 == 0,
       "ksplit gives each consumer every other stage of the ring: an even number of stages (an odd ring would "
       "hand a stage to both, and one could wait on a phase the other has not yet seen complete)");
  need(c.mode != ConsumerMode::ksplit || c.stages >= 4,
       "ksplit needs at least 4 stages: a consumer frees its stage only once it has waited for its next one (one "
       "wgmma group in flight), so it must own two (with two stages in all each would wait on its own stage "
       "forever)");
  // No fixed upper bound: the kernel works at any depth and shared memory caps it (a 64x32 tile
  // holds 18 stages). Deeper than 8 measured level on skinny shapes (bench/NOTES.md, session 36).
  need(c.stages >= 2, "at least 2 pipeline stages");
  need(c.shared_bytes() <= kMaxSharedBytesPerCta,
       "needs " + std::to_string(c.shared_bytes()) + " bytes of shared memory, more than the 232448 a CTA can have");
  const bool f32 = c.acc == Accum::f32;
  const int budget = c.tma_store ? (f32 ? kTmaStoreAccumulatorBudgetF32 : kTmaStoreAccumulatorBudgetF16)
                                 : (f32 ? kConsumerAccumulatorBudgetF32 : kConsumerAccumulatorBudgetF16);
  need(c.accumulator_registers() <= budget,
       std::to_string(c.accumulator_registers()) + " accumulator registers per consumer thread exceed the budget of " +
           std::to_string(budget) + (c.tma_store ? " with the TMA-store epilogue" : "") +
           " (consumers get 232-240 registers in all)");
  auto side = [](int v) { return v == 1 || v == 2 || v == 4 || v == 8; };
  need(side(c.cluster_m) && side(c.cluster_n) && c.cluster_m * c.cluster_n <= kMaxClusterCtas,
       "cluster sides of 1, 2, 4 or 8 CTAs, at most " + std::to_string(kMaxClusterCtas) +
           " in all (the portable cluster size)");
  need(!c.multicast || c.cluster_m * c.cluster_n > 1, "multicast needs a cluster of more than one CTA");
  need(c.multicast || c.cluster_m * c.cluster_n == 1,
       "a cluster without multicast shares nothing between its CTAs: turn multicast on or use 1x1");
  need(!c.lean_cluster_sync || c.multicast,
       "lean cluster sync changes only how a multicast cluster's CTAs meet: without multicast it would build the "
       "same kernel under a second name");
  need(!c.multicast || c.cluster_m == 1 || c.layout == Layout::nn || c.block_n % (8 * c.cluster_m) == 0,
       "multicast of B splits its tile among the cluster's " + std::to_string(c.cluster_m) +
           " CTAs along M in whole 8-row swizzle atoms: block_n must be a multiple of " + std::to_string(8 * c.cluster_m));
  need(!c.tma_store || c.block_n % 16 == 0,
       "the TMA-store epilogue writes column blocks of 16, 32 or 64: block_n must be a multiple of 16");
  need(c.layout == Layout::tn || c.block_n % 64 == 0,
       "layout nn loads B in 64-column blocks (N-major, 128-byte swizzle): block_n must be a multiple of 64");
  need(!c.swap_ab || c.layout == Layout::tn,
       "swap-AB needs both operands K-major (layout tn): in nn, B would be an N-major A operand");
  need(!c.swap_ab || !c.tma_store, "swap-AB stores C transposed, which a TMA store of the tile cannot do");
  need(!c.swap_ab || c.block_n <= kMaxSwapBlockN,
       "swap-AB is for a small M on the tile's block_n (at most " + std::to_string(kMaxSwapBlockN) + ")");
  need(!c.cluster_push || (c.consumers == 1 && c.mode == ConsumerMode::cooperative),
       "a pushed in-cluster sum is built for one consumer warpgroup (cooperative, c1)");
  need(!c.cluster_push || c.cluster_m * c.cluster_n == 1,
       "a pushed in-cluster sum runs its cluster along K: the config's cluster must be 1x1");
  return p;
}

KernelConfig with_space_knobs(KernelConfig c) {
  c.lean_cluster_sync = c.multicast;  // 2% faster on 1x2 kernels, the gate passes (bench/NOTES.md, session 39)
  // The fast walk: its builds pass the GPU tests (session 41), 1-2% faster on cooperative tiles
  // (session 31), 0.992x of the plain builds over 538 tuned finalists, short launches too (session 42).
  c.fast_walk = true;
  // Not the uniform warpgroup index (KernelConfig::uniform_warpgroup): faster where measured, but
  // 12 of the covering sample's 100 configs spill with it (bench/NOTES.md, session 43).
  return c;
}

std::vector<KernelConfig> config_space(Layout layout, Accum acc, const ConfigSpaceAxes& ax) {
  std::vector<KernelConfig> out;
  for (int bm : ax.block_m)
    for (int bn : ax.block_n)
      for (int s : ax.stages)
        for (int c : ax.consumers)
          for (ConsumerMode m : ax.modes)
            for (auto [cm, cn] : ax.clusters)
              for (bool mc : ax.multicast)
                for (bool ts : ax.tma_store)
                  for (bool swap : ax.swap_ab) {
                  KernelConfig k;
                  k.layout = layout;
                  k.acc = acc;
                  k.block_m = bm;
                  k.block_n = bn;
                  k.stages = s;
                  k.consumers = c;
                  k.mode = m;
                  k.cluster_m = cm;
                  k.cluster_n = cn;
                  k.multicast = mc;
                  k.tma_store = ts;
                  k.swap_ab = swap;
                  k = with_space_knobs(k);
                  if (is_valid(k)) out.push_back(k);
                }
  return out;
}

std::vector<KernelConfig> covering_sample(const std::vector<KernelConfig>& space, size_t count, uint64_t seed) {
  auto knobs = [](const KernelConfig& c) {
    return std::vector<std::string>{
        "layout=" + to_string(c.layout), "acc=" + to_string(c.acc),       "bm=" + std::to_string(c.block_m), "bn=" + std::to_string(c.block_n),
        "s=" + std::to_string(c.stages), "c=" + std::to_string(c.consumers), std::string("mode=") + mode_name(c.mode),
        "cl=" + std::to_string(c.cluster_m) + "x" + std::to_string(c.cluster_n),
        std::string("mc=") + (c.multicast ? "1" : "0"), std::string("ts=") + (c.tma_store ? "1" : "0"),
        std::string("swap=") + (c.swap_ab ? "1" : "0")};
  };
  return covering_sample_of(space, count, seed, knobs);
}

std::string jit_source(const KernelConfig& c, const ShapeConstants& constants) {
  const auto problems = validity_problems(c);
  if (!problems.empty()) throw Error("kernel config " + c.name() + " is not valid: " + problems.front());
  std::ostringstream o;
  auto b = [](bool v) { return v ? "true" : "false"; };
  o << "// gemmforge JIT instantiation: " << c.name() << specialization_suffix(constants) << "\n"
    << "#include \"sm90/hgemm_ws.cuh\"\n"
    << "struct Knobs {\n"
    << "  static constexpr int kBlockM = " << c.block_m << ", kBlockN = " << c.block_n << ", kStages = " << c.stages
    << ", kConsumers = " << c.consumers << ";\n"
    << "  static constexpr bool kPingPong = " << b(c.mode == ConsumerMode::pingpong) << ";\n"
    << (c.mode == ConsumerMode::ksplit ? "  static constexpr bool kKSplit = true;\n" : "")  // absent: false (optional_knobs.cuh)
    << "  static constexpr int kClusterM = " << c.cluster_m << ", kClusterN = " << c.cluster_n << ";\n"
    << "  static constexpr bool kMulticast = " << b(c.multicast) << ", kTmaStore = " << b(c.tma_store)
    << ", kF32Acc = " << b(c.acc == Accum::f32) << ", kBNMajor = " << b(c.layout == Layout::nn)
    << ", kSwapAB = " << b(c.swap_ab) << ";\n"
    << (c.parts_apart ? "  static constexpr bool kPartsApart = true;\n" : "")  // absent: false (optional_knobs.cuh)
    << (c.cluster_push ? "  static constexpr bool kClusterPush = true;\n" : "")  // absent: false (optional_knobs.cuh)
    << (c.lean_cluster_sync ? "  static constexpr bool kLeanClusterSync = true;\n" : "")
    << (c.fast_walk ? "  static constexpr bool kFastWalk = true;\n" : "")
    << (c.uniform_warpgroup ? "  static constexpr bool kUniformWarpgroup = true;\n" : "")
    << (c.dynamic_walk ? "  static constexpr bool kDynamicWalk = true;\n" : "")
    << (c.walk_n ? "  static constexpr bool kWalkN = true;\n" : "")
    << "};\n"
    << "using Traits = gemmforge::sm90::HgemmTraits<Knobs>;\n"
    << "static_assert(Traits::kSmemBytes"
    << (c.cluster_push ? " + gemmforge::sm90::SplitK<Traits>::push_bytes()" : "") << " == " << c.shared_bytes()
    << ", \"host and kernel disagree on shared memory\");\n"
    << "static_assert(Traits::kEpiStoreRows == " << c.epilogue_store_rows()
    << ", \"host and kernel disagree on the rows of one TMA store (the C map's box)\");\n"
    << "extern \"C\" __global__ void __launch_bounds__(Traits::kThreads, 1)\n"
    << kJitKernelName
    << "(const __grid_constant__ gemmforge::ptx::TensorMap a, const __grid_constant__ gemmforge::ptx::TensorMap b,\n"
    << "    const __grid_constant__ gemmforge::ptx::TensorMap c, gemmforge::ptx::u16* C, int M, int N, int K,\n"
    << "    int group_m, int splits, int flags, unsigned* workspace) {\n"
    << "  gemmforge::sm90::hgemm_body<Traits>(a, b, c, C, " << kernel_dimension_arguments(constants, c.swap_ab)
    << ", group_m, splits, flags, workspace);\n"
    << "}\n";
  return o.str();
}

}  // namespace gemmforge
