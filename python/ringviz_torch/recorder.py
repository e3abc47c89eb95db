"""`record(...)`: what one rank of a live job does with its collectives until it closes."""

import sys

import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel

from .clock import Clock
from .collective_wrappers import CollectiveWrappers
from .comm_hook import BucketRecorder, default_all_reduce, may_differ_from_ddp, parameter_names
from .event_log import EventLog
from .part_writer import build_part, write_part
from .phases import PhaseRecorder


# Where a DDP model keeps its recording hook: DDP accepts one communication hook and cannot
# drop it, so a second recorder of the same model reuses the first one's.
_HOOK_ATTRIBUTE = "_ringviz_torch_buckets"


class Recorder:
    """Records this rank's collectives and compute from construction until `close()` (or the
    end of a `with` block), then writes `rank-<R>.json` into `out`."""

    def __init__(self, model_or_ddp, optimizer=None, out="job/"):
        if not dist.is_available() or not dist.is_initialized():
            raise RuntimeError("ringviz_torch.record: call torch.distributed.init_process_group first")
        self.out = out
        self.path = None
        self._rank = dist.get_rank()
        self._world_size = dist.get_world_size()
        self._backend = str(dist.get_backend())
        self._clock = Clock()
        self._log = EventLog()
        self._log.note_group(None)
        self._closed = False

        if isinstance(model_or_ddp, DistributedDataParallel):
            model = model_or_ddp.module
            self._buckets = getattr(model_or_ddp, _HOOK_ATTRIBUTE, None)
            if self._buckets is None:
                self._buckets = BucketRecorder(self._log, self._clock, parameter_names(model),
                                               default_all_reduce())
                model_or_ddp.register_comm_hook(model_or_ddp.process_group, self._buckets.hook)
                if may_differ_from_ddp(model_or_ddp) and self._rank == 0:
                    print("ringviz_torch: with gradient_as_bucket_view=True and a world size that "
                          "is not a power of two, gradients may differ from DDP's own in the last "
                          "bit while recording", file=sys.stderr)
                setattr(model_or_ddp, _HOOK_ATTRIBUTE, self._buckets)
            elif self._buckets.recording:
                raise RuntimeError("ringviz_torch.record: this DDP model is already being recorded; "
                                   "close that recorder first")
            else:
                self._buckets.start(self._log, self._clock)
        else:
            model = model_or_ddp
            self._buckets = None

        self._phases = PhaseRecorder(self._log, self._clock)
        if model is not None:
            self._phases.watch_model(model)
        if optimizer is not None:
            self._phases.watch_optimizer(optimizer)
        self._wrappers = CollectiveWrappers(self._log, self._clock)
        self._wrappers.install()
        self._memory = []

    def add_memory(self, measurement):
        """Adds what `ringviz_torch.measure(...)` returned to this rank's part, under
        `ranks[0].memory` (docs/job-format.md, "Measured memory")."""
        if self._closed:
            raise RuntimeError("ringviz_torch: add_memory after close; the part is already written")
        self._memory.append(measurement)

    def close(self):
        """Stops recording, puts torch.distributed back as it was and writes this rank's part.
        Returns the part's path. A second call does nothing."""
        if self._closed:
            return self.path
        self._closed = True
        self._wrappers.restore()
        self._phases.stop()
        if self._buckets is not None:
            self._buckets.finish()
        groups, collectives, compute = self._log.snapshot()
        document, unfinished = build_part(self._rank, self._world_size, self._backend, groups,
                                          collectives, compute, self._clock, self._memory)
        if unfinished:
            print("ringviz_torch: rank %d: %d collective(s) had not completed when the recorder "
                  "closed; the part leaves them out" % (self._rank, unfinished), file=sys.stderr)
        self.path = write_part(self.out, self._rank, document)
        return self.path

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, traceback):
        self.close()
        return False


def record(model_or_ddp, optimizer=None, out="job/"):
    """Starts recording this rank of a torch.distributed job.

    model_or_ddp: a DistributedDataParallel model (its gradient buckets are recorded through a
        communication hook that reduces exactly as DDP does) or a plain module (forward and
        backward spans only).
    optimizer: its step is recorded as an optimizer span (ZeroRedundancyOptimizer's collectives
        are recorded either way, like every torch.distributed collective called while
        recording).
    out: the folder for `rank-<R>.json`; `ringviz job import` joins the folder's parts.
    """
    return Recorder(model_or_ddp, optimizer=optimizer, out=out)
