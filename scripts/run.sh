#!/usr/bin/env bash
# `make run`: start the GUI where there is a display; without one, record the default lesson
# to a video headless (EGL) instead of failing, and say where it is.
set -uo pipefail
ringviz=${1:-build/app/ringviz}

if ! "$ringviz" --help 2>/dev/null | grep -q -- '--headless'; then
  # A build without the GUI: show the default lesson as a trace.
  exec "$ringviz" trace
fi

if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  exec "$ringviz"
fi

mkdir -p out
echo "ringviz: no display found (DISPLAY is not set); recording the default lesson headless instead."
# 720p at 30 fps keeps this to a minute or two on a small machine; `ringviz record --help` has
# the options for 1080p60, GIFs and PNG frames.
if command -v ffmpeg > /dev/null 2>&1; then
  out=out/ringviz-default-lesson.mp4
else
  echo "ringviz: ffmpeg is not installed (apt-get install ffmpeg), so the lesson is written as PNG frames."
  out=out/ringviz-default-lesson/
fi
if "$ringviz" record --lesson default --out "$out" --size 1280x720 --fps 30; then
  echo "ringviz: the default lesson is in $(cd "$(dirname "$out")" && pwd)/$(basename "$out") (open it with any video player)."
else
  status=$?
  echo "ringviz: recording failed (exit $status); try: $ringviz --headless --screenshot out/ringviz-default.png" >&2
  exit $status
fi
