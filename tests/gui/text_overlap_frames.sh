#!/usr/bin/env bash
# Runs tests/gui/text_overlap.py on layout dumps of frames known to have no overlapping, cut-off
# or out-of-window text, so that the checker itself is exercised on real frames: it must read
# ringviz's dumps, find their texts and pass them.
# Usage: text_overlap_frames.sh <path to ringviz>. Exits 77 (skipped) where no OpenGL context exists.
set -u
ringviz=$1
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# view size [more flags]
frames=(
  "ring 1920x1080"
  "ring 1920x1080 --op allreduce --gpus 4 --round 2"
  "devices 1920x1080"
  # The side panels where their tables were wider or taller than the panel: 4K presentation
  # (transfers), 1280x720 (setup, transfers and traffic scrolling), the value table (4 GPUs)
  # and packets crossing labelled cells mid-round (8 GPUs).
  "ring 3840x2160 --present --gpus 8 --round 2.5"
  "ring 1280x720 --gpus 16 --round 2.5"
  "ring 1600x900 --gpus 8 --round 2.5"
  "ring 1920x1080 --gpus 4 --op allgather"
)

status=0
count=0
for frame in "${frames[@]}"; do
  read -r view size extra <<<"$frame"
  out="$work/frame-$((++count)).json"
  # shellcheck disable=SC2086
  if ! RINGVIZ_SETTINGS=off "$ringviz" --headless --view "$view" --size "$size" $extra --dump-layout "$out" \
      >"$work/log" 2>&1; then
    if grep -q "no OpenGL context" "$work/log"; then
      echo "SKIPPED: no OpenGL context here"
      exit 77
    fi
    echo "FAIL: ringviz --view $view --size $size $extra"
    cat "$work/log"
    exit 1
  fi
  # Some text must be there: a dump without texts would pass the checker for nothing.
  if ! grep -q '"texts": \[$' "$out" || { [ "$view" = ring ] && ! grep -q '"text": "GPU 0"' "$out"; }; then
    echo "FAIL: $out lists no texts (or not the ring's GPU titles)"
    exit 1
  fi
  python3 "$here/text_overlap.py" --expect-view "$view" "$out" || status=1
done
exit $status
