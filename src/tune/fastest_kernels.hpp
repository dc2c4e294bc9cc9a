// Our fastest kernel on the problems a table serves with cuBLASLt: the tune measured kernels of
// ours there that lost or tied, and the best of them is still several times faster than what
// cuBLASLt runs when TMA cannot take the rows (a staged call: session 33). The table keeps it
// beside the cuBLASLt entry (TableEntry::fastest) so staged calls of nearby shapes can use it.
#pragma once
#include "runtime/table.hpp"
#include "search/results_db.hpp"

namespace gemmforge::tune {

struct FastestAdded {
  size_t cublaslt_entries = 0;  // exact entries that name cuBLASLt
  size_t added = 0;             // of those, how many got a fastest kernel
  size_t no_decision = 0;       // the database decided nothing for the problem
  size_t none_generic = 0;      // its best and runner-up were sm80 or built for the one shape
};

// For every exact entry of `t` that names cuBLASLt, the first of its decision's best and
// runner-up that is a Hopper kernel built for any shape, with baseline / that kernel's time as
// its speedup (the final round's interleaved medians). `db` must be open in the table's
// environment: its decisions describe the kernels the table names. Entries that name a kernel
// are left as they are; an earlier fastest kernel is replaced.
FastestAdded add_fastest_kernels(Table& t, const ResultsDb& db);

}  // namespace gemmforge::tune
