#!/usr/bin/env bash
# Installs the Debian packages tipc-run needs to build, test and run its demo chain, when missing.
# Needs root (apt-get); runs `apt-get update` first, as a fresh machine requires.
set -euo pipefail

packages=(
  cmake ninja-build g++ pkg-config
  libboost-dev libboost-filesystem-dev   # Boost 1.74: Process (headers) + Filesystem
  libyaml-cpp-dev libspdlog-dev libfmt-dev libarchive-dev
  libssl-dev                 # libcrypto: SHA-256 of data archives with the CPU's SHA instructions
  nlohmann-json3-dev libcli11-dev libexpected-dev
  libgtest-dev googletest
  libxml2-dev                # tests: junit.xml is validated against an XML schema
  chromium fonts-dejavu-core # tests: report.html in headless chromium (the fonts: its screenshot has text)
  clang libclang-rt-14-dev   # scripts/run-fuzz.sh: libFuzzer, ASan, UBSan (clang 14 on bookworm)
  slurmctld slurmd slurm-client munge  # tests: --executor slurm on a local cluster (scripts/slurm-local.sh)
  # the demo chain: PyTorch (CPU), numpy, ONNX export, OpenCV DNN for ONNX inference
  python3-torch python3-numpy python3-onnx python3-opencv
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
  echo "install-deps: missing Debian packages: ${missing[*]}; run as root or install them" >&2
  exit 2
fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}"
