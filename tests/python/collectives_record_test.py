#!/usr/bin/env python3
"""python.collectives_record: the torch.distributed calls a script makes itself, recorded by
ringviz_torch on 2 gloo ranks (no DDP), with the counts docs/job-format.md defines; calls
gloo refuses leave no record; torch.distributed is put back as it was when the recorder closes.
"""

import json
import os
import socket
import subprocess
import sys
import tempfile

import record_support as support

WORLD_SIZE = 2
ELEMENTS = 6

# What each rank calls, and what its part must then list, in order:
# (op, count or (rank 0's count, rank 1's), extra fields that must match).
EXPECTED = [
    ("allreduce", ELEMENTS, {"reduce": "sum", "dtype": "f32"}),    # all_reduce
    ("allreduce", ELEMENTS, {"reduce": "max", "dtype": "f64"}),    # all_reduce(async_op) on f64
    ("broadcast", ELEMENTS, {"root": 1}),                          # broadcast from rank 1
    ("allgather", ELEMENTS, {}),                                   # all_gather: one rank's input
    ("alltoall", ELEMENTS, {}),                                    # all_to_all_single
    ("alltoall", (6, 4), {}),                                      # all_to_all_single, uneven splits
    ("allreduce", ELEMENTS, {"dtype": "i64"}),                     # inside the recorded forward
    ("sendrecv", ELEMENTS, {}),                                    # send / recv
    ("sendrecv", ELEMENTS, {}),                                    # isend / irecv
]


UNEVEN_SENT = [[1, 5], [3, 1]]


def rank_main(rank, port, out, result_path):
    import torch
    import torch.distributed as dist
    import torch.distributed.distributed_c10d as c10d
    import ringviz_torch

    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(port)
    torch.set_num_threads(1)
    dist.init_process_group("gloo", rank=rank, world_size=WORLD_SIZE)
    originals = {name: getattr(dist, name) for name in ("all_reduce", "broadcast", "isend", "all_to_all")}
    problems = []

    class AllReducingLayer(torch.nn.Module):
        """A model whose forward calls a collective: it must land between forward's ends."""

        def __init__(self):
            super().__init__()
            self.linear = torch.nn.Linear(ELEMENTS, ELEMENTS)

        def forward(self, x):
            dist.all_reduce(torch.ones(ELEMENTS, dtype=torch.int64))
            return self.linear(x)

    torch.manual_seed(0)
    model = AllReducingLayer()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    with ringviz_torch.record(model, optimizer, out=out):
        if dist.all_reduce is originals["all_reduce"] or c10d.all_reduce is originals["all_reduce"]:
            problems.append("dist.all_reduce is not wrapped while recording")
        t = torch.full((ELEMENTS,), float(rank + 1))
        dist.all_reduce(t)
        dist.all_reduce(t.double(), op=dist.ReduceOp.MAX, async_op=True).wait()
        dist.broadcast(t, src=1)
        dist.all_gather([torch.empty(ELEMENTS) for _ in range(WORLD_SIZE)], t)
        dist.all_to_all_single(torch.empty(ELEMENTS), t)
        # Uneven, as an MoE layer's dispatch: rank r sends UNEVEN_SENT[r][d] elements to rank d.
        sent = UNEVEN_SENT[rank]
        received = [row[rank] for row in UNEVEN_SENT]
        dist.all_to_all_single(torch.empty(sum(received)), torch.full((sum(sent),), float(rank)),
                               output_split_sizes=received, input_split_sizes=sent)
        for refused in (lambda: dist.reduce_scatter(torch.empty(ELEMENTS), [t, t]),
                        lambda: dist.all_gather_into_tensor(torch.empty(2 * ELEMENTS), t),
                        lambda: dist.all_to_all([torch.empty(ELEMENTS)] * 2, [t, t.clone()])):
            try:
                refused()
                problems.append("gloo accepted a call it is expected to refuse; update the test")
            except RuntimeError:
                pass
        model(torch.ones(2, ELEMENTS)).sum().backward()
        optimizer.step()
        peer = 1 - rank
        if rank == 0:
            dist.send(t, dst=peer)
            dist.isend(t, dst=peer).wait()
        else:
            dist.recv(t, src=peer)
            dist.irecv(t).wait()  # from any source: the part must still name the peer
    for name, original in originals.items():
        if getattr(dist, name) is not original:
            problems.append("dist.%s was not restored when the recorder closed" % name)
    if "step" in optimizer.__dict__:
        problems.append("optimizer.step is still wrapped after the recorder closed")
    dist.destroy_process_group()
    with open(result_path, "w") as handle:
        handle.write("\n".join(problems))


def check_part(rank, part, failures):
    record = part["ranks"][0]
    collectives = record["collectives"]
    ops = [(c["op"], c["count"]) for c in collectives]
    expected_ops = [(op, count[rank] if isinstance(count, tuple) else count) for op, count, _ in EXPECTED]
    if not failures.check(ops == expected_ops, "rank %d: recorded %s, expected %s" % (rank, ops, expected_ops)):
        return
    for index, (collective, (op, count, extra)) in enumerate(zip(collectives, EXPECTED)):
        where = "rank %d, collective %d (%s)" % (rank, index, op)
        count = count[rank] if isinstance(count, tuple) else count
        for field, value in extra.items():
            failures.check(collective.get(field) == value, "%s: %s is %r, expected %r"
                           % (where, field, collective.get(field), value))
        size = {"f32": 4, "f64": 8, "i64": 8}[collective["dtype"]]
        failures.check(collective["bytes"] == count * size, "%s: bytes %d, expected %d x %d"
                       % (where, collective["bytes"], count, size))
        failures.check(collective["duration_us"] >= 0, "%s: negative duration" % where)
        if op == "sendrecv":
            failures.check(collective.get("peer") == 1 - rank, "%s: peer %r, expected %d"
                           % (where, collective.get("peer"), 1 - rank))
        if op == "alltoall":
            uneven = isinstance(EXPECTED[index][1], tuple)
            sent = UNEVEN_SENT[rank] if uneven else None
            received = [row[rank] for row in UNEVEN_SENT] if uneven else None
            failures.check(collective.get("in_splits") == sent and collective.get("out_splits") == received,
                           "%s: splits %r / %r, expected %r / %r" % (where, collective.get("in_splits"),
                                                                      collective.get("out_splits"), sent, received))
    support.check_sequences(rank, collectives, failures)
    kinds = [s["kind"] for s in record["compute"]]
    failures.check(kinds == ["forward", "backward", "optimizer"],
                   "rank %d: compute spans %s, expected forward, backward, optimizer" % (rank, kinds))
    forward = record["compute"][0]
    in_forward = next(c for c in collectives if c["dtype"] == "i64")  # the all_reduce inside forward
    failures.check(forward["start_us"] <= in_forward["start_us"] <= forward["start_us"] + forward["duration_us"],
                   "rank %d: the all_reduce the model's forward calls (at %s) lies outside the forward "
                   "span [%s, +%s]" % (rank, in_forward["start_us"], forward["start_us"], forward["duration_us"]))


def check_import(workdir, job_dir, failures):
    """`ringviz job import` keeps the broadcast's root and each send's and receive's peer, and
    `job show --format json` lists them (RINGVIZ_EXECUTABLE names the ringviz to run; without it
    the check is left to the C++ suites)."""
    ringviz = os.environ.get("RINGVIZ_EXECUTABLE")
    if not ringviz:
        return
    out = os.path.join(workdir, "job.json")
    imported = subprocess.run([ringviz, "job", "import", job_dir, "--out", out, "--quiet"],
                              capture_output=True, text=True, timeout=60)
    if imported.returncode != 0:
        failures.fail("ringviz job import exited %d: %s" % (imported.returncode, imported.stderr.strip()))
        return
    shown = subprocess.run([ringviz, "job", "show", out, "--format", "json"], capture_output=True, text=True,
                           timeout=60)
    if shown.returncode != 0:
        failures.fail("ringviz job show exited %d: %s" % (shown.returncode, shown.stderr.strip()))
        return
    for row in json.loads(shown.stdout)["collectives"]:
        where = "job show, rank %d, %s %d" % (row["rank"], row["op"], row["sequence"])
        if row["op"] == "broadcast":
            failures.check(row["root"] == 1, "%s: root %r, expected 1" % (where, row["root"]))
        if row["op"] == "sendrecv":
            failures.check(row["peer"] == 1 - row["rank"], "%s: peer %r, expected %d"
                           % (where, row["peer"], 1 - row["rank"]))
        if row["op"] == "alltoall" and row["in_splits"] is not None:
            failures.check(row["in_splits"] == UNEVEN_SENT[row["rank"]],
                           "%s: in_splits %r, expected %r" % (where, row["in_splits"], UNEVEN_SENT[row["rank"]]))


def main():
    support.torch_or_skip()
    import torch.multiprocessing as mp

    failures = support.Failures()
    with tempfile.TemporaryDirectory(prefix="ringviz-collectives-record-") as workdir:
        out = os.path.join(workdir, "job")
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        context = mp.get_context("fork" if "fork" in mp.get_all_start_methods() else "spawn")
        results = [os.path.join(workdir, "rank-%d.problems" % r) for r in range(WORLD_SIZE)]
        processes = [context.Process(target=rank_main, args=(r, port, out, results[r]), daemon=True)
                     for r in range(WORLD_SIZE)]
        for process in processes:
            process.start()
        for process in processes:
            process.join(60)
        stuck = [r for r, p in enumerate(processes) if p.is_alive()]
        for process in processes:
            if process.is_alive():
                process.kill()
                process.join(5)
        if stuck:
            print("FAILED: rank(s) %s did not finish within 60 s; stopped them" % stuck)
            return 2
        for rank, process in enumerate(processes):
            if process.exitcode != 0:
                failures.fail("rank %d exited %s" % (rank, process.exitcode))
            elif os.path.exists(results[rank]):
                for problem in filter(None, open(results[rank]).read().split("\n")):
                    failures.fail("rank %d: %s" % (rank, problem))
        if not failures.messages:
            parts = support.read_parts(out, WORLD_SIZE, failures)
            support.check_part_header(parts, WORLD_SIZE, "gloo", failures)
            for rank, part in sorted(parts.items()):
                check_part(rank, part, failures)
            if not failures.messages:
                check_import(workdir, out, failures)
    return failures.exit("ringviz_torch records the collectives a script calls itself")


if __name__ == "__main__":
    sys.exit(main())
