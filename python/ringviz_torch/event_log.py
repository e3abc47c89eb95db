"""What one rank recorded: collectives and compute spans, in monotonic nanoseconds.

Collectives finish on torch's communication threads (future callbacks), so every change goes
through one lock.
"""

import threading

from . import naming


class Collective:
    """One collective as this rank issued it; `end_ns` stays None until it completes."""

    __slots__ = ("op", "group", "sequence", "count", "dtype", "element_size", "reduce",
                 "root", "peer", "in_splits", "out_splits", "start_ns", "end_ns", "bucket")

    def __init__(self, op, group, sequence, count, dtype, element_size, start_ns):
        self.op = op
        self.group = group
        self.sequence = sequence
        self.count = count
        self.dtype = dtype
        self.element_size = element_size
        self.reduce = None
        self.root = None
        self.peer = None
        self.in_splits = None   # an uneven all_to_all: elements sent to each member of the group
        self.out_splits = None  # ... and received from each
        self.start_ns = start_ns
        self.end_ns = None
        self.bucket = None


class Bucket:
    """A DDP gradient bucket as its communication hook saw it."""

    __slots__ = ("iteration", "index", "of", "parameters", "ready_ns")

    def __init__(self, iteration, index, parameters, ready_ns):
        self.iteration = iteration
        self.index = index
        self.of = None
        self.parameters = parameters
        self.ready_ns = ready_ns


class ComputeSpan:
    __slots__ = ("kind", "start_ns", "end_ns")

    def __init__(self, kind, start_ns, end_ns):
        self.kind = kind
        self.start_ns = start_ns
        self.end_ns = end_ns


class EventLog:
    def __init__(self):
        self._lock = threading.Lock()
        self._next_sequence = {}
        self.groups = {}  # name -> (description, global ranks)
        self.collectives = []
        self.compute = []

    def begin_collective(self, op, group, tensor, count, start_ns):
        """Records a collective issued now on `group`, with the next sequence number there."""
        name = naming.group_name(group)
        with self._lock:
            if name not in self.groups:
                self.groups[name] = (naming.group_description(group), naming.group_global_ranks(group))
            sequence = self._next_sequence.get(name, 0)
            self._next_sequence[name] = sequence + 1
            collective = Collective(op, name, sequence, count, naming.dtype_name(tensor.dtype),
                                    tensor.element_size(), start_ns)
            self.collectives.append(collective)
        return collective

    def end_collective(self, collective, end_ns):
        with self._lock:
            if collective.end_ns is None:
                collective.end_ns = end_ns

    def discard_collective(self, collective):
        """Forgets a collective whose call raised (it never ran): gives its sequence number back
        where no later one on the group has taken the next."""
        with self._lock:
            self.collectives.remove(collective)
            if self._next_sequence.get(collective.group) == collective.sequence + 1:
                self._next_sequence[collective.group] = collective.sequence

    def add_compute(self, kind, start_ns, end_ns):
        with self._lock:
            self.compute.append(ComputeSpan(kind, start_ns, end_ns))

    def note_group(self, group):
        name = naming.group_name(group)
        with self._lock:
            if name not in self.groups:
                self.groups[name] = (naming.group_description(group), naming.group_global_ranks(group))

    def snapshot(self):
        with self._lock:
            return dict(self.groups), list(self.collectives), list(self.compute)
