#pragma once
// reprod_log's own comparison rules, for `tipc-run diff --compat` and `acceptance --compat`.
// reprod_log 1.0.1's ReprodDiffHelper is silent or wrong in four places where tipc-run's
// default (align::DiffRules) is strict (and one where the digits of a mean depend on the
// storage order):
//
//   situation                     strict (default)          reprod_log
//   NaN statistic                 fails                     passes: NaN > threshold is False
//   nested key only in file 2     error naming the key      ignored: it walks file 1's keys
//   nothing compared              error                     passes: no key failed
//   integer overflow              exact |a - b|             wraps like numpy's int arithmetic
//   mean of a Fortran-order pair  summed in C order         summed in memory order (last digits)
//
// and it says nothing of what it did silently (transposing, broadcasting), nor why a key failed.
#include "align/checks/diff.h"

namespace tipc::compat {

align::DiffRules reprod_log_diff_rules();

// The one choice: reprod_log's rules when `reprod_log` (--compat), else tipc-run's.
align::DiffRules diff_rules(bool reprod_log);

}  // namespace tipc::compat
