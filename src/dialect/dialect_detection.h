#pragma once
// Dialect detection: which dialect a repository is, from the marker files each dialect file
// lists (a package directory such as ppcls, a runner inside test_tipc/), and how the run's
// dialect was chosen. Apart from loading (dialect.h) because it reads the repository, not
// the dialect files alone, and because its answer must carry its reason: a wrong guess
// plans every stage with another repository's rules.
#include <string>

#include "core/error.h"

namespace tipc::dialect {

// How the run's dialect was chosen: the console and every report say it, so no run plans
// with a dialect nobody can see the reason for.
struct DialectChoice {
  std::string name;
  // "given by --dialect", "declared in test_tipc/tipc-run.yaml:2",
  // "marker ppcls found in /repo" (and what else matched, and why it lost).
  std::string source;
  // A warning when only a weak marker decided (one every copied test_tipc/ has).
  std::string doubt;
};

// The dialect whose marker exists under repo_root. A marker outside test_tipc/ (a package
// directory such as ppcls) outranks one inside it: every repository's copied test_tipc/
// holds a test_train_inference_python.sh. An error (exit 2) when no marker exists, or when
// markers of two dialects outside test_tipc/ both exist; it names every dialect with its
// markers, --dialect and the settings' `dialect:` key.
Result<DialectChoice> detect_dialect(const std::string& directory, const std::string& repo_root);

}  // namespace tipc::dialect
