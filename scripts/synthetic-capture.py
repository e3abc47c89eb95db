#!/usr/bin/env python3
"""Turns `ringviz trace --format json` output into a document in the shape of a `ringviz
capture` (docs/architecture.md, "Replaying a recorded run"): ranks split over two hosts and
one straggler that posts late every round, with times from a simple model, not a measurement:
every rank enters a round when the last one left the previous (as after a barrier), posts after
its delay, receives a transfer `--link-us` after its sender posted, then reduces.
It stands in for a real capture until one is recorded on an MPI machine.

  ringviz trace --format json --gpus 4 --count 16 | scripts/synthetic-capture.py --late 2 --delay-us 2000 > run.json
"""
import argparse
import json
import sys


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--late", type=int, default=2, help="the straggler's rank (-1: none)")
    parser.add_argument("--delay-us", type=float, default=2000, help="its delay per round, microseconds")
    parser.add_argument("--link-us", type=float, default=100, help="time one transfer takes, microseconds")
    parser.add_argument("--reduce-us", type=float, default=30, help="time one reduction takes, microseconds")
    parser.add_argument("--snapshot", choices=["rounds", "ends", "none"], default="rounds")
    parser.add_argument("--command", default="mpirun -np 4 ringviz capture --op allreduce --delay 2:2ms")
    args = parser.parse_args()

    document = json.load(sys.stdin)
    ranks = document["config"]["ranks"]
    document["config"]["backend"] = "mpi"
    start = 0.0
    spans_by_round = []
    rounds = document["rounds"]
    for index, recorded in enumerate(rounds):
        delay = [args.delay_us if rank == args.late else 0.0 for rank in range(ranks)]
        ready = [start] * ranks
        posted = [start + 1 + delay[rank] for rank in range(ranks)]
        arrived = list(posted)
        for transfer in recorded["transfers"]:
            arrived[transfer["dst"]] = max(arrived[transfer["dst"]], posted[transfer["src"]] + args.link_us)
        ends = [arrived[rank] + args.reduce_us for rank in range(ranks)]
        spans = [{"start_us": ready[rank], "posted_us": posted[rank], "arrived_us": arrived[rank],
                  "end_us": ends[rank], "delay_us": delay[rank], "bytes_sent": 0, "bytes_received": 0}
                 for rank in range(ranks)]
        for transfer in recorded["transfers"]:
            spans[transfer["src"]]["bytes_sent"] += transfer["bytes"]
            spans[transfer["dst"]]["bytes_received"] += transfer["bytes"]
        spans_by_round.append({"round": index + 1, "ranks": spans})
        timed = {}
        kept = args.snapshot == "rounds" or (args.snapshot == "ends" and index + 1 == len(rounds))
        for key, value in recorded.items():
            if key == "transfers":
                timed["time_us"] = max(ends) - start
            if key in ("buffers", "contributors") and not kept:
                continue
            timed[key] = value
        rounds[index] = timed
        start = max(ends)
    if args.snapshot == "none":
        document.pop("initial", None)
    document["capture"] = {
        "transport": "mpi",
        "command": args.command,
        "snapshot": args.snapshot,
        "clock": "synthetic: times from a model (scripts/synthetic-capture.py), not measured",
        "delay": {"rank": args.late, "us": args.delay_us} if args.late >= 0 else None,
        "ranks": [{"rank": rank, "host": "node-a" if rank < (ranks + 1) // 2 else "node-b", "device": None,
                   "clock_offset_us": 0, "clock_error_us": 0} for rank in range(ranks)],
        "rounds": spans_by_round,
    }
    json.dump(document, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
