#!/usr/bin/env bash
# The browser stage of `make test` (and `make web-bench`): the page built in WEB_BUILD, driven in
# Debian's headless chromium by tests/web/browser-test.mjs, beside the desktop's ringviz.
#   scripts/web-test.sh WEB_BUILD DESKTOP_RINGVIZ [bench|profile]
# Fails, saying what is missing, when the browser, the driver or a build is not there: a
# browser test that cannot run must not pass.
set -euo pipefail

web=${1:?usage: $0 WEB_BUILD DESKTOP_RINGVIZ [bench|profile]}
desktop=${2:?usage: $0 WEB_BUILD DESKTOP_RINGVIZ [bench|profile]}
mode=${3:-test}
root=$(cd "$(dirname "$0")/.." && pwd)

missing() {
  echo "browser test: $*" >&2
  exit 1
}
command -v chromium > /dev/null || missing "chromium is not installed (scripts/install-web-deps.sh installs it)"
command -v node > /dev/null || missing "node is not installed (scripts/install-web-deps.sh installs it with emscripten)"
[ -f "$root/tests/web/node_modules/puppeteer-core/package.json" ] ||
  missing "puppeteer-core is not installed in tests/web (scripts/install-web-deps.sh installs it)"
for file in index.html index.js index.wasm index.data wqy-microhei.ttc; do
  [ -f "$web/$file" ] || missing "$web/$file is missing (make web builds it)"
done
[ -x "$desktop" ] || missing "$desktop is missing (make build builds it): the page's pixels are compared with it"

# Beside the desktop build, not in the page's folder (which is published as it is).
out=$(dirname "$(dirname "$desktop")")/web-$mode
rm -rf "$out"
mkdir -p "$out"
node "$root/tests/web/browser-test.mjs" "$mode" "$(cd "$web" && pwd)" "$(cd "$(dirname "$desktop")" && pwd)/$(basename "$desktop")" "$out"
echo "browser test: screenshots in $out"
