#include "report/autolog.h"

#include "core/text.h"

namespace tipc::report {
namespace {

std::optional<std::string> text_value(std::string_view value) {
  if (value.empty() || value == "None") return std::nullopt;
  return std::string(value);
}

std::optional<int> int_value(std::string_view value) {
  const auto number = log_fields::number_of(value);
  return number ? log_fields::whole_number(number->value) : std::nullopt;
}

// `use_gpu: True` / `use_gpu: 1` names the device as `runtime_device` does.
std::string device_of_use_gpu(std::string_view value) {
  const std::string lowered = lower(value);
  return lowered == "true" || lowered == "1" ? "gpu" : "cpu";
}

// `total time spent(s): 0.3135` (Python) or `Total time spent(ms): 313` (C++): a key with
// spaces, which the field scanner does not take.
std::optional<double> total_time_spent_ms(std::string_view line) {
  static constexpr std::string_view kKey = "time spent(";
  const std::string lowered = lower(line);
  const std::size_t at = lowered.find(kKey);
  if (at == std::string::npos) return std::nullopt;
  const std::size_t unit = at + kKey.size();
  const std::size_t colon = lowered.find("):", unit);
  if (colon == std::string::npos) return std::nullopt;
  const std::string_view unit_name = std::string_view(lowered).substr(unit, colon - unit);
  const auto number = log_fields::number_of(log_fields::value_after(line, colon + 2));
  if (!number || (unit_name != "s" && unit_name != "ms")) return std::nullopt;
  return unit_name == "s" ? number->value * 1000 : number->value;
}

}  // namespace

void AutoLogTimings::add_line(std::string_view line) {
  if (auto total = total_time_spent_ms(line)) {
    timings_.total_ms = total;
    found_ = true;
  }
  for (const log_fields::Field& field : log_fields::scan_fields(line)) take(lower(field.key), field.value);
}

void AutoLogTimings::take(const std::string& key, std::string_view value) {
  if (auto* slot = number_slot(key)) {
    if (const auto number = log_fields::number_of(value)) {
      *slot = number->value;
      found_ = true;
    }
  } else if (key == "batch_size") {
    timings_.batch_size = int_value(value);
  } else if (key == "data_num") {
    timings_.data_num = int_value(value);
  } else if (key == "precision") {
    timings_.precision = text_value(value);
  } else if (key == "runtime_device" || key == "device") {
    timings_.device = text_value(value);
  } else if (key == "use_gpu") {
    timings_.device = device_of_use_gpu(value);
  } else if (key == "cpu_math_library_num_threads" || key == "cpu_num_threads" || key == "cpu_threads") {
    timings_.cpu_threads = int_value(value);
  }
}

std::optional<double>* AutoLogTimings::number_slot(const std::string& key) {
  if (key == "preprocess_time(ms)") return &timings_.preprocess_ms;
  if (key == "inference_time(ms)") return &timings_.inference_ms;
  if (key == "postprocess_time(ms)") return &timings_.postprocess_ms;
  if (key == "cpu_rss(mb)") return &timings_.cpu_rss_mb;
  if (key == "gpu_rss(mb)") return &timings_.gpu_rss_mb;
  if (key == "gpu_util") return &timings_.gpu_util_percent;
  return nullptr;
}

}  // namespace tipc::report
