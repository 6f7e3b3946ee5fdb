#pragma once
// The two parsers of untrusted bytes that descend recursively, the .npy header's dict
// literal (npy.cpp) and the unpickler (pickle.cpp), can fail at almost any byte, dozens of
// calls deep. Inside them a failure is thrown as a ParseFailure, and catch_parse_failure is
// the one place it is caught and becomes a Result, at the parser's edge: it never leaves the
// file that throws it (docs/internals.md, the src/align/ paragraph, says why they keep this throw).
#include <functional>
#include <type_traits>
#include <utility>

#include "core/error.h"

namespace tipc::align {

// Thrown only inside a parser that runs under catch_parse_failure.
struct ParseFailure {
  Error error;
};

[[noreturn]] inline void throw_parse_failure(Error error) { throw ParseFailure{std::move(error)}; }

// parse() as a Result: its value, or the error of the ParseFailure it threw.
template <typename Parse>
auto catch_parse_failure(Parse&& parse) -> Result<std::invoke_result_t<Parse&>> {
  try {
    return std::invoke(parse);
  } catch (ParseFailure& failure) {
    return fail(std::move(failure.error));
  }
}

}  // namespace tipc::align
