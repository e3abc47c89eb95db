#!/usr/bin/env bash
# Installs what `make web` and its browser test need, and only what is missing, so running it
# again does nothing (docs/architecture.md, "The browser build"):
#   - Debian's emscripten (the compiler) and chromium (the browser the test drives), with apt;
#   - Dear ImGui 1.86 as source, from Debian's source package `imgui` (Debian's libimgui-dev is
#     an x86 static library, of no use to WebAssembly), into build-web-tools/imgui. The machine's
#     apt configuration is left as it is: a private sources list with a deb-src line for each
#     Debian deb entry the machine already has, and a private lists folder, both under
#     build-web-tools/apt, are passed to apt-get with -o;
#   - npm's puppeteer-core (the test's driver for chromium), into tests/web/node_modules,
#     at the version tests/web/package-lock.json pins.
# Fails, saying which, when something cannot be installed: the browser test must not pass
# without a browser.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
tools=$root/build-web-tools
as_root=()
[ "$(id -u)" -eq 0 ] || as_root=(sudo)

fail() {
  echo "install-web-deps: $*" >&2
  exit 1
}

# 1. Packages: emscripten, chromium, and npm where node came without it.
missing=()
command -v emcc > /dev/null || missing+=(emscripten)
command -v chromium > /dev/null || missing+=(chromium)
command -v npm > /dev/null || missing+=(npm)
if [ ${#missing[@]} -gt 0 ]; then
  echo "install-web-deps: installing ${missing[*]} with apt-get"
  export DEBIAN_FRONTEND=noninteractive
  if ! "${as_root[@]}" apt-get install -y --no-install-recommends "${missing[@]}"; then
    "${as_root[@]}" apt-get update
    "${as_root[@]}" apt-get install -y --no-install-recommends "${missing[@]}" ||
      fail "could not install ${missing[*]} with apt-get (the browser build and its test need them)"
  fi
fi
command -v emcc > /dev/null || fail "emcc is still missing after installing emscripten"
command -v chromium > /dev/null || fail "chromium is still missing after installing it"

# 2. Sources compiled to WebAssembly with the page: Dear ImGui 1.86 (its GLFW and OpenGL3
# backends included) and zlib (gzip-compressed profiler traces), from Debian's source packages.
apt_dir=$tools/apt
apt_private=(-o "Dir::Etc::SourceList=$apt_dir/sources.list" -o Dir::Etc::SourceParts=/dev/null
             -o "Dir::State::Lists=$apt_dir/lists" -o Debug::NoLocking=1)
private_lists_ready=false
prepare_private_lists() {
  $private_lists_ready && return 0
  mkdir -p "$apt_dir/lists/partial"
  # One deb-src line per Debian deb entry of the machine (deb822 .sources and one-line .list).
  : > "$apt_dir/sources.list"
  local list
  for list in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
    [ -f "$list" ] || continue
    case "$list" in
      *.sources)
        awk 'BEGIN { RS = ""; FS = "\n" }
             {
               types = uris = suites = comps = key = ""
               for (i = 1; i <= NF; ++i) {
                 line = $i
                 if (line ~ /^#/) continue
                 name = line; sub(/:.*/, "", name); value = line; sub(/^[^:]*:[ \t]*/, "", value)
                 if (name == "Types") types = value; else if (name == "URIs") uris = value
                 else if (name == "Suites") suites = value; else if (name == "Components") comps = value
                 else if (name == "Signed-By") key = value
               }
               if (types !~ /(^| )deb( |$)/ || uris !~ /debian/) next
               n = split(suites, s, " ")
               for (j = 1; j <= n; ++j)
                 printf "deb-src %s%s %s %s\n", (key != "" ? "[signed-by=" key "] " : ""), uris, s[j], comps
             }' "$list" >> "$apt_dir/sources.list"
        ;;
      *)
        sed -n 's/^[ \t]*deb[ \t]\+\(.*debian.*\)$/deb-src \1/p' "$list" >> "$apt_dir/sources.list"
        ;;
    esac
  done
  [ -s "$apt_dir/sources.list" ] || fail "no Debian deb entry in the machine's apt sources to mirror as deb-src"
  apt-get "${apt_private[@]}" update > "$apt_dir/update.log" 2>&1 ||
    fail "apt-get update with the private deb-src list failed (see $apt_dir/update.log)"
  private_lists_ready=true
}

# fetch_source PACKAGE VERSION FOLDER FILE: the package's upstream tarball unpacked into
# build-web-tools/FOLDER, unless FILE is already there.
fetch_source() {
  local package=$1 version=$2 folder=$3 file=$4
  [ -f "$tools/$folder/$file" ] && return 0
  prepare_private_lists
  echo "install-web-deps: fetching Debian's source package $package (private apt lists)"
  local download=$tools/source/$package
  rm -rf "$download" && mkdir -p "$download"
  # Suite by suite, in the sources' order: a mirror may lack one suite's pool (a security update).
  local suite fetched=false
  for suite in $(awk '{ for (i = 2; i <= NF; ++i) if ($i !~ /^\[/ && $i ~ /:\/\//) { print $(i + 1); break } }' "$apt_dir/sources.list"); do
    if (cd "$download" && apt-get "${apt_private[@]}" source --download-only "$package/$suite" >> "$apt_dir/source-$package.log" 2>&1); then
      fetched=true
      break
    fi
    rm -f "$download"/*
  done
  $fetched || fail "apt-get source $package failed in every suite (see $apt_dir/source-$package.log)"
  local orig
  orig=$(ls "$download/${package}_"*.orig.tar.* 2> /dev/null | head -n 1)
  [ -n "$orig" ] || fail "apt-get source $package fetched no .orig tarball"
  case "$(basename "$orig")" in "${package}_$version"*) ;; *) fail "Debian's $package source is $(basename "$orig"), not $version";; esac
  rm -rf "$tools/$folder.partial" && mkdir -p "$tools/$folder.partial"
  tar -xf "$orig" -C "$tools/$folder.partial" --strip-components=1
  [ -f "$tools/$folder.partial/$file" ] || fail "$(basename "$orig") holds no $file"
  rm -rf "${tools:?}/$folder" && mv "$tools/$folder.partial" "$tools/$folder"
}
fetch_source imgui 1.86 imgui imgui.cpp
fetch_source zlib 1.2 zlib inflate.c

# 3. puppeteer-core, as the lock file pins it.
if [ ! -f "$root/tests/web/node_modules/puppeteer-core/package.json" ]; then
  echo "install-web-deps: installing puppeteer-core with npm (tests/web)"
  (cd "$root/tests/web" && npm ci --no-audit --no-fund --loglevel=error) ||
    fail "npm ci in tests/web failed (puppeteer-core drives chromium in the browser test)"
fi
echo "install-web-deps: emscripten $(emcc -dumpversion 2> /dev/null), $(chromium --version 2> /dev/null), Dear ImGui source, puppeteer-core: ready"
