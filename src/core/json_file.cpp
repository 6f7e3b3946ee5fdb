#include "core/json_file.h"

#include "core/atomic_file.h"

namespace tipc {

Result<void> write_json_atomically(const std::string& path, const nlohmann::ordered_json& json) {
  return write_file_atomically(path, json.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n");
}

}  // namespace tipc
