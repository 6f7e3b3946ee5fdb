#pragma once
// `{name}` substitution for the command templates of the dialect files.
#include <map>
#include <string>
#include <string_view>

#include "core/error.h"

namespace tipc::plan {

using Vars = std::map<std::string, std::string, std::less<>>;

// Replaces every {name} by vars[name]. An unknown name is an error, so a typo in a
// dialect file is reported instead of silently producing an empty slot.
Result<std::string> render(std::string_view text, const Vars& vars);

}  // namespace tipc::plan
