#pragma once
// PaDiff's own verdicts, its bugs included, for `tipc-run padiff --padiff-compat`:
// - its get_all_valid_path returns inside its loop over the steps, so only the first step of
//   a dump is checked;
// - its backward check descends the layer tree together with the forward check, so below the
//   root it compares the forward outputs (in forward order), not the grads;
// - its mean modes take numpy's means of the tensors as stored, which depend on the storage
//   order in their last bits, and fail a pair whose every element is within the tolerance.
// tipc-run's default (align::PadiffRules) checks every step, compares grads all the way
// down and decides the mean modes by exact means and the elements (align::MeanVerdict).
#include "align/checks/padiff_compare.h"

namespace tipc::compat {

align::PadiffRules padiff_own_rules();

// The one choice: PaDiff's rules when `padiff_own` (--padiff-compat), else tipc-run's.
align::PadiffRules padiff_rules(bool padiff_own);

}  // namespace tipc::compat
