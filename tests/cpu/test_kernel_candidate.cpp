// The tuner's candidate of either family: names that tell every kind apart, a JSON round trip for
// each kind, the Hopper-only tuner's JSON still read, bad JSON refused, and how a candidate
// tuned on one shape launches on another.
#include <gtest/gtest.h>

#include "core/kernel_candidate.hpp"
#include "sample_candidates.hpp"

namespace gemmforge {
namespace {

KernelCandidate hopper_split() {
  KernelCandidate c = testing::split_hopper_candidate();
  c.knobs.pdl = true;
  return c;
}

Sm80Config small_sm80() { return testing::small_sm80_config(64); }

TEST(KernelCandidate, EveryKindRoundTripsThroughJson) {
  const Shape s{64, 96, 128};
  const std::vector<KernelCandidate> kinds = {hopper_split(), hopper_split().specialized_for(s),
                                              sm80_candidate(small_sm80()),
                                              sm80_candidate(small_sm80()).specialized_for(s)};
  for (const auto& c : kinds) {
    const KernelCandidate back = KernelCandidate::from_json(nlohmann::json::parse(c.to_json().dump()));
    EXPECT_EQ(back, c) << c.to_json().dump();
    EXPECT_EQ(back.name(), c.name());
  }
}

TEST(KernelCandidate, NamesTellTheFamiliesAndBuildsApart) {
  const Shape s{64, 96, 128};
  const KernelCandidate h = hopper_split(), hs = h.specialized_for(s);
  const KernelCandidate a = sm80_candidate(small_sm80()), as = a.specialized_for(s);
  EXPECT_EQ(h.name(), h.config.name() + "_k4_pdl");
  EXPECT_EQ(hs.name(), h.name() + "_at64x96x128");
  EXPECT_EQ(a.name(), small_sm80().name());
  EXPECT_EQ(as.name(), small_sm80().name() + "_at64x96x128");
  // Launch knobs do not change the cubin; the shape a kernel is built for does.
  EXPECT_EQ(h.build_name(), h.config.name());
  EXPECT_EQ(hs.build_name(), h.config.name() + "_at64x96x128");
  EXPECT_EQ(as.build_name(), as.name());
  EXPECT_TRUE(hs.specialized());
  EXPECT_FALSE(h.specialized());
  EXPECT_EQ(hs.generic(), h);
  EXPECT_EQ(as.generic(), a);
  EXPECT_TRUE(h.hopper() && !h.sm80_config());
  EXPECT_TRUE(a.sm80_config() && !a.hopper());
  EXPECT_EQ(a.layout(), small_sm80().layout);
  EXPECT_NE(a, sm80_candidate(Sm80Config{}));
}

TEST(KernelCandidate, TheHopperOnlyTunersJsonStillReadsAsAGenericHopperCandidate) {
  const KernelCandidate h = hopper_split();
  const nlohmann::json old = {{"config", h.config.to_json()}, {"launch", h.knobs.to_json()}};
  EXPECT_EQ(KernelCandidate::from_json(old), h);
  EXPECT_EQ(KernelCandidate::from_json(nlohmann::json{{"config", h.config.to_json()}}),
            (KernelCandidate{h.config, LaunchKnobs{}}));
  // A Hopper candidate's JSON is the old one: what an older database holds reads the same.
  EXPECT_EQ(h.to_json(), old);
}

TEST(KernelCandidate, BadJsonIsRefusedWithAReason) {
  const auto sm80 = sm80_candidate(small_sm80()).to_json();
  auto with_launch = sm80;
  with_launch["launch"] = LaunchKnobs{}.to_json();
  auto zero_dim = hopper_split().specialized_for({64, 96, 128}).to_json();
  zero_dim["built_for"]["K"] = 0;
  auto no_dim = hopper_split().specialized_for({64, 96, 128}).to_json();
  no_dim["built_for"].erase("N");
  auto bad_field = sm80;
  bad_field["config"]["block_k"] = "wide";
  for (const nlohmann::json& bad :
       {with_launch, zero_dim, no_dim, bad_field, nlohmann::json::array(), nlohmann::json{{"launch", nullptr}},
        nlohmann::json{{"config", "sm80_tn_f32_nonsense"}}}) {
    EXPECT_THROW(KernelCandidate::from_json(bad), Error) << bad.dump();
  }
  try {
    KernelCandidate::from_json(with_launch);
    ADD_FAILURE() << "an sm80 candidate took launch knobs";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("no launch knobs"), std::string::npos) << e.what();
  }
}

TEST(KernelCandidate, LaunchedOnAnotherShapeRecountsSplitKForHopperOnly) {
  KernelCandidate h;
  h.config.block_m = 128;
  h.config.block_n = 128;
  h.knobs.splits = 8;
  const Shape big{8192, 8192, 4096}, tall{256, 256, 16384};
  EXPECT_EQ(launched_on(h, big, 132).knobs.splits, auto_splits(h.config, big.M, big.N, big.K, 132));
  EXPECT_EQ(launched_on(h, tall, 132).knobs.splits, auto_splits(h.config, tall.M, tall.N, tall.K, 132));
  const KernelCandidate a = sm80_candidate(small_sm80());
  EXPECT_EQ(launched_on(a, big, 132), a);
  EXPECT_THROW(launched_on(a.specialized_for(tall), big, 132), Error);
}

}  // namespace
}  // namespace gemmforge
