#!/usr/bin/env bash
# Fails when the test count README.md states ("(N tests;") differs from what CTest lists in
# ./build: the README's figures are measured, and a count left behind by a change is not.
set -euo pipefail
cd "$(dirname "$0")/.."
stated="$(grep -oE '\(([0-9]+) tests;' README.md | grep -oE '[0-9]+' | head -1)"
listed="$(ctest --test-dir build -N | sed -n 's/^Total Tests: //p')"
if [ -z "$stated" ] || [ -z "$listed" ]; then
  echo "check-readme-test-count: cannot read the count (README.md: '${stated}', ctest -N: '${listed}')" >&2
  exit 1
fi
if [ "$stated" != "$listed" ]; then
  echo "check-readme-test-count: README.md says $stated tests, CTest lists $listed: update README.md" >&2
  exit 1
fi
echo "check-readme-test-count: README.md and CTest agree: $listed tests"
