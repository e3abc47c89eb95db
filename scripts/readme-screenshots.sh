#!/usr/bin/env bash
# Renders the README's screenshots into docs/ with a built ringviz, headless, with no settings
# file, so that anyone can redo them and compare pixels after a change:
#   scripts/readme-screenshots.sh build/app/ringviz [OUT_DIR]
# The committed PNGs come from a build without CUDA (the bottom bar's note says so).
set -euo pipefail
ringviz=${1:?usage: readme-screenshots.sh PATH/TO/ringviz [OUT_DIR]}
out=${2:-$(dirname "$0")/../docs}
export RINGVIZ_SETTINGS=off
shot() {
  local name=$1
  shift
  env -u DISPLAY -u WAYLAND_DISPLAY "$ringviz" --headless --size 1600x900 "$@" --screenshot "$out/$name.png"
}
shot allreduce --op allreduce --round 2.3
shot allgather-mid-round --op allgather --round 1.3
shot reducescatter-end --op reducescatter --round 3
shot replay-straggler --open "$(dirname "$0")/../assets/captures/straggler-4gpus.json" --round 2.4
shot memory-reduce-scatter --view memory --round 3.4
# One frame of a lesson's stage: record it from second `from` for one second at 1 fps.
stage_frame() {
  local name=$1 lesson=$2 from=$3
  local frames
  frames=$(mktemp -d)
  env -u DISPLAY -u WAYLAND_DISPLAY "$ringviz" record --lesson "$lesson" --size 1280x720 --fps 1 --from "$from" \
    --seconds 1 --out "$frames/" >/dev/null
  cp "$frames"/*.png "$out/$name.png"
  rm -rf "$frames" "$frames.srt" "$frames.vtt"
}
stage_frame lesson-06-allreduce 06-ddp-vs-zero2 18
stage_frame lesson-08-ledger 08-112gb-in-80gb 10
echo "wrote $out/allreduce.png, allgather-mid-round.png, reducescatter-end.png, replay-straggler.png," \
  "memory-reduce-scatter.png, lesson-06-allreduce.png, lesson-08-ledger.png"
