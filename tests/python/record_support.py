"""What both ringviz_torch tests share: the skip where torch is missing, the repository's
paths, reading the parts a recorded job wrote, and a list of failed checks."""

import glob
import json
import os
import sys

SKIPPED = 77  # ctest's SKIP_RETURN_CODE for these tests

REPOSITORY = os.path.abspath(os.path.join(os.path.dirname(__file__), os.pardir, os.pardir))
EXAMPLE = os.path.join(REPOSITORY, "examples", "ddp_gpt.py")


def torch_or_skip():
    """Imports torch, or exits 77 saying why: the recorder needs PyTorch with
    torch.distributed (Debian's python3-torch; scripts/install-deps.sh installs it)."""
    try:
        import torch
        import torch.distributed as dist
    except ImportError as error:
        print("skipped: %s cannot import torch (%s); install python3-torch" % (sys.executable, error))
        sys.exit(SKIPPED)
    if not dist.is_available():
        print("skipped: this torch was built without torch.distributed")
        sys.exit(SKIPPED)
    sys.path.insert(0, os.path.join(REPOSITORY, "python"))
    return torch


def read_parts(directory, world_size, failures):
    """The parts of a recorded job by rank. Records a failure for a missing part, a stray file
    (a temporary file left behind would mean a write was not atomic) or a part that names
    another rank."""
    names = sorted(os.listdir(directory))
    expected = ["rank-%d.json" % r for r in range(world_size)]
    if names != sorted(expected):
        failures.fail("%s holds %s; expected exactly %s" % (directory, names, sorted(expected)))
    parts = {}
    for path in sorted(glob.glob(os.path.join(directory, "rank-*.json"))):
        with open(path) as handle:
            part = json.load(handle)
        rank = int(os.path.basename(path)[len("rank-"):-len(".json")])
        if len(part.get("ranks", [])) != 1 or part["ranks"][0].get("rank") != rank:
            failures.fail("%s: expected only rank %d under \"ranks\", found %s"
                          % (path, rank, [r.get("rank") for r in part.get("ranks", [])]))
            continue
        parts[rank] = part
    return parts


def check_part_header(parts, world_size, backend, failures):
    """docs/job-format.md: each part is a ringviz.job/1 document from ringviz_torch, and every
    part agrees on "job" and "groups"."""
    for rank, part in sorted(parts.items()):
        if part.get("format") != "ringviz.job/1":
            failures.fail("rank %d: format is %r, expected ringviz.job/1" % (rank, part.get("format")))
        if part.get("source", {}).get("kind") != "ringviz_torch":
            failures.fail("rank %d: source.kind is %r, expected ringviz_torch" % (rank, part.get("source")))
        job = part.get("job", {})
        if job.get("world_size") != world_size or job.get("backend") != backend:
            failures.fail("rank %d: job is %s, expected world_size %d and backend %s"
                          % (rank, job, world_size, backend))
        world = {"name": "0", "description": "default_pg", "ranks": list(range(world_size))}
        if world not in part.get("groups", []):
            failures.fail("rank %d: groups %s lack the world group %s" % (rank, part.get("groups"), world))
    headers = {json.dumps([part.get("job"), part.get("groups")], sort_keys=True) for part in parts.values()}
    if len(headers) > 1:
        failures.fail("the parts disagree on job and groups: %s" % sorted(headers))


def check_sequences(rank, collectives, failures):
    """Per group, a rank's collectives are numbered 0, 1, 2, ... in the order it issued them."""
    by_group = {}
    for collective in sorted(collectives, key=lambda c: c["start_us"]):
        by_group.setdefault(collective["group"], []).append(collective["sequence"])
    for group, sequences in by_group.items():
        if sequences != list(range(len(sequences))):
            failures.fail("rank %d, group %s: sequences in issue order are %s, expected 0..%d"
                          % (rank, group, sequences, len(sequences) - 1))


class Failures:
    def __init__(self):
        self.messages = []

    def fail(self, message):
        self.messages.append(message)

    def check(self, condition, message):
        if not condition:
            self.fail(message)
        return condition

    def exit(self, what):
        if self.messages:
            print("FAILED: %s" % what)
            for message in self.messages:
                print("  - " + message)
            return 1
        print("ok: %s" % what)
        return 0
