#include "compat/reprod_log_rules.h"

namespace tipc::compat {

align::DiffRules reprod_log_diff_rules() {
  align::DiffRules rules;
  rules.nan_fails = false;
  rules.extra_nested_key_fails = false;
  rules.nothing_compared_fails = false;
  rules.exact_integers = false;
  rules.numpy_memory_order = true;
  rules.explains = false;
  return rules;
}

align::DiffRules diff_rules(bool reprod_log) { return reprod_log ? reprod_log_diff_rules() : align::DiffRules{}; }

}  // namespace tipc::compat
