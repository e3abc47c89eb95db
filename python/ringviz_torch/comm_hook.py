"""The DDP communication hook that records every gradient bucket.

It reduces exactly as DDP does without a hook, so recording changes no result. DDP's built-in
path (no hook) multiplies each gradient by 1/world_size while copying it into the bucket and
then sums the bucket across ranks. torch's `default_hooks.allreduce_hook` divides by the world
size instead, which rounds differently where the world size is not a power of two (3 ranks:
x * (1/3) and x / 3 differ in the last bit), so this hook multiplies.

One case it cannot match: with `gradient_as_bucket_view=True`, DDP without a hook divides the
gradients that already live in the bucket and multiplies the ones it copies in, and by the time
a hook runs every gradient lives in the bucket. Where the world size is a power of two both
are exact and agree; elsewhere `may_differ_from_ddp` says so and the recorder warns.
"""

import torch.distributed.distributed_c10d as c10d

from . import naming
from .event_log import Bucket


def _bucket_index(bucket):
    # torch 1.13 calls it index(); older releases get_index().
    return bucket.index() if hasattr(bucket, "index") else bucket.get_index()


class BucketRecorder:
    """Registered once per DDP model (DDP accepts one hook and cannot drop it); after the
    recorder closes it keeps reducing and stops recording."""

    def __init__(self, log, clock, parameter_names, all_reduce):
        self._parameter_names = parameter_names  # id(parameter) -> qualified name
        self._all_reduce = all_reduce  # torch's own, never the recording wrapper
        self.start(log, clock)

    def start(self, log, clock):
        """Records into `log` from now on, counting iterations from 0 again (a later recorder
        of the same DDP model reuses the hook, since DDP takes only one)."""
        self._log = log
        self._clock = clock
        self._iteration = 0
        self._this_iteration = []
        self.recording = True

    def hook(self, process_group, bucket):
        """The hook DDP calls (it requires the parameter named `bucket`)."""
        group = naming.resolve_group(process_group)
        buffer = bucket.buffer()
        entered_ns = self._clock.now_ns()
        collective = None
        if self.recording:
            collective = self._begin(group, bucket, buffer, entered_ns)
        buffer.mul_(1.0 / group.size())
        future = self._all_reduce(buffer, group=group, async_op=True).get_future()

        def finished(done):
            if collective is not None:
                self._log.end_collective(collective, self._clock.now_ns())
            return done.value()[0]

        return future.then(finished)

    def _begin(self, group, bucket, buffer, entered_ns):
        names = [self._parameter_names.get(id(p), "?") for p in bucket.parameters()]
        record = Bucket(self._iteration, _bucket_index(bucket), names, entered_ns)
        collective = self._log.begin_collective("allreduce", group, buffer, buffer.numel(), entered_ns)
        collective.reduce = "sum"
        collective.bucket = record
        self._this_iteration.append(record)
        if bucket.is_last():
            for each in self._this_iteration:
                each.of = len(self._this_iteration)
            self._this_iteration = []
            self._iteration += 1
        return collective

    def finish(self):
        """Stops recording; names the bucket count of an iteration cut short."""
        self.recording = False
        for each in self._this_iteration:
            each.of = len(self._this_iteration)
        self._this_iteration = []


def may_differ_from_ddp(ddp):
    """Whether DDP without a hook could round differently from this hook (see above)."""
    size = naming.resolve_group(ddp.process_group).size()
    return bool(getattr(ddp, "gradient_as_bucket_view", False)) and size & (size - 1) != 0


def parameter_names(module):
    """id(parameter) -> its qualified name in `module` (the first name of a shared one)."""
    names = {}
    for name, parameter in module.named_parameters():
        names.setdefault(id(parameter), name)
    return names


def default_all_reduce():
    return c10d.all_reduce
