#!/bin/sh
# ctest gpu.nccl_capture: `mpirun -np 2 ringviz capture --transport nccl` (docs/architecture.md,
# "The NCCL transport"). Everywhere it is built: a libnccl that cannot be opened is refused with
# exit 2 and the fix. With two GPUs and libnccl: several captures checked round by round against
# the in-process engine (--check-engine), and the --iters table with NCCL's own row. Without
# them it exits 77, which ctest reports as skipped.
# Usage: nccl_capture_check.sh MPIEXEC RINGVIZ WORK_DIR (ringviz-capture beside RINGVIZ)
set -u
mpiexec=$1
ringviz=$2
work=$3
mkdir -p "$work"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
run_two() { "$mpiexec" --oversubscribe -np 2 "$ringviz" capture --transport nccl "$@"; }
fail() { echo "FAILED: $*"; exit 1; }

RINGVIZ_NCCL_LIBRARY=/nonexistent/libnccl.so.2 run_two --count 8 >"$work/missing.out" 2>"$work/missing.err"
status=$?
grep -q "libnccl.so.2 not found on host .*; install NCCL (libnccl2) or use --transport mpi" "$work/missing.err" ||
  fail "no libnccl: expected the install hint, got: $(cat "$work/missing.err")"
[ "$status" -eq 2 ] || fail "no libnccl: exit $status, expected 2"

run_two --op allreduce --count 1031 --dtype f16 --reduce avg --check-engine --out "$work/allreduce.json" \
  --batch "--op reducescatter --count 37 --dtype bf16 --reduce max --check-engine" \
  --batch "--op allgather --count 5 --dtype i64 --check-engine" \
  --batch "--op allreduce --algo direct --count 1 --dtype f64 --reduce prod --check-engine" \
  >"$work/capture.out" 2>"$work/capture.err"
status=$?
if [ "$status" -ne 0 ]; then
  if grep -Eq "no usable CUDA device|GPUs? (is|are) visible|libnccl.so.2 not found" "$work/capture.err"; then
    echo "SKIPPED: the NCCL transport needs two GPUs and libnccl: $(head -n 1 "$work/capture.err")"
    exit 77
  fi
  fail "capture exited $status: $(cat "$work/capture.err")"
fi
[ "$(grep -c "capture matches the in-process engine" "$work/capture.out")" -eq 3 ] ||
  fail "expected three batch entries to match the engine: $(cat "$work/capture.out")"
grep -q '"transport": "nccl"' "$work/allreduce.json" || fail "the document's capture.transport is not nccl"
grep -q '"device": 1' "$work/allreduce.json" || fail "rank 1's device is not GPU 1"

run_two --op allreduce --iters 2 --count 4096 >"$work/iters.out" 2>"$work/iters.err" ||
  fail "--iters exited $?: $(cat "$work/iters.err")"
grep -q "ncclAllReduce (NCCL_ALGO=" "$work/iters.out" || fail "no ncclAllReduce row: $(cat "$work/iters.out")"
grep -q "Out of bounds values : 0 OK" "$work/iters.out" || fail "wrong values: $(cat "$work/iters.out")"
echo "ok: NCCL captures match the in-process engine"
