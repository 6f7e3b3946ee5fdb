#!/usr/bin/env bash
# Installs the Debian packages of the given sets, when missing. Needs root (apt-get); runs
# `apt-get update` first, as a fresh machine requires.
#
#   scripts/install-deps.sh [SET...]     sets: build demo test package (default: all four)
#
#   build    compiling tipc-run itself
#   demo     the demo chains' stages: Python, and the C++ chain's build (scripts/run-demo.sh
#            needs build + demo)
#   test     what only the tests use: GoogleTest, a browser, a local Slurm, clang for fuzzing,
#            clang-tidy, clang-format, eu-stack
#   package  the man page and the .deb (scripts/run-package-test.sh)
#
# Prints one line: "installing N packages" (N counts the dependencies apt pulls in), or that
# nothing is missing.
set -euo pipefail

build=(
  cmake ninja-build g++ pkg-config
  libboost-dev libboost-filesystem-dev   # Boost 1.74: Process (headers) + Filesystem
  libyaml-cpp-dev libspdlog-dev libfmt-dev libarchive-dev
  libssl-dev                 # libcrypto: SHA-256 of data archives with the CPU's SHA instructions
  libsqlite3-dev             # the run history (src/history)
  nlohmann-json3-dev libcli11-dev libexpected-dev
  scdoc                      # the man page (docs/tipc-run.1.scd), so that `cmake --install build` installs it
)
demo=(
  # PyTorch (CPU), numpy, ONNX export, OpenCV DNN for ONNX inference
  python3-torch python3-numpy python3-onnx python3-opencv
  # The C++ chain (test_tipc/test_inference_cpp.sh): libtorch's C++ API and CMake's make
  # (apt leaves it out as a recommendation); bubblewrap, because its runner is traced and
  # only bubblewrap can put the trace's stand-in over the config's /usr/bin/python3
  libtorch-dev make bubblewrap
)
test=(
  libgtest-dev googletest
  libxml2-dev                # junit.xml is validated against an XML schema
  chromium fonts-dejavu-core # report.html in headless chromium (the fonts: its screenshot has text)
  clang libclang-rt-14-dev   # scripts/run-fuzz.sh: libFuzzer, ASan, UBSan (clang 14 on bookworm)
  clang-tidy                 # scripts/run-clang-tidy.sh: no function over 60 lines (.clang-tidy)
  clang-format               # scripts/check-format.sh: the layout of .clang-format
  elfutils                   # eu-stack: a timed-out stage's native stacks (tests/run/stack_dump_test.cpp)
  slurmctld slurmd slurm-client munge  # --executor slurm on a local cluster (scripts/slurm-local.sh)
  bubblewrap                 # tests/trace: the traced runner's isolation (no writes outside, no network)
  curl git                   # tipc-run setup's tests: file:// downloads through curl, git mirrors and clones
)
package=(
  dpkg-dev file              # CPack's DEB generator: dpkg-shlibdeps finds the runtime dependencies
)

sets=("$@")
[ ${#sets[@]} -gt 0 ] || sets=(build demo test package)
packages=()
for set in "${sets[@]}"; do
  case "$set" in
    build) packages+=("${build[@]}") ;;
    demo) packages+=("${demo[@]}") ;;
    test) packages+=("${test[@]}") ;;
    package) packages+=("${package[@]}") ;;
    *) echo "install-deps: unknown set '$set' (build, demo, test, package)" >&2; exit 2 ;;
  esac
done

missing=()
for p in $(printf '%s\n' "${packages[@]}" | sort -u); do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: the ${#packages[@]} packages of ${sets[*]} are installed"
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "install-deps: missing Debian packages: ${missing[*]}; run as root or install them" >&2
  exit 2
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# What apt will really install: the missing packages and the dependencies they pull in.
total=$(apt-get install -s --no-install-recommends "${missing[@]}" | grep -c '^Inst ' || true)
echo "install-deps: installing $total packages for ${sets[*]} (${missing[*]} and their dependencies)"
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
