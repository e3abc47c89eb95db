#!/usr/bin/env bash
# Prepares .gpu-deps/ on the developer machine for scripts/gpu-check.sh, which runs on a bare
# GPU machine (CMake, nvcc and ninja; no apt, no network). It holds, laid out as under /usr:
#   - the header-only build dependencies (nlohmann-json, CLI11, doctest) with their CMake
#     package files, so that find_package() works with CMAKE_PREFIX_PATH=.gpu-deps/usr;
#   - the OpenGL/EGL/KHR headers, so that the CUDA-OpenGL interop code compiles there;
#   - libEGL and libglvnd (runtime/), so that the interop test can ask the NVIDIA driver for a
#     headless GL context where the machine has no GL loader of its own;
#   - what the GUI build needs (Dear ImGui's static library, stb, GLFW, the glvnd GL/EGL
#     libraries and the X11 libraries GLFW is linked against, all in usr/lib/x86_64-linux-gnu
#     with their pkg-config and CMake files made relative), and pkgconf itself (tools/, run
#     through bin/pkg-config), so that gpu-check.sh builds `ringviz --headless` there too.
# The Chinese font is not carried: without it the GUI draws English and says nothing.
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
    dpkg -L "$package" | while read -r path; do
      if [ -f "$path" ] || [ -L "$path" ]; then echo "|$path"; fi
    done
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
  local root path folder
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

# The GUI: headers, link-time libraries and the shared libraries the executable loads (ldd of
# ringviz and of libglfw.so.3 beyond glibc and libstdc++), in one lib folder.
copy_package libimgui-dev "$out" include/imgui lib/x86_64-linux-gnu
copy_package libstb-dev "$out" include/stb lib/x86_64-linux-gnu
copy_package libglfw3-dev "$out" include/GLFW lib/x86_64-linux-gnu
for package in libstb0 libglfw3 libopengl-dev libopengl0 libgl-dev libgl1 libglx0 libegl-dev libegl1 libglvnd0 \
    libx11-6 libxcb1 libxau6 libxdmcp6 libbsd0 libmd0; do
  copy_package "$package" "$out" lib/x86_64-linux-gnu
done
rm -f "$out/usr/lib/x86_64-linux-gnu/libstb.a"  # -lstb takes the shared one
copy_package pkgconf-bin "$out/tools" bin
copy_package libpkgconf3 "$out/tools" lib/x86_64-linux-gnu
mkdir -p "$out/bin"
cat >"$out/bin/pkg-config" <<'WRAPPER'
#!/bin/sh
# Debian's pkgconf, carried with its library, seeing only the .pc files carried beside it.
deps=$(cd "$(dirname "$0")/.." && pwd)
export PKG_CONFIG_LIBDIR="$deps/usr/lib/x86_64-linux-gnu/pkgconfig"
LD_LIBRARY_PATH="$deps/tools/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
  exec "$deps/tools/usr/bin/pkgconf" "$@"
WRAPPER
chmod +x "$out/bin/pkg-config"
# The .pc files name /usr; ${pcfiledir} makes them relative to where they now lie
# (usr/lib/x86_64-linux-gnu/pkgconfig). Only imgui and stb are looked up through pkg-config.
find "$out/usr/lib/x86_64-linux-gnu/pkgconfig" -name '*.pc' ! -name imgui.pc ! -name stb.pc -delete
sed -i -E 's|^prefix=/usr$|prefix=${pcfiledir}/../../..|; s|^(libdir\|includedir)=/usr/|\1=${prefix}/|' \
  "$out/usr/lib/x86_64-linux-gnu/pkgconfig/"*.pc
# glfw3's targets file compares its own folder with /usr/lib/...; comparing it with itself
# keeps the same (relative) prefix and names no /usr.
sed -i 's|"/usr/lib/x86_64-linux-gnu/cmake/glfw3"|"${CMAKE_CURRENT_LIST_DIR}"|' \
  "$out/usr/lib/x86_64-linux-gnu/cmake/glfw3/glfw3Targets.cmake"

# doctest's targets file names /usr literally; make it relative to where it now lies
# (usr/lib/cmake/doctest), as the other two packages' files already are.
sed -i 's|set(_IMPORT_PREFIX "/usr")|get_filename_component(_IMPORT_PREFIX "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)|' \
  "$out/usr/lib/cmake/doctest/doctestTargets.cmake"
cmake_files=("$out/usr/lib/cmake" "$out/usr/share/cmake" "$out/usr/lib/x86_64-linux-gnu/cmake")
if grep -rl '"/usr' "${cmake_files[@]}" >/dev/null 2>&1; then
  echo "prepare-gpu-deps: a CMake file still names /usr:" >&2
  grep -rl '"/usr' "${cmake_files[@]}" >&2
  exit 1
fi
if grep -l '=/usr' "$out/usr/lib/x86_64-linux-gnu/pkgconfig/"*.pc >/dev/null 2>&1; then
  echo "prepare-gpu-deps: a pkg-config file still names /usr" >&2
  exit 1
fi
# Only the shared libraries themselves (and their soname links) are needed at run time.
find "$out/runtime" -type f ! -name '*.so*' -delete
echo "prepared $out ($(du -sh "$out" | cut -f1)); carry it with the device tool: carry [\".gpu-deps\"]"
