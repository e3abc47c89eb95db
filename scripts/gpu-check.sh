#!/usr/bin/env bash
# The whole GPU check in one go, for a bare GPU machine (CMake, nvcc, ninja and a C++20
# compiler; no apt, no network): configure without the GUI, build, run the CUDA test suite,
# check that a CUDA trace carries per-round times, run `ringviz bench --backend cuda` at a few
# sizes in both modes, and print a summary. Meant to finish in under 5 minutes on 16 cores.
#
# Header-only dependencies come from .gpu-deps/, which scripts/prepare-gpu-deps.sh makes on
# the developer machine; carry it along. Logs go to $OUT when set (the device tool returns
# what is there), else to the build folder.
#
# Environment: RINGVIZ_CUDA_ARCH (default: the GPU's own compute capability),
# RINGVIZ_GPU_CHECK_BUILD (default build-gpu-check), RINGVIZ_GPU_CHECK_RANKS (default 8).
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
started=$(date +%s)
elapsed() { echo $(( $(date +%s) - started )); }
say() { printf '[gpu-check %3ss] %s\n' "$(elapsed)" "$*"; }

deps="$root/.gpu-deps"
build="${RINGVIZ_GPU_CHECK_BUILD:-$root/build-gpu-check}"
logs="${OUT:-$build/logs}"
ranks="${RINGVIZ_GPU_CHECK_RANKS:-8}"
mkdir -p "$logs"
summary="$logs/summary.txt"
: >"$summary"
note() { echo "$*" | tee -a "$summary"; }

# ---- toolchain ----
nvcc=$(command -v nvcc || true)
[ -z "$nvcc" ] && [ -x /usr/local/cuda/bin/nvcc ] && nvcc=/usr/local/cuda/bin/nvcc
if [ -z "$nvcc" ]; then
  echo "gpu-check: nvcc not found (put the CUDA toolkit's bin/ on PATH)" >&2
  exit 1
fi
if [ ! -f "$deps/usr/share/cmake/CLI11/CLI11Config.cmake" ]; then
  echo "gpu-check: $deps is missing: run scripts/prepare-gpu-deps.sh on the developer machine and carry .gpu-deps" >&2
  exit 1
fi
arch="${RINGVIZ_CUDA_ARCH:-}"
gpu_line=""
if command -v nvidia-smi >/dev/null 2>&1; then
  gpu_line=$(nvidia-smi --query-gpu=name,memory.total,driver_version,compute_cap --format=csv,noheader 2>/dev/null | head -1)
  [ -z "$arch" ] && arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d ' .')
fi
# No GPU to ask (a trial run on a developer machine): Hopper, the target of the goals.
[ -z "$arch" ] && arch=90
jobs=$(nproc 2>/dev/null || echo 4)
note "gpu-check: $(uname -n), ${jobs} cores, nvcc $("$nvcc" --version | sed -n 's/.*release \([0-9.]*\).*/\1/p'), GPU: ${gpu_line:-none reported by nvidia-smi}, sm_${arch}"

# ---- configure and build ----
say "configuring (no GUI) in $build"
if ! cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DRINGVIZ_GUI=OFF \
    -DCMAKE_CUDA_COMPILER="$nvcc" -DCMAKE_CUDA_ARCHITECTURES="$arch" \
    -DCMAKE_PREFIX_PATH="$deps/usr" >"$logs/configure.log" 2>&1; then
  tail -30 "$logs/configure.log"
  note "RESULT: configure FAILED (see configure.log)"
  exit 1
fi
grep -E "ringviz:" "$logs/configure.log" | tee -a "$summary"
say "building ringviz and the CUDA tests with $jobs jobs"
if ! ninja -C "$build" -j "$jobs" ringviz ringviz_gpu_tests >"$logs/build.log" 2>&1; then
  grep -E "error|FAILED" -A5 "$logs/build.log" | head -60
  note "RESULT: build FAILED (see build.log)"
  exit 1
fi
ringviz="$build/app/ringviz"
say "built"

# ---- CUDA tests ----
# The interop test makes a headless GL context through libEGL (glvnd), which dispatches to the
# NVIDIA driver's EGL. Where the machine has no libEGL of its own, use the carried one.
if ! ldconfig -p 2>/dev/null | grep -q 'libEGL.so.1 '; then
  export LD_LIBRARY_PATH="$deps/runtime/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
for folder in /usr/local/nvidia/lib64 /usr/local/nvidia/lib; do
  [ -d "$folder" ] && export LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$folder"
done
for vendor in /usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json /usr/share/glvnd/egl_vendor.d/10_nvidia.json; do
  if [ -z "${__EGL_VENDOR_LIBRARY_FILENAMES:-}" ] && [ -f "$vendor" ]; then
    export __EGL_VENDOR_LIBRARY_FILENAMES="$vendor"
  fi
done
say "running the CUDA test suite"
timeout 240 "$build/tests/gpu/ringviz_gpu_tests" >"$logs/tests.log" 2>&1
tests_rc=$?
tail -25 "$logs/tests.log"
case $tests_rc in
  0) tests_result="PASSED" ;;
  77) tests_result="SKIPPED: $(grep -m1 '^SKIPPED' "$logs/tests.log" | sed 's/^SKIPPED: //')" ;;
  124) tests_result="TIMED OUT after 240 s" ;;
  *) tests_result="FAILED (exit $tests_rc)" ;;
esac
note "CUDA tests: $tests_result"
# What the tests reported on the way (how queued rounds were submitted, the interop check).
grep -o 'MESSAGE: .*' "$logs/tests.log" | sed 's/^MESSAGE: /  /' | sort -u | head -20 | tee -a "$summary"
if [ "$tests_rc" = 77 ]; then
  note "RESULT: no GPU was usable here, so nothing ran on a device"
  exit 77
fi

# ---- a CUDA trace with per-round device times ----
if "$ringviz" trace --backend cuda --gpus 4 --count 1000 --format json >"$logs/trace.json" 2>"$logs/trace.err"; then
  rounds_timed=$(grep -o '"time_us"' "$logs/trace.json" | wc -l)
  note "trace --backend cuda --format json: $rounds_timed of 6 rounds carry time_us"
else
  note "trace --backend cuda: FAILED: $(head -1 "$logs/trace.err")"
fi

# ---- bench ----
bench_failures=0
bench() {
  local name=$1
  shift
  say "bench $name: $*"
  if ! timeout 120 "$ringviz" bench --backend cuda --gpus "$ranks" "$@" >"$logs/bench-$name.log" 2>&1; then
    if grep -q "does not fit\|is available" "$logs/bench-$name.log"; then
      # The host refused the size (a VM whose memory grows on demand can report little free):
      # say so and measure at 64 MiB per rank instead.
      note "bench $name: host memory refused: $(tail -1 "$logs/bench-$name.log"); retrying at 64M"
      local smaller=()
      for argument in "$@"; do smaller+=("${argument/#256M/64M}"); done
      timeout 120 "$ringviz" bench --backend cuda --gpus "$ranks" "${smaller[@]}" >"$logs/bench-$name.log" 2>&1 ||
        { bench_failures=$((bench_failures + 1)); note "bench $name: FAILED: $(tail -2 "$logs/bench-$name.log")"; }
    else
      bench_failures=$((bench_failures + 1))
      note "bench $name: FAILED: $(grep -v '^#' "$logs/bench-$name.log" | tail -2)"
    fi
  fi
  {
    echo "== bench $name: $*"
    grep -E "^# (ringviz bench|backend|NCCL)" "$logs/bench-$name.log"
    grep -E "^#       size|^ +[0-9]|nccl ring|ring sent|Out of bounds" "$logs/bench-$name.log"
  } | tee -a "$summary"
}
bench allreduce-step --op allreduce -b 1M -e 256M -f 16 --mode step -w 1 -i 5
bench allreduce-fast --op allreduce -b 1M -e 256M -f 16 --mode fast -w 2 -i 10
bench reducescatter-fast --op reducescatter -b 256M -e 256M --mode fast -w 2 -i 10
bench allgather-fast --op allgather -b 256M -e 256M --mode fast -w 2 -i 10
if [ "$(elapsed)" -lt 230 ]; then
  # The same fast run without pipelining (whole rounds), to see what chunking buys.
  RINGVIZ_CUDA_CHUNK_BYTES=0 bench allreduce-fast-whole-rounds --op allreduce -b 256M -e 256M --mode fast -w 2 -i 10
fi

# ---- summary ----
echo
echo "================ gpu-check summary ================"
cat "$summary"
echo "elapsed: $(elapsed) s; logs in $logs"
if [ "$tests_rc" != 0 ] || [ "$bench_failures" != 0 ]; then
  echo "RESULT: FAILED"
  exit 1
fi
echo "RESULT: OK"
