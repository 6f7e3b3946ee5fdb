#include "plan/check_spec.h"

namespace tipc::plan {

const char* to_string(CheckKind kind) {
  switch (kind) {
    case CheckKind::kDiff: return "diff";
    case CheckKind::kCompareResults: return "compare-results";
    case CheckKind::kInitCheck: return "init-check";
  }
  return "?";
}

std::optional<CheckKind> check_kind_from_string(std::string_view text) {
  for (const CheckKind kind : {CheckKind::kDiff, CheckKind::kCompareResults, CheckKind::kInitCheck}) {
    if (text == to_string(kind)) return kind;
  }
  return std::nullopt;
}

}  // namespace tipc::plan
