#include "run/times_record.h"

#include <cerrno>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/json_file.h"

namespace tipc::run {

Result<TimesRecord> read_times_file(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return TimesRecord{};
  std::ifstream in(path);
  if (!in) return fail(Error::at(path, 0, "", "cannot read the times file: " + errno_text(errno)));
  const auto json = nlohmann::json::parse(in, nullptr, false);
  const auto schema = json.is_object() ? json.find("schema") : json.end();
  if (schema == json.end() || !schema->is_number_integer() || !json.contains("seconds") ||
      !json["seconds"].is_object()) {
    return fail(Error::at(path, 0, "", "not a tipc-run times file"));
  }
  TimesRecord record{schema->get<int>(), {}};
  if (record.version > kTimesVersion) {
    return fail(Error::at(path, 0, "schema", fmt::format("written by a newer tipc-run (schema {})", record.version)));
  }
  for (const auto& [id, value] : json["seconds"].items()) {
    if (!value.is_number() || value.get<double>() < 0) {
      return fail(Error::at(path, 0, "seconds." + id, "not a time in seconds"));
    }
    record.seconds[id] = value.get<double>();
  }
  return record;
}

Result<void> write_times_file(const std::string& path, const TimesRecord& record) {
  return write_json_atomically(path, {{"schema", record.version}, {"seconds", record.seconds}});
}

}  // namespace tipc::run
