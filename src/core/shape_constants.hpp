// JIT shape specialization (design.md section 4): one problem's M, N and K compiled into a kernel
// as constants, so its tile counts, loop bounds and edge tests fold at compile time. Such a cubin
// serves that one shape only, and every shape is another compile: the sweep builds it for its
// finalists, and it wins only by being measured faster than the same config built for any shape.
#pragma once
#include <optional>
#include <string>

#include "gemmforge/types.hpp"

namespace gemmforge {

// The shape a kernel is compiled for; nullopt: a kernel for any shape.
using ShapeConstants = std::optional<Shape>;

// "_at64x64x128" for a kernel compiled for 64x64x128, "" for one that takes any shape.
std::string specialization_suffix(const ShapeConstants&);

// What the JIT wrapper passes as the kernel body's M, N and K: its own run-time parameters
// ("M, N, K"), or the constants. swap_mn: the kernel computes Cᵀ (swap-AB), so its M is the
// caller's N. Throws Error for a dimension below 1 or beyond int indexing.
std::string kernel_dimension_arguments(const ShapeConstants&, bool swap_mn = false);

// Why a kernel compiled for `constants` cannot serve `shape`; empty when it can.
std::string why_not_specialized_for(const ShapeConstants& constants, const Shape& shape);

}  // namespace gemmforge
