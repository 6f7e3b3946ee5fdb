#pragma once
// Tests that measure memory skip in the ASan + UBSan build (TIPC_SANITIZE): ASan's shadow
// memory and quarantine, not tipc-run, decide the RSS there.
#include <gtest/gtest.h>

#ifdef TIPC_SANITIZED
#define TIPC_SKIP_MEMORY_MEASUREMENT_UNDER_SANITIZERS() \
  GTEST_SKIP() << "RSS is not measured under ASan: its shadow memory decides it"
#else
#define TIPC_SKIP_MEMORY_MEASUREMENT_UNDER_SANITIZERS() static_cast<void>(0)
#endif
