"""Writes one rank's part of the job document (docs/job-format.md, "Parts written by a live
job"): `rank-<R>.json` in the `ringviz.job/1` format with only that rank under `ranks`.

The file appears whole or not at all: it is written under a temporary name in the same folder
and renamed over the final name, so the importer never reads half a part.
"""

import json
import os
import socket
import tempfile

FORMAT = "ringviz.job/1"
SOURCE_KIND = "ringviz_torch"


def _collective_json(collective, clock):
    entry = {
        "op": collective.op,
        "group": collective.group,
        "sequence": collective.sequence,
        "count": collective.count,
        "dtype": collective.dtype,
        "bytes": collective.count * collective.element_size,
    }
    if collective.reduce is not None:
        entry["reduce"] = collective.reduce
    if collective.root is not None:
        entry["root"] = collective.root
    if collective.peer is not None:
        entry["peer"] = collective.peer
    if collective.in_splits is not None:
        entry["in_splits"] = collective.in_splits
        entry["out_splits"] = collective.out_splits
    entry["start_us"] = clock.to_us(collective.start_ns)
    entry["duration_us"] = (collective.end_ns - collective.start_ns) / 1000.0
    bucket = collective.bucket
    if bucket is not None:
        # Counted from 1 for people; "index" keeps DDP's own 0-based number.
        entry["label"] = "iteration %d, bucket %d of %d" % (bucket.iteration, bucket.index + 1, bucket.of)
        entry["bucket"] = {
            "index": bucket.index,
            "of": bucket.of,
            "iteration": bucket.iteration,
            "parameters": bucket.parameters,
            "ready_us": clock.to_us(bucket.ready_ns),
        }
    entry["derived"] = []
    return entry


def build_part(rank, world_size, backend, groups, collectives, compute, clock, memory=()):
    """The part as a dict. Collectives that never completed before the recorder closed are
    left out (they have no duration); the caller is told how many."""
    finished = [c for c in collectives if c.end_ns is not None]
    finished.sort(key=lambda c: c.start_ns)
    spans = sorted(compute, key=lambda s: s.start_ns)
    document = {
        "format": FORMAT,
        "source": {"kind": SOURCE_KIND, "files": []},
        "job": {"world_size": world_size, "backend": backend},
        "groups": [
            {"name": name, "description": description, "ranks": ranks}
            for name, (description, ranks) in sorted(groups.items(), key=lambda kv: _group_order(kv[0]))
        ],
        "ranks": [{
            "rank": rank,
            "traced": True,
            "host": socket.gethostname(),
            "clock_offset_us": 0.0,
            "collectives": [_collective_json(c, clock) for c in finished],
            "compute": [
                {"name": span.kind, "kind": span.kind, "start_us": clock.to_us(span.start_ns),
                 "duration_us": (span.end_ns - span.start_ns) / 1000.0}
                for span in spans
            ],
        }],
    }
    if memory:
        document["ranks"][0]["memory"] = list(memory)
    return document, len(collectives) - len(finished)


def _group_order(name):
    return (0, int(name)) if name.isdigit() else (1, name)


def write_part(directory, rank, document):
    """Writes `directory/rank-<rank>.json` atomically and returns its path."""
    os.makedirs(directory, exist_ok=True)
    final = os.path.join(directory, "rank-%d.json" % rank)
    handle, temporary = tempfile.mkstemp(prefix=".rank-%d." % rank, suffix=".tmp", dir=directory)
    try:
        with os.fdopen(handle, "w") as out:
            json.dump(document, out, indent=1)
            out.write("\n")
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temporary, 0o644)  # mkstemp makes it private; a part is for anyone to import
        os.replace(temporary, final)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise
    return final
