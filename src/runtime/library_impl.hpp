// The runtime library (gemmforge/gemm.hpp) as an implementation the evaluator measures: every call
// goes through Handle::hgemm, exactly as a user's would, with the dispatch table of
// $GEMMFORGE_TABLE (or none). Registered as --impl gemmforge-lib, and as gemmforge-lib-measured
// with HandleOptions::measure_new_shapes on (shapes the table does not name are measured when
// their plan is made, as cuBLASLt-autotune measures every shape in its setup), and as the three
// replay settings below.
#pragma once
#include <string>

namespace gemmforge {

inline constexpr const char* kLibraryImplName = "gemmforge-lib";
inline constexpr const char* kMeasuringLibraryImplName = "gemmforge-lib-measured";
// The library with replays of repeated calls (HandleOptions::replay) off, on for every call but
// a PDL kernel's, and on for every call: beside gemmforge-lib (every call but a PDL kernel's
// back to back), what replaying gains and what it costs such kernels.
inline constexpr const char* kDirectLibraryImplName = "gemmforge-lib-direct";
inline constexpr const char* kExceptPdlLibraryImplName = "gemmforge-lib-except-pdl";
inline constexpr const char* kReplayAllLibraryImplName = "gemmforge-lib-replay-all";
void register_library_impl();

// Why measuring the library now would not measure its table: the table that $GEMMFORGE_TABLE (or
// the shipped one) names is missing, corrupt, or made for another GPU or other kernel sources, so
// every call would go to cuBLASLt under the library's name. Empty when a table is in use, or when
// it is switched off on purpose (GEMMFORGE_TABLE=none). Needs the GPU.
std::string library_table_problem();

}  // namespace gemmforge
