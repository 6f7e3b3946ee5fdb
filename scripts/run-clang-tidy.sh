#!/usr/bin/env bash
# clang-tidy over every source file of src/ with the checks of .clang-tidy: no function over
# 60 lines, methods defined inside classes and lambdas' bodies included (issue 41). CI runs it;
# it fails on the first finding. The compile commands come from a configure of its own
# (./build-tidy; nothing is built there).
#
#   scripts/run-clang-tidy.sh [FILE...]      default: every .cpp under src/
set -euo pipefail
cd "$(dirname "$0")/.."
dir=build-tidy
cmake -S . -B "$dir" -G Ninja -DCMAKE_EXPORT_COMPILE_COMMANDS=ON -DTIPC_TESTS=OFF -DTIPC_MAN=OFF >/dev/null
files=("$@")
[ ${#files[@]} -gt 0 ] || files=("$PWD/src/")
# clang 14 has no _Float16 on x86-64 (GCC, which builds tipc-run, has): the size of a function
# does not depend on the type.
run-clang-tidy -p "$dir" -j "$(nproc)" -quiet -extra-arg=-D_Float16=float "${files[@]}" >"$dir/clang-tidy.log" 2>&1 || {
  grep -E 'error:|note: [0-9]+ lines' "$dir/clang-tidy.log" | sed 's/\x1b\[[0-9;]*m//g' >&2
  echo "run-clang-tidy: findings above (the whole output: $dir/clang-tidy.log)" >&2
  exit 1
}
echo "run-clang-tidy: no finding in src/ ($(grep -c '^clang-tidy' "$dir/clang-tidy.log" || true) files)"
