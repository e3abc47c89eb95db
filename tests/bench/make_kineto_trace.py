#!/usr/bin/env python3
"""Writes a synthetic PyTorch profiler (Kineto) trace of one rank of a DDP job, of about the
size asked for, shaped as PyTorch 2.x writes them: per step, forward/backward/optimizer
annotations, many compute kernels with their launches, and per gradient bucket a
record_param_comms op, its launch and its NCCL kernel. For the job importer's speed benchmark
(scripts/job-import-bench.sh): the importer must read it at a bounded memory whatever its size.

Usage: make_kineto_trace.py OUT.json[.gz] MEGABYTES [RANK WORLD]
"""
import gzip
import json
import sys


def main():
    out, megabytes = sys.argv[1], float(sys.argv[2])
    rank = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    world = int(sys.argv[4]) if len(sys.argv) > 4 else 8
    target = int(megabytes * 1e6)
    opener = gzip.open if out.endswith(".gz") else open
    written = 0
    ts = 1_000_000.0
    correlation = 1
    with opener(out, "wt") as f:
        head = {
            "schemaVersion": 1,
            "deviceProperties": [{"id": 0, "name": "NVIDIA H100 80GB HBM3"}],
            "distributedInfo": {"backend": "nccl", "rank": rank, "world_size": world, "pg_count": 1,
                                "pg_config": [{"pg_name": "0", "pg_desc": "default_pg", "pg_size": world,
                                               "ranks": list(range(world))}],
                                "nccl_version": "2.21.5"},
        }
        text = json.dumps(head)[:-1] + ', "traceEvents": [\n'
        f.write(text)
        written += len(text)
        first = True
        step = 0
        while written < target:
            events = [{"ph": "X", "cat": "user_annotation", "name": "## forward ##", "pid": 1, "tid": 1,
                       "ts": ts, "dur": 20000.0}]
            for k in range(400):
                start = ts + k * 50
                events.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1,
                               "ts": start, "dur": 4.0, "args": {"correlation": correlation}})
                events.append({"ph": "X", "cat": "kernel", "name": "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n",
                               "pid": 0, "tid": 7, "ts": start + 10, "dur": 40.0,
                               "args": {"correlation": correlation, "grid": [132, 1, 1], "block": [384, 1, 1]}})
                correlation += 1
            events.append({"ph": "X", "cat": "user_annotation", "name": "## backward ##", "pid": 1, "tid": 1,
                           "ts": ts + 20000, "dur": 40000.0})
            for bucket in range(12):
                start = ts + 22000 + bucket * 3000
                nelems = 6553600
                args = {"Collective name": "allreduce", "In msg nelems": nelems, "Out msg nelems": nelems,
                        "dtype": "BFloat16", "Group size": world, "Process Group Name": "0",
                        "Process Group Ranks": json.dumps(list(range(world))), "In split size": "[]",
                        "Out split size": "[]"}
                events.append({"ph": "X", "cat": "cpu_op", "name": "record_param_comms", "pid": 1, "tid": 2,
                               "ts": start, "dur": 30.0, "args": args})
                events.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernelExC", "pid": 1,
                               "tid": 2, "ts": start + 5, "dur": 8.0, "args": {"correlation": correlation}})
                kernel_args = dict(args, correlation=correlation, grid=[16, 1, 1])
                events.append({"ph": "X", "cat": "kernel",
                               "name": "ncclDevKernel_AllReduce_Sum_bf16_RING_LL128(ncclDevComm*, unsigned long, ncclWork*)",
                               "pid": 0, "tid": 20, "ts": start + 100, "dur": 2400.0 + 10 * rank,
                               "args": kernel_args})
                correlation += 1
            events.append({"ph": "X", "cat": "user_annotation", "name": "## optimizer ##", "pid": 1, "tid": 1,
                           "ts": ts + 62000, "dur": 5000.0})
            chunk = (",\n" if not first else "") + ",\n".join(json.dumps(e) for e in events)
            first = False
            f.write(chunk)
            written += len(chunk)
            ts += 70000
            step += 1
        f.write("\n]}\n")
    print(f"{out}: {written / 1e6:.1f} MB of trace text, {step} steps, {12 * step} AllReduce buckets")


if __name__ == "__main__":
    main()
