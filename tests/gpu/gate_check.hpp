// The correctness gate as `bench` runs it on one prepared candidate, for the kernel GPU tests:
// check, three more calls (as a timing loop makes), then the re-check with fresh inputs.
#pragma once
#include <gtest/gtest.h>

#include <string>

#include "eval/verify.hpp"

namespace gemmforge::testing {

// `what` names the candidate and shape in failure messages.
inline void expect_gate_passes_and_rechecks(DeviceContext& ctx, GemmImpl& k, ShapeBuffers& buf, Layout layout,
                                            Accum acc, const std::string& what) {
  CorrectnessGate gate(ctx, buf, acc, GateOptions{});
  const std::vector<Candidate> cands = {{&k, layout}};
  const Verdict v = gate.check(cands)[0];
  EXPECT_TRUE(v.passed()) << what << ": " << v.text();
  for (int i = 0; i < 3; ++i) k.run(buf.guarded());
  const Verdict again = gate.recheck_after_timing(cands)[0];
  EXPECT_TRUE(again.passed()) << what << ": " << again.text();
}

}  // namespace gemmforge::testing
