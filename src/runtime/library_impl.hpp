// The runtime library (gemmforge/gemm.hpp) as an implementation the evaluator measures: every call
// goes through Handle::hgemm, exactly as a user's would, with the dispatch table of
// $GEMMFORGE_TABLE (or none). Registered as --impl gemmforge-lib.
#pragma once

namespace gemmforge {

inline constexpr const char* kLibraryImplName = "gemmforge-lib";
void register_library_impl();

}  // namespace gemmforge
