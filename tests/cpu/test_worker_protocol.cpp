// The worker protocol: every request and reply survives a round trip through one line of text,
// and anything that is not a well-formed message is refused with a reason.
#include <gtest/gtest.h>

#include "sample_candidates.hpp"
#include "tune/worker_protocol.hpp"

namespace gemmforge::tune {
namespace {

KernelCandidate split_candidate() {
  KernelCandidate c = gemmforge::testing::split_hopper_candidate();
  c.knobs.group_m = 8;
  return c;
}

TEST(WorkerProtocol, RequestsRoundTrip) {
  const auto open = decode_request(encode_request(OpenShape{{77, 4095, 1000}, Accum::f16, 42}, 3));
  EXPECT_EQ(open.id, 3);
  const auto& o = std::get<OpenShape>(open.request);
  EXPECT_EQ(o.shape, (Shape{77, 4095, 1000}));
  EXPECT_EQ(o.acc, Accum::f16);
  EXPECT_EQ(o.seed, 42u);

  const auto measure = decode_request(encode_request(MeasureCandidate{Layout::nn, split_candidate(), "abc123"}, 4));
  const auto& m = std::get<MeasureCandidate>(measure.request);
  EXPECT_EQ(m.layout, Layout::nn);
  EXPECT_EQ(m.candidate, split_candidate());
  EXPECT_EQ(m.candidate.name(), split_candidate().name());
  EXPECT_EQ(m.cubin_key, "abc123");

  const auto base = decode_request(encode_request(MeasureBaseline{Layout::tn, "cublaslt-autotune"}, 5));
  EXPECT_EQ(std::get<MeasureBaseline>(base.request).impl, "cublaslt-autotune");

  CompareFinal c;
  c.layout = Layout::tn;
  c.rounds = 7;
  c.entries = {FinalEntry{split_candidate(), "k1", {}}, FinalEntry{std::nullopt, {}, "cublaslt-autotune"}};
  const auto cmp = decode_request(encode_request(c, 6));
  const auto& back = std::get<CompareFinal>(cmp.request);
  EXPECT_EQ(back.rounds, 7);
  ASSERT_EQ(back.entries.size(), 2u);
  EXPECT_EQ(back.entries[0].candidate, split_candidate());
  EXPECT_EQ(back.entries[0].cubin_key, "k1");
  EXPECT_EQ(back.entries[1].name(), "cublaslt-autotune");
  EXPECT_FALSE(back.entries[1].candidate.has_value());

  EXPECT_TRUE(std::holds_alternative<Quit>(decode_request(encode_request(Quit{}, 7)).request));
}

// Candidates of the sm80 family and builds for one shape travel like Hopper ones.
TEST(WorkerProtocol, CandidatesOfEitherFamilyAndShapeBuildsRoundTrip) {
  Sm80Config k;
  k.block_m = 32;
  k.warps_m = 1;
  const std::vector<KernelCandidate> kinds = {sm80_candidate(k), sm80_candidate(k).specialized_for({64, 64, 128}),
                                              split_candidate().specialized_for({77, 4095, 1000})};
  for (const auto& c : kinds) {
    const auto measure = decode_request(encode_request(MeasureCandidate{Layout::tn, c, "key"}, 8));
    EXPECT_EQ(std::get<MeasureCandidate>(measure.request).candidate, c) << c.name();
    CompareFinal cmp;
    cmp.entries = {FinalEntry{c, "k", {}}, FinalEntry{std::nullopt, {}, "cublaslt-autotune"}};
    const auto back = std::get<CompareFinal>(decode_request(encode_request(cmp, 9)).request);
    ASSERT_EQ(back.entries.size(), 2u);
    EXPECT_EQ(back.entries[0].candidate, c);
    EXPECT_EQ(back.entries[0].name(), c.name());
  }
  // An sm80 kernel with launch knobs is no candidate: the request is refused.
  nlohmann::json bad = nlohmann::json::parse(encode_request(MeasureCandidate{Layout::tn, sm80_candidate(k), "key"}, 10));
  bad["candidate"]["launch"] = {{"splits", 2}};
  EXPECT_THROW(decode_request(bad.dump()), Error);
}

TEST(WorkerProtocol, RepliesRoundTrip) {
  Reply hello;
  hello.environment = {{"gpu", "NVIDIA H200"}, {"sm_count", 132}};
  const Reply h = decode_reply(encode_reply(hello));
  EXPECT_EQ(h.status, "ok");
  EXPECT_EQ(h.environment.at("gpu"), "NVIDIA H200");
  EXPECT_EQ(h.protocol, kProtocolVersion);

  Reply r;
  r.id = 9;
  r.status = "fatal";
  r.why = "cudaErrorIllegalAddress: an illegal memory access was encountered\nsecond line";
  const Reply f = decode_reply(encode_reply(r));
  EXPECT_EQ(f.id, 9);
  EXPECT_EQ(f.status, "fatal");
  EXPECT_EQ(f.why, r.why);  // newlines inside a message stay inside the one line
  EXPECT_EQ(encode_reply(r).find('\n'), std::string::npos);

  Reply cmp;
  cmp.id = 10;
  EntryResult timed;
  timed.median_us = 100;
  timed.p25_us = 98;
  timed.p75_us = 104;
  timed.min_us = 97;
  timed.note = "sm_clock_mhz 1410, power_w 622";
  EntryResult rejected;
  rejected.verdict = "fail: 3 elements NaN/Inf or never written";
  cmp.results = {timed, rejected};
  cmp.note = "sm_clock_mhz 1410, power_w 622";
  const Reply c = decode_reply(encode_reply(cmp));
  ASSERT_EQ(c.results.size(), 2u);
  EXPECT_EQ(*c.results[0].median_us, 100);
  EXPECT_DOUBLE_EQ(c.results[0].spread(), 0.03);
  EXPECT_EQ(c.results[0].note, timed.note);
  EXPECT_EQ(c.results[1].verdict, rejected.verdict);
  EXPECT_FALSE(c.results[1].median_us.has_value());
  EXPECT_EQ(c.results[1].spread(), 0);
  EXPECT_EQ(c.note, cmp.note);

  Reply m;
  m.id = 11;
  m.us = 12.5;
  EXPECT_EQ(*decode_reply(encode_reply(m)).us, 12.5);
}

TEST(WorkerProtocol, MalformedMessagesAreRefusedWithAReason) {
  auto message = [](auto f) {
    try {
      f();
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message([] { decode_reply("Segmentation fault (core dumped)"); }).find("not a JSON object"), std::string::npos);
  EXPECT_NE(message([] { decode_reply("[1, 2]"); }).find("not a JSON object"), std::string::npos);
  EXPECT_NE(message([] { decode_reply(R"({"status": "ok"})"); }).find("malformed reply"), std::string::npos);
  EXPECT_NE(message([] { decode_reply(R"({"id": 1, "status": "maybe"})"); }).find("unknown status"), std::string::npos);
  EXPECT_NE(message([] { decode_request(R"({"id": 1, "op": "dance"})"); }).find("unknown op"), std::string::npos);
  EXPECT_NE(message([] { decode_request(R"({"id": 1, "op": "open", "M": 0, "N": 1, "K": 1, "acc": "f32"})"); })
                .find("at least 1"),
            std::string::npos);
  EXPECT_NE(message([] { decode_request(R"({"id": 1, "op": "measure", "layout": "tn"})"); }).find("malformed request"),
            std::string::npos);
  EXPECT_NE(message([] { decode_request(R"({"id": 1, "op": "baseline", "layout": "nt", "impl": "x"})"); })
                .find("layout"),
            std::string::npos);
}

}  // namespace
}  // namespace gemmforge::tune
