#!/usr/bin/env python3
"""python.ddp_record: examples/ddp_gpt.py on 4 gloo ranks, with and without ringviz_torch.

1. Recording changes nothing: the trained parameters are bit-identical with and without it
   (plain Adam on 4 and on 3 ranks, and ZeroRedundancyOptimizer).
2. The recorded buckets are the ones DDP (torch 1.13, find_unused_parameters=False) makes:
   - the first iteration reduces all parameters in one bucket, in model.parameters() order
     (DDP does not bucket before it has seen the order gradients arrive in);
   - from the second iteration on, the rebuilt buckets follow the order gradients became ready
     (modules in reverse of model.parameters()); DDP fills a bucket until it reaches its limit,
     which is dist._DEFAULT_FIRST_BUCKET_BYTES (1 MiB) for the first bucket and bucket_cap_mb
     for the others;
   - every AllReduce's bytes are the sum of its parameters' sizes, every parameter is in
     exactly one bucket per iteration, and every rank has the same buckets.
3. The ZeRO run records the optimizer's broadcasts: each parameter once per step from the rank
   that owns it, inside the optimizer span.
"""

import json
import os
import subprocess
import sys
import tempfile

import record_support as support

WORLD_SIZE = 4
ITERATIONS = 3  # the first iteration, the rebuild, and one to show the rebuilt buckets stay
ZERO_ITERATIONS = 2
BUCKET_CAP_MB = 0.25


def run_example(workdir, name, zero, record, world_size=WORLD_SIZE, iterations=ITERATIONS):
    params = os.path.join(workdir, name + ".pt")
    command = [sys.executable, support.EXAMPLE, "--iterations", str(iterations),
               "--world-size", str(world_size), "--bucket-cap-mb", str(BUCKET_CAP_MB),
               "--params-out", params, "--timeout", "90"]
    if zero:
        command.append("--zero")
    out = None
    if record:
        out = os.path.join(workdir, name + "-job")
        command += ["--out", out]
    finished = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if finished.returncode != 0:
        print("FAILED: %s exited %d:\n%s" % (" ".join(command), finished.returncode, finished.stdout))
        sys.exit(1)
    return params, out


def compare_parameters(torch, without, with_recording, what, failures):
    a, b = torch.load(without), torch.load(with_recording)
    if not failures.check(list(a) == list(b), "%s: parameter names differ: %s vs %s" % (what, list(a), list(b))):
        return
    for name in a:
        # Bit patterns, not values: -0.0 == 0.0 and NaN != NaN would hide a difference.
        if not torch.equal(a[name].view(torch.int32), b[name].view(torch.int32)):
            differing = int((a[name].view(torch.int32) != b[name].view(torch.int32)).sum())
            failures.fail("%s: parameter %s differs with recording (%d of %d elements)"
                          % (what, name, differing, a[name].numel()))


def module_of(parameter_name):
    return parameter_name.rsplit(".", 1)[0]


def without_repeats(items):
    result = []
    for item in items:
        if not result or result[-1] != item:
            result.append(item)
    return result


def check_buckets(parts, sizes, first_bucket_bytes, failures):
    """sizes: parameter name -> elements, in model.parameters() order."""
    cap = int(BUCKET_CAP_MB * 1024 * 1024)
    order = list(sizes)
    layouts = {}  # rank -> iteration -> [(index, of, parameters, count)]
    for rank, part in sorted(parts.items()):
        buckets = {}
        for collective in part["ranks"][0]["collectives"]:
            bucket = collective.get("bucket")
            if bucket is None:
                continue
            where = "rank %d, iteration %d, bucket %d" % (rank, bucket["iteration"], bucket["index"])
            failures.check(collective["op"] == "allreduce" and collective["dtype"] == "f32",
                           "%s: op %s dtype %s, expected an f32 allreduce"
                           % (where, collective["op"], collective["dtype"]))
            unknown = [p for p in bucket["parameters"] if p not in sizes]
            if not failures.check(not unknown, "%s: unknown parameter names %s" % (where, unknown)):
                continue
            expected = sum(sizes[p] for p in bucket["parameters"])
            failures.check(collective["count"] == expected and collective["bytes"] == 4 * expected,
                           "%s: count %d, bytes %d; its parameters %s hold %d elements (%d bytes)"
                           % (where, collective["count"], collective["bytes"], bucket["parameters"],
                              expected, 4 * expected))
            failures.check(bucket["ready_us"] <= collective["start_us"] and collective["duration_us"] >= 0,
                           "%s: ready at %s, started at %s, lasted %s us: expected ready <= start, "
                           "duration >= 0" % (where, bucket["ready_us"], collective["start_us"],
                                              collective["duration_us"]))
            buckets.setdefault(bucket["iteration"], []).append(
                (bucket["index"], bucket["of"], bucket["parameters"], collective["count"]))
        layouts[rank] = buckets
        if not failures.check(sorted(buckets) == list(range(ITERATIONS)),
                              "rank %d: buckets recorded for iterations %s, expected %s"
                              % (rank, sorted(buckets), list(range(ITERATIONS)))):
            continue
        for iteration, recorded in sorted(buckets.items()):
            where = "rank %d, iteration %d" % (rank, iteration)
            indices = [b[0] for b in recorded]
            failures.check(indices == list(range(len(recorded))) and all(b[1] == len(recorded) for b in recorded),
                           "%s: bucket indices %s and counts %s, expected 0..%d of %d"
                           % (where, indices, [b[1] for b in recorded], len(recorded) - 1, len(recorded)))
            reduced = [p for b in recorded for p in b[2]]
            failures.check(sorted(reduced) == sorted(order),
                           "%s: every parameter with a gradient must be in exactly one bucket; "
                           "twice: %s, missing: %s" % (where, sorted({p for p in reduced if reduced.count(p) > 1}),
                                                        sorted(set(order) - set(reduced))))
            if iteration == 0:
                failures.check(len(recorded) == 1 and recorded[0][2] == order,
                               "%s: DDP reduces the first iteration in one bucket in model.parameters() "
                               "order; recorded %s" % (where, [b[2] for b in recorded]))
                continue
            check_rebuilt(where, recorded, sizes, first_bucket_bytes, cap, failures)
        if all(i in buckets for i in range(1, ITERATIONS)):
            failures.check(all(buckets[i] == buckets[1] for i in range(2, ITERATIONS)),
                           "rank %d: the rebuilt buckets changed between iterations: %s"
                           % (rank, [[b[2] for b in buckets[i]] for i in range(1, ITERATIONS)]))
    reference = layouts.get(0)
    for rank, layout in sorted(layouts.items()):
        failures.check(layout == reference, "rank %d's buckets differ from rank 0's:\n    %s\n    vs %s"
                       % (rank, layout, reference))
    return layouts


def check_rebuilt(where, recorded, sizes, first_bucket_bytes, cap, failures):
    for index, _, parameters, count in recorded:
        limit = first_bucket_bytes if index == 0 else cap
        last = parameters[-1]
        bytes_before_last = 4 * (count - sizes[last])
        # DDP closes a bucket as soon as it reaches its limit, so only the parameter that
        # filled it may take it past the limit.
        failures.check(bytes_before_last < limit,
                       "%s, bucket %d: %d bytes before its last parameter %s, not below its limit %d "
                       "(DDP would have closed it earlier)" % (where, index, bytes_before_last, last, limit))
        if index < len(recorded) - 1:
            failures.check(4 * count >= limit,
                           "%s, bucket %d: %d bytes, below its limit %d, yet DDP started another bucket"
                           % (where, index, 4 * count, limit))
    failures.check(4 * recorded[0][3] > cap,
                   "%s: the first bucket holds %d bytes, not more than bucket_cap_mb (%d bytes); with a "
                   "1 MiB first-bucket limit and this model it should (is the model too small?)"
                   % (where, 4 * recorded[0][3], cap))
    reduced = [p for b in recorded for p in b[2]]
    expected_modules = list(reversed(without_repeats(module_of(p) for p in sizes)))
    failures.check(without_repeats(module_of(p) for p in reduced) == expected_modules,
                   "%s: rebuilt buckets reduce modules in the order %s; gradients become ready in "
                   "reverse of model.parameters(): %s" % (where, without_repeats(module_of(p) for p in reduced),
                                                            expected_modules))


def check_phases(parts, failures):
    """One forward, backward and optimizer span per iteration, in that order; every bucket of an
    iteration became ready inside its backward span."""
    for rank, part in sorted(parts.items()):
        spans = part["ranks"][0]["compute"]
        kinds = [s["kind"] for s in spans]
        if not failures.check(kinds == ["forward", "backward", "optimizer"] * ITERATIONS,
                              "rank %d: compute spans %s, expected forward, backward, optimizer x %d"
                              % (rank, kinds, ITERATIONS)):
            continue
        backward = [s for s in spans if s["kind"] == "backward"]
        for collective in part["ranks"][0]["collectives"]:
            bucket = collective.get("bucket")
            if bucket is None:
                continue
            span = backward[bucket["iteration"]]
            failures.check(span["start_us"] <= bucket["ready_us"] <= span["start_us"] + span["duration_us"],
                           "rank %d, iteration %d, bucket %d: ready at %s, outside backward [%s, +%s]"
                           % (rank, bucket["iteration"], bucket["index"], bucket["ready_us"],
                              span["start_us"], span["duration_us"]))
        support.check_sequences(rank, part["ranks"][0]["collectives"], failures)


def check_zero(parts, sizes, failures):
    broadcasts_by_rank = {}
    for rank, part in sorted(parts.items()):
        record = part["ranks"][0]
        optimizer_spans = [s for s in record["compute"] if s["kind"] == "optimizer"]
        broadcasts = [c for c in record["collectives"] if c["op"] == "broadcast"]
        broadcasts_by_rank[rank] = [(c["count"], c["root"]) for c in broadcasts]
        failures.check(len(optimizer_spans) == ZERO_ITERATIONS,
                       "rank %d (--zero): %d optimizer spans, expected %d"
                       % (rank, len(optimizer_spans), ZERO_ITERATIONS))
        for step, span in enumerate(optimizer_spans):
            inside = [c for c in broadcasts
                      if span["start_us"] <= c["start_us"] <= span["start_us"] + span["duration_us"]]
            counts = sorted(c["count"] for c in inside)
            failures.check(counts == sorted(sizes.values()),
                           "rank %d (--zero), step %d: broadcasts of %s elements inside the optimizer "
                           "step; ZeroRedundancyOptimizer broadcasts each parameter once (%s)"
                           % (rank, step, counts, sorted(sizes.values())))
            failures.check(sorted({c["root"] for c in inside}) == list(range(WORLD_SIZE)),
                           "rank %d (--zero), step %d: broadcast roots %s, expected every rank to own "
                           "a shard" % (rank, step, sorted({c["root"] for c in inside})))
        failures.check(len(broadcasts) == ZERO_ITERATIONS * len(sizes),
                       "rank %d (--zero): %d broadcasts, expected %d (every parameter each step)"
                       % (rank, len(broadcasts), ZERO_ITERATIONS * len(sizes)))
        support.check_sequences(rank, record["collectives"], failures)
    failures.check(len({tuple(b) for b in broadcasts_by_rank.values()}) == 1,
                   "the ranks recorded different broadcasts (count, root): %s" % broadcasts_by_rank)


def check_import(workdir, job_dir, parts, failures):
    """`ringviz job import` joins the parts into one job and `job show` lists every collective the
    ranks recorded, with their bytes (RINGVIZ_EXECUTABLE names the ringviz to run; without it the
    check is left to the command-line suite)."""
    ringviz = os.environ.get("RINGVIZ_EXECUTABLE")
    if not ringviz:
        return
    out = os.path.join(workdir, os.path.basename(job_dir) + ".json")
    imported = subprocess.run([ringviz, "job", "import", job_dir, "--out", out, "--quiet"],
                              capture_output=True, text=True, timeout=60)
    if imported.returncode != 0:
        failures.fail(f"ringviz job import {job_dir} exited {imported.returncode}: {imported.stderr.strip()}")
        return
    shown = subprocess.run([ringviz, "job", "show", out, "--format", "json"], capture_output=True, text=True,
                           timeout=60)
    if shown.returncode != 0:
        failures.fail(f"ringviz job show exited {shown.returncode}: {shown.stderr.strip()}")
        return
    rows = json.loads(shown.stdout)["collectives"]
    recorded = sorted((rank, c["op"], c["group"], c["sequence"], c["bytes"])
                      for rank, part in parts.items() for c in part["ranks"][0]["collectives"])
    listed = sorted((row["rank"], row["op"], row["group"], row["sequence"], row["bytes"]) for row in rows)
    if recorded != listed:
        failures.fail(f"job show lists {len(listed)} collectives of {job_dir}, the parts recorded {len(recorded)} "
                     f"(first difference: {next((a, b) for a, b in zip(recorded + [None], listed + [None]) if a != b)})")


def main():
    torch = support.torch_or_skip()
    import torch.distributed as dist

    failures = support.Failures()
    with tempfile.TemporaryDirectory(prefix="ringviz-ddp-record-") as workdir:
        plain, _ = run_example(workdir, "plain", zero=False, record=False)
        plain_recorded, plain_job = run_example(workdir, "plain-recorded", zero=False, record=True)
        zero, _ = run_example(workdir, "zero", zero=True, record=False, iterations=ZERO_ITERATIONS)
        zero_recorded, zero_job = run_example(workdir, "zero-recorded", zero=True, record=True,
                                              iterations=ZERO_ITERATIONS)

        # 3 ranks too: scaling by 1/3 rounds differently from dividing by 3, which a
        # power-of-two world would not show.
        three, _ = run_example(workdir, "three", zero=False, record=False, world_size=3, iterations=2)
        three_recorded, _ = run_example(workdir, "three-recorded", zero=False, record=True,
                                        world_size=3, iterations=2)

        compare_parameters(torch, plain, plain_recorded, "Adam", failures)
        compare_parameters(torch, three, three_recorded, "Adam on 3 ranks", failures)
        compare_parameters(torch, zero, zero_recorded, "ZeroRedundancyOptimizer", failures)

        saved = torch.load(plain)
        sizes = {name: tensor.numel() for name, tensor in saved.items()}  # model.parameters() order

        parts = support.read_parts(plain_job, WORLD_SIZE, failures)
        support.check_part_header(parts, WORLD_SIZE, "gloo", failures)
        check_buckets(parts, sizes, dist._DEFAULT_FIRST_BUCKET_BYTES, failures)
        check_phases(parts, failures)

        zero_parts = support.read_parts(zero_job, WORLD_SIZE, failures)
        support.check_part_header(zero_parts, WORLD_SIZE, "gloo", failures)
        check_zero(zero_parts, sizes, failures)

        check_import(workdir, plain_job, parts, failures)
        check_import(workdir, zero_job, zero_parts, failures)
    return failures.exit("ringviz_torch records DDP buckets and ZeRO broadcasts without changing the result")


if __name__ == "__main__":
    sys.exit(main())
