#!/usr/bin/env bash
# Installs the Debian packages ringviz builds, tests and runs with, only those that are missing
# (docs/architecture.md, "Build and layering"). Root runs apt-get directly, anyone else through
# sudo. Where apt is not available it prints the list and exits 2, so the caller can install
# them another way.
set -euo pipefail

packages=(
  # build tools
  cmake ninja-build g++ make pkg-config
  # libraries (header-only ones included)
  libimgui-dev libglfw3-dev libstb-dev libegl-dev libgl-dev libopengl-dev
  doctest-dev libcli11-dev nlohmann-json3-dev zlib1g-dev
  # headless rendering, recording and the Chinese font
  xvfb xauth xdotool libgl1-mesa-dri libegl-mesa0 ffmpeg fonts-wqy-microhei
  # ringviz capture: one process per rank over MPI (its C interface and mpirun)
  libopenmpi-dev openmpi-bin
  # make test-fuzz: clang++ and its libFuzzer runtime (libclang_rt.fuzzer)
  clang libclang-rt-14-dev
  # ctest scripts.shellcheck: the GPU check scripts, which run where nobody can fix them first
  shellcheck
  # python/ringviz_torch: PyTorch with torch.distributed (gloo) for examples/ddp_gpt.py and the
  # python.* tests that record a DDP job on CPU processes
  python3-torch
)

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$package")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
  echo "ringviz: apt-get is not available; install these packages and run again:" >&2
  echo "  ${missing[*]}" >&2
  exit 2
fi

sudo=()
if [ "$(id -u)" -ne 0 ]; then
  if ! command -v sudo >/dev/null 2>&1; then
    echo "ringviz: need root or sudo to install: ${missing[*]}" >&2
    exit 2
  fi
  sudo=(sudo)
fi

echo "ringviz: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
