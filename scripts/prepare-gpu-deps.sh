#!/usr/bin/env bash
# Prepares .gpu-deps/ on the developer machine for scripts/gpu-check.sh, which runs on a bare
# GPU machine (CMake, nvcc and ninja; no apt, no network). It holds, laid out as under /usr:
#   - the header-only build dependencies (nlohmann-json, CLI11, doctest) with their CMake
#     package files, so that find_package() works with CMAKE_PREFIX_PATH=.gpu-deps/usr;
#   - the OpenGL/EGL/KHR headers, so that the CUDA-OpenGL interop code compiles there;
#   - libEGL and libglvnd (runtime/), so that the interop test can ask the NVIDIA driver for a
#     headless GL context where the machine has no GL loader of its own.
# Files come from the Debian packages installed here; packages that are not installed are
# fetched with `apt-get download` and unpacked, never installed. .gpu-deps/ is git-ignored;
# the device tool carries it when asked to (carry: [".gpu-deps"]).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
out="$root/.gpu-deps"
rm -rf "$out"
mkdir -p "$out/usr" "$out/runtime"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# Lists one package's files (absolute paths under `root`, printed as root|path): from dpkg
# when it is installed, else from a freshly unpacked copy of its .deb.
package_files() {
  local package=$1
  if dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    dpkg -L "$package" | while read -r path; do [ -f "$path" ] || [ -L "$path" ] && echo "|$path"; done
    return 0
  fi
  (cd "$scratch" && apt-get download "$package" >/dev/null) ||
    { echo "prepare-gpu-deps: cannot get $package (install it or run apt-get update)" >&2; exit 1; }
  mkdir -p "$scratch/$package"
  dpkg-deb -x "$scratch/${package}"_*.deb "$scratch/$package"
  (cd "$scratch/$package" && find . \( -type f -o -type l \) | sed "s|^\.|$scratch/$package\||")
}

# Copies the files of `package` that lie under the given /usr sub-folders into $2, keeping
# their layout (symbolic links stay links, so a library keeps its soname).
copy_package() {
  local package=$1 target=$2
  shift 2
  local line root path folder
  package_files "$package" | while IFS='|' read -r root path; do
    for folder in "$@"; do
      case "$path" in
        /usr/"$folder"/*)
          mkdir -p "$target$(dirname "$path")"
          cp -a "$root$path" "$target$path"
          ;;
      esac
    done
  done
}

copy_package nlohmann-json3-dev "$out" include/nlohmann share/cmake/nlohmann_json
copy_package libcli11-dev "$out" include/CLI share/cmake/CLI11
copy_package doctest-dev "$out" include/doctest lib/cmake/doctest
copy_package libgl-dev "$out" include/GL include/KHR
copy_package libegl-dev "$out" include/EGL
copy_package libegl1 "$out/runtime" lib/x86_64-linux-gnu
copy_package libglvnd0 "$out/runtime" lib/x86_64-linux-gnu

# doctest's targets file names /usr literally; make it relative to where it now lies
# (usr/lib/cmake/doctest), as the other two packages' files already are.
sed -i 's|set(_IMPORT_PREFIX "/usr")|get_filename_component(_IMPORT_PREFIX "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)|' \
  "$out/usr/lib/cmake/doctest/doctestTargets.cmake"
if grep -rl '"/usr' "$out/usr/lib/cmake" "$out/usr/share/cmake" >/dev/null 2>&1; then
  echo "prepare-gpu-deps: a CMake file still names /usr:" >&2
  grep -rl '"/usr' "$out/usr/lib/cmake" "$out/usr/share/cmake" >&2
  exit 1
fi
# Only the shared libraries themselves (and their soname links) are needed at run time.
find "$out/runtime" -type f ! -name '*.so*' -delete
echo "prepared $out ($(du -sh "$out" | cut -f1)); carry it with the device tool: carry [\".gpu-deps\"]"
