#!/usr/bin/env bash
# Builds the Debian package (build/tipc-run_<version>_amd64.deb, CPack), installs it with
# apt-get as a user would, and runs the demo chain with the installed /usr/bin/tipc-run in a
# copy of the demo outside the source tree: the installed binary must need nothing from the
# tree. CI runs it after the tests (it reuses ./build when it is configured). Needs root.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"

scripts/install-deps.sh build demo package
if [ -f build/CMakeCache.txt ]; then
  cmake -S . -B build -DTIPC_MAN=ON >/dev/null
else
  scripts/configure.sh -DTIPC_TESTS=OFF -DTIPC_MAN=ON
fi
cmake --build build -j "$(nproc)"
rm -f build/tipc-run_*.deb
(cd build && cpack -G DEB >/dev/null)
package=(build/tipc-run_*_amd64.deb)
echo "run-package-test: built ${package[*]}"
dpkg-deb --field "${package[0]}" Package Version Depends

export DEBIAN_FRONTEND=noninteractive
apt-get install -y -qq "./${package[0]}" >/dev/null
[ "$(command -v tipc-run)" = /usr/bin/tipc-run ] || { echo "run-package-test: tipc-run is not /usr/bin/tipc-run" >&2; exit 1; }
# (dpkg -L: minimal images exclude /usr/share/man from unpacking; the package still holds it.)
dpkg -L tipc-run | grep -qx /usr/share/man/man1/tipc-run.1.gz || { echo "run-package-test: no man page" >&2; exit 1; }
dpkg -L tipc-run | grep -qx /usr/share/doc/tipc-run/copyright || { echo "run-package-test: no copyright file" >&2; exit 1; }
echo "run-package-test: installed $(tipc-run --version)"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp -r models test_tipc lite_data "$work/"
rm -rf "$work/test_tipc/output"
cd "$work"
status=0
env -u TIPC_DIALECT_DIR /usr/bin/tipc-run test_tipc/configs/alexnet.txt lite_train_lite_infer "$@" || status=$?
cd "$root"
apt-get remove -y -qq tipc-run >/dev/null
[ $status -eq 0 ] && echo "run-package-test: the installed tipc-run ran the demo chain in $work: PASS"
exit $status
