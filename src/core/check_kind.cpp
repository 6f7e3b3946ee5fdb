#include "core/check_kind.h"

#include "core/vocabulary.h"

namespace tipc {

const char* to_string(CheckKind kind) {
  switch (kind) {
    case CheckKind::kDiff: return "diff";
    case CheckKind::kCompareResults: return "compare-results";
    case CheckKind::kInitCheck: return "init-check";
  }
  return "?";
}

std::optional<CheckKind> check_kind_from_string(std::string_view text) { return from_word(text, kAllCheckKinds); }

}  // namespace tipc
