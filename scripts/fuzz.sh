#!/usr/bin/env bash
# Runs the parsers' libFuzzer targets (tests/fuzz) for a bounded time each, failing on any crash
# or sanitizer report (docs/architecture.md, "Reading input files"). They are built by the
# sanitizer build (`make build-sanitizers`, build-asan/), whose core they link.
#   scripts/fuzz.sh [sanitizer-build-dir] [seconds per target]
# Where that build has none (no clang++, or no libFuzzer runtime), it says why and skips (exit 0):
# scripts/install-deps.sh installs both (packages clang and libclang-rt-14-dev on Debian 12).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-asan}
seconds=${2:-20}

if [ ! -x "$build/tests/fuzz/fuzz_init_file" ]; then
  compiler=$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt" 2>/dev/null || true)
  echo "ringviz: fuzzing skipped: $build has no fuzz targets; they need clang++ with libFuzzer" \
       "(this build's compiler: ${compiler:-none configured}; install clang and libclang-rt-14-dev," \
       "then rerun make test)"
  exit 0
fi

# Each target: a scratch corpus (new inputs land there, not in the repository) plus the seeds.
run_target() {
  local target=$1 max_len=$2
  shift 2
  local corpus="$build/corpus/$target"
  mkdir -p "$corpus"
  echo "ringviz: fuzzing $target for ${seconds}s"
  (cd "$build" && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
    "./tests/fuzz/$target" -max_total_time="$seconds" -max_len="$max_len" -timeout=10 \
      -rss_limit_mb=2048 -print_final_stats=1 "corpus/$target" "$@" 2>&1 | tail -n 25)
}
run_target fuzz_init_file 4096 "$PWD/tests/fuzz/seeds/init"
run_target fuzz_lesson 16384 "$PWD/assets/lessons"
run_target fuzz_settings 4096 "$PWD/tests/fuzz/seeds/settings"
run_target fuzz_trace_read 16384 "$PWD/tests/fuzz/seeds/trace"
run_target fuzz_job_import 16384 "$PWD/tests/fuzz/seeds/job"
