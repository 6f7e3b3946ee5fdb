#pragma once
// The reference runner's list splitting, shared by the config reader, the planners and the
// GPU resource spec.
#include <string>
#include <vector>

namespace tipc {

// Splits a `|` list the way the reference's IFS does (docs/config-format.md#-lists): empty inner and
// leading elements are kept, one trailing separator adds nothing, "" has no elements.
std::vector<std::string> split_list(const std::string& value, char separator = '|');

}  // namespace tipc
