#!/usr/bin/env bash
# The real window under Xvfb, resized by xdotool through tiny and huge sizes while keys step
# the rounds: the process must stay alive at every step and exit 0 on Ctrl+Q.
# Usage: interactive_resize.sh <path to ringviz>. Exits 77 (skipped) without xvfb-run or xdotool.
set -u
ringviz=$1

if [ "${2:-}" != "--inside-xvfb" ]; then
  for tool in xvfb-run xauth xdotool; do
    if ! command -v "$tool" >/dev/null 2>&1; then
      echo "SKIPPED: $tool is not installed (scripts/install-deps.sh installs it)"
      exit 77
    fi
  done
  exec timeout 60 xvfb-run -a -s "-screen 0 1920x1080x24" "$0" "$ringviz" --inside-xvfb
fi

log=$(mktemp)
trap 'rm -f "$log"' EXIT
RINGVIZ_SETTINGS=off "$ringviz" --size 800x600 --gpus 4 >"$log" 2>&1 &
pid=$!

fail() {
  echo "FAIL: $*"
  echo "--- ringviz output:"
  cat "$log"
  kill "$pid" 2>/dev/null
  exit 1
}
alive() { kill -0 "$pid" 2>/dev/null || fail "ringviz died $1"; }

window=$(timeout 20 xdotool search --sync --onlyvisible --pid "$pid" 2>/dev/null | head -n 1)
[ -n "$window" ] || fail "no window of process $pid appeared"
timeout 5 xdotool windowfocus --sync "$window" 2>/dev/null || xdotool windowfocus "$window"

# A key held long enough for a frame to see it: ImGui 1.86 reads key state once per frame.
press() {
  xdotool keydown "$1"
  sleep 0.15
  xdotool keyup "$1"
  sleep 0.15
}

for size in "250 150" "1 1" "64 30" "2 500" "1600 900"; do
  # shellcheck disable=SC2086
  xdotool windowsize "$window" $size
  sleep 0.4  # a few frames at the new size
  alive "after resizing to ${size/ /x}"
  press space
  press Right
  alive "after a key at ${size/ /x}"
done
press Left
press Home
alive "after stepping back"

press ctrl+q
for _ in $(seq 50); do
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.1
done
kill -0 "$pid" 2>/dev/null && fail "Ctrl+Q did not close the window"
wait "$pid"
status=$?
[ "$status" -eq 0 ] || fail "ringviz exited $status after Ctrl+Q"
echo "ok: the window survived every size and quit with exit 0"
