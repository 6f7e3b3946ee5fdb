#include "compat/padiff_rules.h"

namespace tipc::compat {

align::PadiffRules padiff_own_rules() {
  align::PadiffRules rules;
  rules.every_step = false;
  rules.backward_by_grads = false;
  rules.means = align::MeanVerdict::kPadiff;
  rules.chosen_by = "--padiff-compat";
  return rules;
}

align::PadiffRules padiff_rules(bool padiff_own) { return padiff_own ? padiff_own_rules() : align::PadiffRules{}; }

}  // namespace tipc::compat
