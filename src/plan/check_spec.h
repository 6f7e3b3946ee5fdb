#pragma once
// What a check stage checks and where its result goes: the typed description the run's
// reports read (report/check_details), so nothing is guessed back from its argv or its log.
// It travels in the plan file and the journal (plan_json.h) like the rest of the stage.
#include <string>

#include "core/check_kind.h"

namespace tipc::plan {

// The check kinds live in core (core/check_kind.h).
using tipc::check_kind_from_string;
using tipc::CheckKind;
using tipc::to_string;

struct CheckSpec {
  CheckKind kind = CheckKind::kDiff;
  std::string result_file;  // the JSON file the check writes (--json), a path like Stage::log
  bool operator==(const CheckSpec&) const = default;
};

}  // namespace tipc::plan
