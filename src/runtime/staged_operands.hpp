// The copies of a staged call (core/staging.hpp): the operands TMA cannot take are copied, on the
// call's stream, into buffers whose rows are padded to 16 bytes; the aligned call runs on those;
// C is copied back. Every copy is an ordinary stream operation (a 2-D memcpy), so a staged call
// can be captured in a CUDA graph like any other.
#pragma once
#include <cuda_runtime_api.h>

#include "core/staging.hpp"
#include "eval/buffers.hpp"

namespace gemmforge {

class StagedOperands {
 public:
  // The staged copies of this problem laid out in `buffer` (Staging::layout_of; at least
  // staged_bytes() long, 256-byte aligned), which the caller owns and keeps alive.
  StagedOperands(const Staging&, const Shape&, Layout, void* buffer);

  // The operands the aligned call takes: the staged copies where copied, the caller's elsewhere.
  Operands operands_for(const Operands& caller) const;
  // Enqueues the copies of the caller's A and B that the staging names.
  void copy_in(const Operands& caller, cudaStream_t) const;
  // Enqueues the copy of the staged C' into the caller's C (when C is staged).
  void copy_out(__half* caller_c, cudaStream_t) const;
  // The whole staged call on `stream`: the copies in, `call` on the staged operands, the copy out.
  template <class Call>
  void run(const Operands& caller, cudaStream_t stream, Call&& call) const {
    copy_in(caller, stream);
    call(operands_for(caller), stream);
    copy_out(caller.C, stream);
  }

 private:
  Staging staging_;
  Shape shape_;
  Layout layout_;
  __half *a_ = nullptr, *b_ = nullptr, *c_ = nullptr;
};

}  // namespace gemmforge
