#pragma once
// The pieces every log reader of the reports takes a line apart into (train_log, eval_log,
// autolog, benchmark_log). Logs are free text written by many trainers, so parsing is by
// fields, not by whole-line formats: every `key: value`, `key: a/b`, `key: [a/b]` and
// `Key a/b` (as in `[Epoch 1/10]` or `rank 0/2`) on a line is a field. Lines that match
// nothing give no fields, so interleaved output and garbage cost nothing.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tipc::report {

// What a reader keeps of one log, whatever its size.
struct MetricsLimits {
  std::size_t max_points_per_curve = 2000;  // evenly thinned beyond this, first and last kept
  std::size_t max_curves = 64;              // new names beyond this are ignored
  std::size_t max_final_values = 64;
  std::size_t max_line = 16 << 10;  // longer lines are parsed up to this length
};

namespace log_fields {

struct Field {
  std::string_view key;
  std::string_view value;  // the value's first token, or the whole `[a/b]` group
};

struct Number {
  double value = 0;
  std::optional<double> total;  // the b of `a/b`
};

// The value that starts at `start` (blanks skipped): its first token, or a whole `[...]` group.
std::string_view value_after(std::string_view line, std::size_t start);
std::vector<Field> scan_fields(std::string_view line);
// The number `text` starts with, `rest` what follows it; none for nan and inf.
std::optional<double> leading_number(std::string_view text, std::string_view* rest);
// `0.5`, `0.5s`, `3/12`, `[1/10]`; not `11:42` (a time) and not `nan`.
std::optional<Number> number_of(std::string_view text);
// A count or id: whole and in range (a garbage `rank 99999999999/2` is none).
std::optional<int> whole_number(double value);

// Where a line stands in a training: the x of its points.
struct Position {
  std::optional<double> global_step, iter, iters_per_epoch, epoch;
  std::optional<int> rank;
  bool empty() const { return !global_step && !iter && !epoch; }
};

// Throughput and timing fields are not training curves.
bool is_metric_key(const std::string& key);
// Takes the positional fields into `position`; false for anything else.
bool take_position(const std::string& key, const Number& number, Position& position);

}  // namespace log_fields
}  // namespace tipc::report
