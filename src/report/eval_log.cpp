#include "report/eval_log.h"

#include "core/text.h"

namespace tipc::report {

void EvalValues::add_line(std::string_view line) {
  log_fields::Position ignored;
  for (const log_fields::Field& field : log_fields::scan_fields(line)) {
    const auto number = log_fields::number_of(field.value);
    const std::string key = lower(field.key);
    if (!number || log_fields::take_position(key, *number, ignored) || !log_fields::is_metric_key(key)) continue;
    const std::string name(field.key);
    if (values_.size() < limits_.max_final_values || values_.count(name)) values_[name] = number->value;
  }
}

}  // namespace tipc::report
