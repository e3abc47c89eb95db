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
  # The training and compare views, laid out from measured text, for an audience and on the desk.
  "training 1280x720 --present"
  "training 1600x900 --present --lang zh"
  "training 3840x2160 --present"
  "training 1600x900"
  "compare 1280x720 --present"
  "compare 1280x720 --present --lang zh"
  "compare 1920x1080 --present"
  "compare 3840x2160 --present --lang zh"
  "compare 1600x900"
)

# The start of a text each view must show, so that a frame with only a "too small" notice does
# not pass.
must_show() {
  case "$1 $2" in
    "training "*"--lang zh"*) echo "参数分歧" ;;
    "training "*) echo "Parameter spread" ;;
    "compare "*) echo "1 KiB" ;;
    "ring "*) echo "GPU 0" ;;
  esac
}

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
  must=$(must_show "$view" "$extra")
  if ! grep -q '"texts": \[$' "$out" || { [ -n "$must" ] && ! grep -q "\"text\": \"$must" "$out"; }; then
    echo "FAIL: ringviz --view $view --size $size $extra: $out lists no texts${must:+ or not \"$must\"}"
    exit 1
  fi
  python3 "$here/text_overlap.py" --expect-view "$view" "$out" || status=1
done
exit $status
