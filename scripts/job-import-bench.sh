#!/usr/bin/env bash
# How fast `ringviz job import` reads a large profiler trace, and with how much memory, beside
# two baselines measured in the same run on the same file: reading its bytes (cat) and
# Python's json.load (what a script that reads traces usually does).
# Usage: scripts/job-import-bench.sh [BUILD_DIR] [MEGABYTES]     (default: build, 200)
set -euo pipefail
build=${1:-build}
megabytes=${2:-200}
ringviz="$build/app/ringviz"
[[ -x "$ringviz" ]] || { echo "job-import-bench: $ringviz is not built; run make build first" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
trace="$work/rank0.json"
python3 "$(dirname "$0")/../tests/bench/make_kineto_trace.py" "$trace" "$megabytes"
bytes=$(stat -c %s "$trace")

# Prints "seconds peak_rss_kib" of a command run to completion.
measure() {
  /usr/bin/time -f "%e %M" -o "$work/time" "$@" > /dev/null
  cat "$work/time"
}
row() {
  local name=$1 seconds=$2 rss=$3
  awk -v n="$name" -v s="$seconds" -v r="$rss" -v b="$bytes" \
    'BEGIN { printf "%-28s %8.2f s %9.0f MB/s %9.1f MB peak RSS\n", n, s, (s > 0 ? b / 1e6 / s : 0), r / 1024 }'
}
echo "trace: $((bytes / 1000000)) MB"
read -r s m < <(measure cat "$trace"); row "cat (reading the bytes)" "$s" "$m"
read -r s m < <(measure python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$trace")
row "python3 json.load" "$s" "$m"
read -r s m < <(measure "$ringviz" job import "$trace" --out "$work/job.json" --quiet)
row "ringviz job import" "$s" "$m"
gzip -1 -k "$trace"
read -r s m < <(measure "$ringviz" job import "$trace.gz" --out "$work/job.json" --quiet)
row "ringviz job import (.gz)" "$s" "$m"
