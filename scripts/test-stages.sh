#!/usr/bin/env bash
# Times the stages of `make test` and prints them as a table at the end, so that a slow suite
# shows where its minutes went (docs/architecture.md, "How long make test takes").
#   scripts/test-stages.sh start LOG              forget earlier stages
#   scripts/test-stages.sh run LOG NAME CMD...    run one stage, append its times to LOG
#   scripts/test-stages.sh summary LOG            print the table
# Each stage gets its wall time and its CPU time (user + system of everything it ran): on a
# machine shared with other work the wall time grows, the CPU time hardly does. A failing stage
# still prints the table (the stages so far, it marked FAILED) and `run` exits with its status.
set -uo pipefail

# Sets cpu_seconds to the CPU time of this shell's finished children so far. `times` prints the
# shell's own user/system times, then its children's ("0m1.250s 0m0.310s"); it must run in this
# shell, not in a $(...) subshell, which has no children of its own.
cpu_seconds=0
read_children_cpu() {
  local scratch
  scratch=$(mktemp)
  times > "$scratch"
  cpu_seconds=$(awk 'END { total = 0
                           for (f = 1; f <= 2; ++f) { split($f, p, "m"); sub("s", "", p[2]); total += p[1] * 60 + p[2] }
                           printf "%.1f", total }' "$scratch")
  rm -f "$scratch"
}

summary() {
  local log=$1
  [ -f "$log" ] || return 0
  echo
  echo "make test, stage by stage (wall: elapsed; CPU: user + system, all cores):"
  awk -F'\t' '
    { name[NR] = $1; wall[NR] = $2; cpu[NR] = $3; state[NR] = $4; tw += $2; tc += $3 }
    function clock(s) { return sprintf("%d:%02d", int(s / 60), int(s % 60)) }
    END {
      printf "  %-20s %8s %9s\n", "stage", "wall", "CPU"
      for (i = 1; i <= NR; ++i)
        printf "  %-20s %8s %9s%s\n", name[i], clock(wall[i]), clock(cpu[i]), state[i] == "ok" ? "" : "  " state[i]
      printf "  %-20s %8s %9s\n", "total", clock(tw), clock(tc)
    }' "$log"
}

command=${1:-}
log=${2:-}
if [ -z "$command" ] || [ -z "$log" ]; then
  echo "usage: $0 start|run|summary LOG [NAME CMD...]" >&2
  exit 2
fi

case "$command" in
  start)
    mkdir -p "$(dirname "$log")"
    : > "$log"
    ;;
  run)
    if [ $# -lt 4 ]; then
      echo "usage: $0 run LOG NAME CMD..." >&2
      exit 2
    fi
    name=$3
    shift 3
    mkdir -p "$(dirname "$log")"
    started=$(date +%s.%N)
    read_children_cpu
    cpu_before=$cpu_seconds
    "$@"
    status=$?
    read_children_cpu
    cpu_after=$cpu_seconds
    ended=$(date +%s.%N)
    state=ok
    [ "$status" -eq 0 ] || state="FAILED (exit $status)"
    awk -v n="$name" -v s="$started" -v e="$ended" -v b="$cpu_before" -v a="$cpu_after" -v st="$state" \
      'BEGIN { printf "%s\t%.1f\t%.1f\t%s\n", n, e - s, a - b, st }' >> "$log"
    if [ "$status" -ne 0 ]; then
      summary "$log"
      exit "$status"
    fi
    ;;
  summary)
    summary "$log"
    ;;
  *)
    echo "usage: $0 start|run|summary LOG [NAME CMD...]" >&2
    exit 2
    ;;
esac
