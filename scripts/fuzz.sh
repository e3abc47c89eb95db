#!/usr/bin/env bash
# Builds the parsers' libFuzzer targets (tests/fuzz) with clang and runs each for a bounded
# time, failing on any crash or sanitizer report (docs/architecture.md, "Reading input files").
#   scripts/fuzz.sh [build-dir] [seconds per target]
# Without clang++ or its libFuzzer runtime it says why and skips (exit 0): install them with
# scripts/install-deps.sh (packages clang and libclang-rt-14-dev on Debian 12).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-fuzz}
seconds=${2:-20}
jobs=${JOBS:-$(nproc)}

compiler=$(command -v clang++ || true)
if [ -z "$compiler" ]; then
  echo "ringviz: fuzzing skipped: clang++ is not installed (scripts/install-deps.sh installs it)"
  exit 0
fi
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
echo 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) { return 0; }' > "$probe/probe.cpp"
if ! "$compiler" -fsanitize=fuzzer "$probe/probe.cpp" -o "$probe/probe" 2>"$probe/log"; then
  echo "ringviz: fuzzing skipped: $compiler cannot link libFuzzer ($(head -c 200 "$probe/log" | tr '\n' ' '));" \
       "install libclang-rt-14-dev"
  exit 0
fi

cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE= -DRINGVIZ_FUZZ=ON -DRINGVIZ_CUDA=OFF \
  -DRINGVIZ_GUI=OFF -DCMAKE_CXX_COMPILER="$compiler" ${CMAKE_ARGS:-} >/dev/null
cmake --build "$build" -j "$jobs"

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
