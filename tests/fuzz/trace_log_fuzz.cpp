// libFuzzer target: reading back what a traced runner wrote (trace/trace_log.h). The
// runner is hostile and owns the scratch tree, so the call log and the evaluated strings
// are its bytes: they go through read_calls and read_evals, and every field through the
// PathMap. Checks: no crash, no exception, no allocation beyond the input (a record's list
// count is believed only as far as the bytes left hold), every record's fields were in the
// input, and a text without the scratch path maps to itself.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "fuzz_check.h"
#include "trace/trace_log.h"

using namespace tipc::trace;

namespace {

std::string input_file(const std::uint8_t* data, std::size_t size) {
  static const std::string path = [] {
    char pattern[] = "/tmp/tipc-trace-log-fuzz-XXXXXX";
    const int fd = mkstemp(pattern);
    FUZZ_CHECK(fd >= 0);
    close(fd);
    return std::string(pattern);
  }();
  FILE* file = std::fopen(path.c_str(), "wb");
  FUZZ_CHECK(file != nullptr);
  FUZZ_CHECK(std::fwrite(data, 1, size, file) == size);
  std::fclose(file);
  return path;
}

void check_mapped(const PathMap& map, const std::string& field) {
  if (field.find("/scratch/repo") == std::string::npos) FUZZ_CHECK(map.text(field) == field);
  map.directory(field);
  map.target(field);
}

void check_calls(const std::string& path, std::size_t size, const PathMap& map) {
  const auto calls = read_calls(path);
  if (!calls) return;
  std::size_t bytes = 0;
  for (const auto& call : *calls) {
    for (const auto* field : {&call.program, &call.cwd, &call.stdin_target, &call.stdout_target, &call.stderr_target}) {
      bytes += field->size() + 1;
      check_mapped(map, *field);
    }
    for (const auto& word : call.args) bytes += word.size() + 1;
    for (const auto& word : call.environment) bytes += word.size() + 1;
  }
  FUZZ_CHECK(bytes <= size);
  FUZZ_CHECK(calls->size() * 9 <= size);  // nine NUL-ended fields at least per record
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path = input_file(data, size);
  const PathMap map("/scratch/repo", "<REPO_ROOT>");
  check_calls(path, size, map);
  if (const auto evals = read_evals(path)) {
    std::size_t bytes = 0;
    for (const auto& eval : *evals) {
      bytes += eval.token.size() + eval.text.size() + 2;
      check_mapped(map, eval.text);
    }
    FUZZ_CHECK(bytes == size);
  }
  return 0;
}
