#pragma once
// Wording shared by the reports (console, JUnit XML, summary.md, report.html).
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "report/run_report.h"

namespace tipc::report {

// "1 inference_cpp (cpp_infer); 2 serving_infer_python (serving_infer)": a directory's configs
// of no MODE of the run, counted by chain, with the MODEs each chain takes.
std::string configs_in_other_modes_by_chain(const std::vector<plan::ConfigInOtherModes>& configs);

// `text` cut to at most `max_bytes` at a UTF-8 character's start, with "..." after a cut: a line
// from a log can be megabytes long (an error line, a stack frame).
std::string cut_text(std::string text, std::size_t max_bytes);

// Six significant digits, "nan" and "inf" spelled so.
std::string format_number(double value);

// "logits: max = 2e-05 > limit 1e-06: FAIL"
std::string check_value_line(const CheckValue& value);

// A check's failing values (one check_value_line each, in its order) and its notes; ""
// when no value fails. Two checks that failed alike have the same text: a report shows
// the values once and refers to the first from the others.
std::string check_failures_text(const CheckDetails& check);

// For each check of `plan` that failed with the same check_failures_text as an earlier check
// of it, that earlier check's stage index, by stage index: summary.md and report.html show
// the values once and refer to them (the console, which sees checks one by one, alike).
std::map<std::size_t, std::size_t> checks_failed_like_earlier(const PlanReport& plan);

// The GPUs a run was given and where that came from: "none", "none (--gpus)",
// "0, 1 (nvidia-smi -L)". A source of "none" (nothing found) is not repeated.
std::string gpus_text(const std::vector<std::string>& gpus, const std::string& source);
// Each plan's config label (config_labels.h: as few path components as tell its config from the
// others'), in plan order: how every report names a suite's configs. Without modes for a
// report that shows each plan's MODE beside its label already (report.html).
std::vector<std::string> plan_labels(const RunReport& report, bool with_modes = true);

// The GPUs `report`'s run was given, as gpus_text words them; "" when it was given none.
std::string given_gpus(const RunReport& report);

}  // namespace tipc::report
