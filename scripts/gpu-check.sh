#!/usr/bin/env bash
# The whole GPU check in one go, for a bare GPU machine (CMake, nvcc, ninja and a C++20
# compiler; no apt, no network, no X server): configure with the GUI (from .gpu-deps/), build,
# run the CUDA test suite, render headless screenshots with the CPU and the CUDA backends and
# compare their pixels, run `ringviz bench` in both modes at 1 MiB to 1 GiB per rank with 2, 4
# and 8 ranks, time each round of the 8-rank 256 MiB AllReduce, run `ringviz capture` where an
# MPI launcher exists, and print one summary table. Meant to finish within 8 minutes on 16
# cores: every stage has a timeout, and past RINGVIZ_GPU_CHECK_SOFT_SECONDS (390) the largest
# sizes are skipped, which the summary says.
#
# The build's dependencies come from .gpu-deps/, which scripts/prepare-gpu-deps.sh makes on
# the developer machine; carry it along. Where the GUI cannot be configured from it the build
# falls back to no GUI, skips the screenshots and says so. Logs, screenshots and the summary go
# to <build>/logs; where $OUT is set (the device tool returns at most 8 files from there) it
# receives summary.txt, gpu-check-logs.tar.gz (the whole logs folder) and two CUDA screenshots.
#
# Environment: RINGVIZ_CUDA_ARCH (default: the GPU's own compute capability),
# RINGVIZ_GPU_CHECK_BUILD (default build-gpu-check), RINGVIZ_GPU_CHECK_MAX_SIZE (default 1G),
# RINGVIZ_GPU_CHECK_CMAKE_ARGS (more configure arguments, e.g. a compiler launcher),
# RINGVIZ_GPU_CHECK_BUILD_SECONDS (default 300, the build's timeout),
# RINGVIZ_GPU_CHECK_DRY_RUN=1: on a machine without a GPU, build without CUDA and run every
# stage with --backend cpu (sizes up to 4M) to check this script's own logic.
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 1
started=$(date +%s)
elapsed() { echo $(($(date +%s) - started)); }
say() { printf '[gpu-check %3ss] %s\n' "$(elapsed)" "$*"; }

deps="${RINGVIZ_GPU_CHECK_DEPS:-$root/.gpu-deps}"  # another folder only to test the script
build="${RINGVIZ_GPU_CHECK_BUILD:-$root/build-gpu-check}"
logs="$build/logs"
dry="${RINGVIZ_GPU_CHECK_DRY_RUN:-0}"
soft_seconds="${RINGVIZ_GPU_CHECK_SOFT_SECONDS:-390}"  # past this, no more large sizes
hard_seconds="${RINGVIZ_GPU_CHECK_HARD_SECONDS:-450}"  # past this, only the summary
max_size="${RINGVIZ_GPU_CHECK_MAX_SIZE:-1G}"
goal_size=256M  # the size the goals are stated for (docs/gpu.md, "The benchmark")
if [ "$dry" = 1 ]; then
  max_size="${RINGVIZ_GPU_CHECK_MAX_SIZE:-4M}"
  goal_size=4M
fi
read -r -a extra_cmake <<<"${RINGVIZ_GPU_CHECK_CMAKE_ARGS:-}"
rm -rf "$logs"
mkdir -p "$logs/shots"
summary="$logs/summary.txt"
: >"$summary"
export_results() {
  [ -n "${OUT:-}" ] && [ -d "$OUT" ] || return 0
  cp "$summary" "$OUT/summary.txt"
  tar -czf "$OUT/gpu-check-logs.tar.gz" -C "$build" logs
  for shot in heat-64M-8-gpu mid-round-4-gpu; do
    if [ -f "$logs/shots/$shot.png" ]; then cp "$logs/shots/$shot.png" "$OUT/"; fi
  done
}
trap export_results EXIT
note() { echo "$*" | tee -a "$summary"; }
python=$(command -v python3 || true)

# ---- toolchain ----
nvcc=$(command -v nvcc || true)
[ -z "$nvcc" ] && [ -x /usr/local/cuda/bin/nvcc ] && nvcc=/usr/local/cuda/bin/nvcc
if [ -z "$nvcc" ] && [ "$dry" != 1 ]; then
  echo "gpu-check: nvcc not found (put the CUDA toolkit's bin/ on PATH)" >&2
  exit 1
fi
if [ ! -f "$deps/usr/share/cmake/CLI11/CLI11Config.cmake" ]; then
  echo "gpu-check: $deps is missing: run scripts/prepare-gpu-deps.sh on the developer machine and carry .gpu-deps" >&2
  exit 1
fi
arch="${RINGVIZ_CUDA_ARCH:-}"
gpu_name="none" driver="unknown"
if command -v nvidia-smi >/dev/null 2>&1; then
  gpu_name=$(nvidia-smi --query-gpu=name,memory.total --format=csv,noheader 2>/dev/null | head -1)
  driver=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -1)
  [ -z "$arch" ] && arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d ' .')
fi
# No GPU to ask (a trial run on a developer machine): Hopper, the target of the goals.
[ -z "$arch" ] && arch=90
jobs=$(nproc 2>/dev/null || echo 4)
toolkit=$([ -n "$nvcc" ] && "$nvcc" --version | sed -n 's/.*release \([0-9.]*\).*/\1/p')
backend=cuda
cuda_args=(-DCMAKE_CUDA_COMPILER="$nvcc" -DCMAKE_CUDA_ARCHITECTURES="$arch")
if [ "$dry" = 1 ]; then
  backend=cpu
  cuda_args=(-DRINGVIZ_CUDA=OFF)
fi
note "gpu-check: $(uname -n), ${jobs} cores, nvcc ${toolkit:-none}, GPU: ${gpu_name:-none}, driver ${driver:-unknown}, sm_${arch}$([ "$dry" = 1 ] && echo ', DRY RUN (--backend cpu)')"

# ---- the NVIDIA driver's EGL, for the interop test and the headless GUI ----
# The carried glvnd libEGL/libGL dispatch to the driver's EGL (libEGL_nvidia), which its
# vendor file names; where the machine has no libEGL of its own the carried one is used.
egl_libraries=""
ldconfig -p 2>/dev/null | grep -q 'libEGL.so.1 ' || egl_libraries="$deps/runtime/usr/lib/x86_64-linux-gnu"
for folder in /usr/local/nvidia/lib64 /usr/local/nvidia/lib; do
  [ -d "$folder" ] && egl_libraries="${egl_libraries:+$egl_libraries:}$folder"
done
for vendor in /usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json /usr/share/glvnd/egl_vendor.d/10_nvidia.json; do
  if [ -z "${__EGL_VENDOR_LIBRARY_FILENAMES:-}" ] && [ -f "$vendor" ]; then
    export __EGL_VENDOR_LIBRARY_FILENAMES="$vendor"
  fi
done
gui_libraries="$deps/usr/lib/x86_64-linux-gnu"
# Runs ringviz for at most $1 seconds with the carried GUI libraries and the driver's EGL
# found, without a display.
ringviz_run() {
  local seconds=$1
  shift
  timeout "$seconds" env -u DISPLAY -u WAYLAND_DISPLAY RINGVIZ_SETTINGS=off \
    LD_LIBRARY_PATH="$gui_libraries${egl_libraries:+:$egl_libraries}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
    "$ringviz" "$@"
}

# ---- configure and build ----
configure() {
  timeout 120 cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release "${cuda_args[@]}" \
    -DCMAKE_PREFIX_PATH="$deps/usr" "${extra_cmake[@]}" "$@" >>"$logs/configure.log" 2>&1
}
: >"$logs/configure.log"
gui_status="built"
say "configuring with the GUI (from .gpu-deps) in $build"
if ! "$deps/bin/pkg-config" --exists imgui 2>>"$logs/configure.log"; then
  gui_status="not built: the carried pkg-config cannot find imgui in .gpu-deps (rerun scripts/prepare-gpu-deps.sh)"
elif ! configure -DRINGVIZ_GUI=ON -DPKG_CONFIG_EXECUTABLE="$deps/bin/pkg-config" \
    "-DCMAKE_EXE_LINKER_FLAGS=-Wl,-rpath-link,$gui_libraries"; then
  gui_status="not built: configuring with the GUI failed (configure.log)"
fi
if [ "$gui_status" != built ]; then
  say "GUI $gui_status; configuring without it"
  if ! configure -DRINGVIZ_GUI=OFF; then
    tail -30 "$logs/configure.log"
    note "RESULT: configure FAILED (see configure.log)"
    exit 1
  fi
fi
grep -E "ringviz:" "$logs/configure.log" | sort -u | tee -a "$summary"
targets=(ringviz)
[ "$dry" != 1 ] && targets+=(ringviz_gpu_tests)
capture_target=""
ninja -C "$build" -t targets all 2>/dev/null | grep -q '^ringviz-capture:' && capture_target="ringviz-capture"
build_seconds="${RINGVIZ_GPU_CHECK_BUILD_SECONDS:-300}"
build_targets() { timeout "$build_seconds" ninja -C "$build" -j "$jobs" "$@" >>"$logs/build.log" 2>&1; }
: >"$logs/build.log"
say "building ${targets[*]} with $jobs jobs"
build_targets "${targets[@]}"
build_rc=$?
if [ "$build_rc" = 124 ]; then
  # Out of time, not broken: a second build without the GUI would only run out of time again.
  note "RESULT: build timed out after $build_seconds s (see build.log; RINGVIZ_GPU_CHECK_BUILD_SECONDS raises the limit)"
  exit 1
fi
if [ "$build_rc" != 0 ]; then
  # A GUI that configured but does not compile or link against the carried libraries should
  # not cost the CUDA results: build again without it.
  if [ "$gui_status" = built ] && say "the build with the GUI failed; building without it" &&
      configure -DRINGVIZ_GUI=OFF && build_targets "${targets[@]}"; then
    gui_status="not built: the build with the GUI failed (build.log); built without it"
  else
    grep -E "error|FAILED" -A5 "$logs/build.log" | head -60
    note "RESULT: build FAILED, or timed out after $build_seconds s (see build.log)"
    exit 1
  fi
fi
capture_status="skipped: ringviz-capture is not part of this build (no MPI found at configure time, or capture has not landed)"
if [ -n "$capture_target" ] && ! build_targets "$capture_target"; then
  capture_status="FAILED to build ringviz-capture (build.log)"
  capture_target=""
fi
ringviz="$build/app/ringviz"
if [ "$gui_status" = built ]; then
  missing=$(env LD_LIBRARY_PATH="$gui_libraries" ldd "$ringviz" 2>/dev/null | grep "not found" | tr -s ' \t' ' ')
  [ -n "$missing" ] && gui_status="built, but libraries are missing:$missing"
fi
say "built (GUI $gui_status)"

# ---- CUDA tests ----
tests_result="skipped: no CUDA in this build (dry run)"
tests_counts="-"
tests_rc=77
if [ "$dry" != 1 ]; then
  say "running the CUDA test suite"
  LD_LIBRARY_PATH="${egl_libraries:+$egl_libraries:}${LD_LIBRARY_PATH:-}" timeout 240 \
    "$build/tests/gpu/ringviz_gpu_tests" >"$logs/tests.log" 2>&1
  tests_rc=$?
  tail -25 "$logs/tests.log"
  case $tests_rc in
    0) tests_result="PASSED" ;;
    77) tests_result="SKIPPED: $(grep -m1 '^SKIPPED' "$logs/tests.log" | sed 's/^SKIPPED: //')" ;;
    124) tests_result="TIMED OUT after 240 s" ;;
    *) tests_result="FAILED (exit $tests_rc)" ;;
  esac
  # doctest's last "test cases:" line: N | N passed | N failed | N skipped.
  tests_counts=$(grep '^\[doctest\] test cases:' "$logs/tests.log" | tail -1 |
    sed -E 's/.*test cases: *([0-9]+) \| *([0-9]+) passed \| *([0-9]+) failed \| *([0-9]+) skipped.*/\2 passed, \3 failed, \4 skipped of \1/')
  grep -o 'MESSAGE: .*' "$logs/tests.log" | sed 's/^MESSAGE: /  /' | sort -u | head -20 >"$logs/test-messages.txt"
  if [ "$tests_rc" = 77 ]; then
    note "CUDA tests: $tests_result"
    note "RESULT: no GPU was usable here, so nothing ran on a device"
    exit 77
  fi
fi

# ---- bench: step and fast, 2/4/8 ranks, 1 MiB to max_size per rank; the goal size first ----
# Each run appends its table rows to bench.tsv as: ranks mode size time_us traffic memcpy wrong.
bench_table="$logs/bench.tsv"
: >"$bench_table"
bench_failures=0
skipped_sizes=()
bench_run() {
  local ranks=$1 mode=$2 low=$3 high=$4 seconds=$5
  local log="$logs/bench-$ranks-$mode-$low-$high.log"
  say "bench $ranks ranks, $mode, $low..$high"
  ringviz_run "$seconds" bench --backend "$backend" --op allreduce --gpus "$ranks" -b "$low" -e "$high" -f 4 \
    --mode "$mode" -w 1 -i 0 >"$log" 2>&1
  local rc=$?
  # Rows: size count type redop time algbw busbw #wrong traffic memcpy fraction.
  awk -v r="$ranks" -v m="$mode" '/^ +[0-9]/ { print r, m, $1, $5, $9, $10, $8 }' "$log" >>"$bench_table"
  if [ "$rc" = 2 ] && grep -q "does not fit\|is available" "$log"; then
    # The host's memory check refused the size (a VM whose memory grows on demand can report
    # little free): a size not measured, not a failure.
    skipped_sizes+=("$ranks ranks $mode $low..$high (host memory: $(tail -1 "$log"))")
  elif [ "$rc" != 0 ]; then
    bench_failures=$((bench_failures + 1))
    if [ "$rc" = 124 ]; then note "bench $ranks ranks $mode $low..$high: TIMED OUT after $seconds s"
    else note "bench $ranks ranks $mode $low..$high: FAILED: $(grep -v '^#' "$log" | tail -1)"; fi
  fi
  grep -E "^# (backend|NCCL|ring sent)|nccl ring" "$log" | sort -u >>"$logs/bench-notes.txt"
}
: >"$logs/bench-notes.txt"
# The goal size first, at 8 ranks, fast and step, before anything that can wait: if the build
# or the tests took long, these are the figures the check exists for.
bench_run 8 fast "$goal_size" "$goal_size" 75
bench_run 8 step "$goal_size" "$goal_size" 75

# ---- headless screenshots: the CPU and the CUDA backends, compared by pixels ----
shot_configs=(
  "f32-sum-8:--gpus 8 --dtype f32 --reduce sum --count 64 --round 7"
  "bf16-avg-4:--gpus 4 --dtype bf16 --reduce avg --init random:3 --count 64 --round 6"
  "heat-64M-8:--gpus 8 --count 64M --round 9"
  "mid-round-4:--gpus 4 --round 2.5"
)
shot_lines=()
shot_failures=0
# A string in a layout dump, by its path of keys ("graphics backend"); a search for the last
# key's first occurrence where there is no python3. Empty when absent.
json_field() {
  local file=$1
  shift
  if [ -n "$python" ]; then
    "$python" -c 'import json, sys
value = json.load(open(sys.argv[1]))
for key in sys.argv[2:]:
    value = value.get(key, {}) if isinstance(value, dict) else {}
print(value if isinstance(value, str) else "")' "$file" "$@" 2>/dev/null
  else
    grep -o "\"${!#}\": *\"[^\"]*\"" "$file" 2>/dev/null | head -1 | sed -E 's/.*: *"(.*)"/\1/'
  fi
}
if [ "$gui_status" = built ] || [[ "$gui_status" == built,* ]]; then
  for entry in "${shot_configs[@]}"; do
    name=${entry%%:*}
    read -r -a flags <<<"${entry#*:}"
    # Without a GPU the CPU backend draws both; 4M elements still make heat strips.
    [ "$dry" = 1 ] && flags=("${flags[@]/#64M/4M}")
    if [ "$(elapsed)" -gt "$hard_seconds" ]; then
      shot_lines+=("$name: skipped (past ${hard_seconds} s)")
      continue
    fi
    say "screenshot $name: ${flags[*]}"
    ok=1
    for tag in cpu gpu; do
      which=cpu
      [ "$tag" = gpu ] && which=$backend
      if ! ringviz_run 120 --headless --size 1280x720 --backend "$which" "${flags[@]}" \
          --screenshot "$logs/shots/$name-$tag.png" --dump-layout "$logs/shots/$name-$tag.json" \
          >"$logs/shots/$name-$tag.log" 2>&1; then
        shot_lines+=("$name: --backend $which FAILED: $(tail -1 "$logs/shots/$name-$tag.log")")
        ok=0
        break
      fi
    done
    if [ "$ok" = 0 ]; then
      shot_failures=$((shot_failures + 1))
      continue
    fi
    gpu_json="$logs/shots/$name-gpu.json"
    drawn="backend $(json_field "$gpu_json" graphics backend), GL '$(json_field "$gpu_json" graphics gl_context)'"
    # The interop work adds where the cells came from; top level or beside the backend.
    cells=$(json_field "$gpu_json" cell_source)
    [ -z "$cells" ] && cells=$(json_field "$gpu_json" graphics cell_source)
    if cmp -s "$logs/shots/$name-cpu.png" "$logs/shots/$name-gpu.png"; then
      pixels="identical"
    elif [ -n "$python" ]; then
      pixels=$("$python" "$root/scripts/png_diff.py" "$logs/shots/$name-cpu.png" "$logs/shots/$name-gpu.png" \
        "$logs/shots/$name-cpu.json" 2>&1 | tail -1)
    else
      pixels="the PNG files differ (no python3 to count pixels)"
    fi
    [ "$(json_field "$gpu_json" graphics backend)" = "$backend" ] || shot_failures=$((shot_failures + 1))
    shot_lines+=("$name: $pixels; $drawn; cells from ${cells:-unknown}")
  done
else
  shot_lines+=("skipped: GUI $gui_status")
fi

# ---- the rest of the bench: 1 MiB to 64 MiB in one run each, larger sizes one at a time ----
# Sizes past 64M run one per invocation, so the time budget can stop between them.
large_sizes=()
for size in 256M 1G; do
  [ "$(numfmt --from=iec "$size" 2>/dev/null || echo 0)" -le "$(numfmt --from=iec "$max_size" 2>/dev/null || echo 0)" ] &&
    large_sizes+=("$size")
done
small_high=64M
[ "$(numfmt --from=iec "$max_size")" -lt "$(numfmt --from=iec 64M)" ] && small_high=$max_size
for ranks in 2 4 8; do
  for mode in step fast; do
    if [ "$(elapsed)" -gt "$hard_seconds" ]; then
      skipped_sizes+=("$ranks ranks $mode 1M..$small_high")
      continue
    fi
    bench_run "$ranks" "$mode" 1M "$small_high" 90
  done
done
for size in "${large_sizes[@]}"; do
  for ranks in 8 4 2; do
    for mode in fast step; do
      [ "$ranks" = 8 ] && [ "$size" = "$goal_size" ] && continue  # measured first
      if [ "$(elapsed)" -gt "$soft_seconds" ]; then
        skipped_sizes+=("$ranks ranks $mode $size")
        continue
      fi
      bench_run "$ranks" "$mode" "$size" "$size" 75
    done
  done
done

# ---- per-round times, 8 ranks at the goal size per rank (256 MiB: 64M f32 elements) ----
round_times="not measured"
if [ "$(elapsed)" -gt "$soft_seconds" ]; then
  round_times="skipped (past ${soft_seconds} s)"
elif [ -n "$python" ]; then
  # f32: a quarter of the goal size in elements.
  rounds_count=$(($(numfmt --from=iec "$goal_size") / 4))
  say "per-round times: trace --gpus 8 --count $rounds_count --format chrome"
  if ringviz_run 90 trace --backend "$backend" --gpus 8 --count "$rounds_count" --format chrome \
      >"$logs/rounds.json" 2>"$logs/rounds.err"; then
    round_times=$("$python" -c '
import json, sys
events = json.load(open(sys.argv[1]))["traceEvents"]
rounds = sorted((e for e in events if e.get("cat") == "round"), key=lambda e: e["args"]["round"])
timing = rounds[0]["args"].get("timing", "?") if rounds else "?"
print(timing + ", us: " + " ".join("%.0f" % e["dur"] for e in rounds))' "$logs/rounds.json" 2>&1 | tail -1)
  else
    round_times="FAILED: $(tail -1 "$logs/rounds.err")"
  fi
else
  round_times="skipped: no python3 to read the trace"
fi

# ---- ringviz capture over MPI (and NCCL between GPUs) ----
capture_lines=()
if [ -z "$capture_target" ]; then
  capture_lines+=("$capture_status")
elif ! command -v mpirun >/dev/null 2>&1; then
  capture_lines+=("skipped: no MPI launcher on this machine (mpirun not found)")
elif [ "$(elapsed)" -gt "$hard_seconds" ]; then
  capture_lines+=("skipped (past ${hard_seconds} s)")
else
  gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
  transports=(mpi nccl)
  [ "$dry" = 1 ] && transports=(mpi)  # NCCL needs GPUs
  for transport in "${transports[@]}"; do
    processes=2
    [ "$transport" = nccl ] && processes=$((${gpus:-0} > 0 ? gpus : 1))
    say "capture --transport $transport with $processes processes"
    if OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout 60 mpirun --oversubscribe -np "$processes" \
        "$build/app/ringviz-capture" --transport "$transport" --gpus "$processes" --count 1M \
        --out "$logs/capture-$transport.json" >"$logs/capture-$transport.log" 2>&1; then
      capture_lines+=("--transport $transport, $processes processes: OK (capture-$transport.json)")
    else
      capture_lines+=("--transport $transport, $processes processes: FAILED: $(tail -1 "$logs/capture-$transport.log")")
    fi
  done
fi

# ---- summary ----
# One row per ranks x size: traffic GB/s in each mode, the copy baseline, the ratios.
bench_rows=$(awk '
  { key = $1 " " $3; seen[key] = 1; ranks[key] = $1; size[key] = $3
    if ($2 == "step") { step[key] = $5; step_us[key] = $4 } else { fast[key] = $5; fast_us[key] = $4; copy[key] = $6 }
    if ($7 != 0) wrong[key] += $7 }
  END {
    for (key in seen) {
      s = (key in step) ? sprintf("%8.1f", step[key]) : "       -"
      f = (key in fast) ? sprintf("%8.1f", fast[key]) : "       -"
      c = (key in copy) ? sprintf("%8.1f", copy[key]) : "       -"
      fc = (key in fast && copy[key] > 0) ? sprintf("%6.2f", fast[key] / copy[key]) : "     -"
      fs = (key in fast && key in step && step[key] > 0) ? sprintf("%6.2f", fast[key] / step[key]) : "     -"
      printf "%5d %12d %s %s %s %s %s%s\n", ranks[key], size[key], s, f, c, fc, fs, (key in wrong) ? "  WRONG VALUES" : ""
    } }' "$bench_table" | sort -k1,1n -k2,2n)
# The goals, at 8 ranks and the goal size per rank.
goal_key="8 $(numfmt --from=iec "$goal_size")"
fast_copy=$(awk -v k="$goal_key" '$1 " " $3 == k && $2 == "fast" && $6 > 0 { v = sprintf("%.3f", $5 / $6) } END { if (v != "") print v }' "$bench_table")
fast_us=$(awk -v k="$goal_key" '$1 " " $3 == k && $2 == "fast" { v = $4 } END { if (v != "") print v }' "$bench_table")
step_us=$(awk -v k="$goal_key" '$1 " " $3 == k && $2 == "step" { v = $4 } END { if (v != "") print v }' "$bench_table")
verdict() { if [ -z "$1" ]; then echo "NOT MEASURED"; elif awk "BEGIN { exit !($1) }"; then echo PASS; else echo FAIL; fi; }
goal_copy=$(verdict "${fast_copy:+$fast_copy >= 0.8}")
goal_step=$(verdict "${fast_us:+${step_us:+$step_us <= 2 * $fast_us}}")
runtime_line=$(grep -m1 '^# backend' "$logs/bench-notes.txt" | sed 's/^# //')

{
  echo
  echo "================ gpu-check summary ================"
  echo "GPU:          ${gpu_name:-none}; driver ${driver:-unknown}; nvcc ${toolkit:-none}"
  echo "bench says:   ${runtime_line:-no bench output}"
  echo "GUI build:    $gui_status"
  echo "CUDA tests:   $tests_result; ${tests_counts:-counts unknown}"
  [ -s "$logs/test-messages.txt" ] && cat "$logs/test-messages.txt"
  echo "screenshots (--backend cpu against --backend $backend, 1280x720):"
  for line in "${shot_lines[@]}"; do echo "  $line"; done
  echo "bench, AllReduce, traffic GB/s (memory moved per second), copy = device-to-device baseline:"
  echo "ranks   size (B)     step     fast     copy  fast/copy fast/step"
  echo "${bench_rows:-  (no rows)}"
  [ "${#skipped_sizes[@]}" -gt 0 ] &&
    echo "  skipped (for time: large sizes past ${soft_seconds} s, all past ${hard_seconds} s; or host memory):" &&
    printf '    %s\n' "${skipped_sizes[@]}"
  grep -q "nccl ring" "$logs/bench-notes.txt" && grep "nccl ring" "$logs/bench-notes.txt" | head -6
  grep -q "nccl ring" "$logs/bench-notes.txt" || echo "  NCCL: no 'nccl ring' line (one GPU, or libnccl not found)"
  echo "per-round times, 8 ranks x $goal_size: $round_times"
  echo "goal fast/copy >= 0.8 at 8 ranks $goal_size: ${fast_copy:-?} $goal_copy"
  echo "goal step within 2x of fast at 8 ranks $goal_size: step ${step_us:-?} us, fast ${fast_us:-?} us $goal_step"
  echo "capture:"
  for line in "${capture_lines[@]}"; do echo "  $line"; done
  echo "elapsed: $(elapsed) s; logs in $logs"
} | tee -a "$summary"
if [ "$tests_rc" != 0 ] && [ "$dry" != 1 ] || [ "$bench_failures" != 0 ] || [ "$shot_failures" != 0 ]; then
  echo "RESULT: FAILED"
  exit 1
fi
echo "RESULT: OK"
