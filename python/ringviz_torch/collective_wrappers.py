"""Records the torch.distributed collectives a script (or ZeroRedundancyOptimizer) calls, by
putting a recording wrapper in place of each function while the recorder is open.

The wrapper replaces the name in both `torch.distributed` and
`torch.distributed.distributed_c10d`, since code calls it through either. Some functions call
another one (`_all_gather_base` calls `all_gather_into_tensor`); a per-thread depth records only
the outermost call.
"""

import inspect
import threading

import torch.distributed as dist
import torch.distributed.distributed_c10d as c10d

from . import naming


def _numel(tensors):
    return sum(t.numel() for t in tensors)


# Each describer reads the call's bound arguments and returns
# (op, a tensor of the collective's type, count, group, extra fields).
# `count` follows docs/job-format.md: the input's elements, one rank's input for AllGather.
def _all_reduce(a):
    return "allreduce", a["tensor"], a["tensor"].numel(), a["group"], {"reduce": naming.reduce_name(a["op"])}


def _broadcast(a):
    return "broadcast", a["tensor"], a["tensor"].numel(), a["group"], {"root": a["src"]}


def _all_gather(a):
    return "allgather", a["tensor"], a["tensor"].numel(), a["group"], {}


def _all_gather_into_tensor(a):
    return "allgather", a["input_tensor"], a["input_tensor"].numel(), a["group"], {}


def _reduce_scatter(a):
    inputs = a["input_list"]
    return "reducescatter", inputs[0], _numel(inputs), a["group"], {"reduce": naming.reduce_name(a["op"])}


def _reduce_scatter_tensor(a):
    return "reducescatter", a["input"], a["input"].numel(), a["group"], {"reduce": naming.reduce_name(a["op"])}


def _uneven_splits(sent, received):
    """The splits of an all_to_all whose blocks differ in size, or nothing when they are all one
    size (then the job document steps it as even)."""
    if len(set(sent)) <= 1 and len(set(received)) <= 1 and sent[:1] == received[:1]:
        return {}
    return {"in_splits": list(sent), "out_splits": list(received)}


def _all_to_all(a):
    inputs = a["input_tensor_list"]
    splits = _uneven_splits([t.numel() for t in inputs], [t.numel() for t in a["output_tensor_list"]])
    return "alltoall", inputs[0], _numel(inputs), a["group"], splits


def _all_to_all_single(a):
    """all_to_all_single cuts dim 0 by the split sizes; None is an even cut."""
    size = a["input"].size(0) if a["input"].dim() > 0 else 0
    per_row = a["input"].numel() // size if size else 0
    members = dist.get_world_size(a["group"])
    sent = a["input_split_sizes"] or [size // members] * members
    out_size = a["output"].size(0) if a["output"].dim() > 0 else 0
    received = a["output_split_sizes"] or [out_size // members] * members
    splits = _uneven_splits([s * per_row for s in sent], [s * per_row for s in received])
    return "alltoall", a["input"], a["input"].numel(), a["group"], splits


def _send(a):
    return "sendrecv", a["tensor"], a["tensor"].numel(), a["group"], {"peer": a["dst"]}


def _recv(a):
    return "sendrecv", a["tensor"], a["tensor"].numel(), a["group"], {"peer": a["src"]}


# (name, describer, whether it returns a Work to wait on regardless of async_op)
_WRAPPED = [
    ("all_reduce", _all_reduce, False),
    ("broadcast", _broadcast, False),
    ("all_gather", _all_gather, False),
    ("all_gather_into_tensor", _all_gather_into_tensor, False),
    ("_all_gather_base", _all_gather_into_tensor, False),
    ("reduce_scatter", _reduce_scatter, False),
    ("reduce_scatter_tensor", _reduce_scatter_tensor, False),
    ("_reduce_scatter_base", _reduce_scatter_tensor, False),
    ("all_to_all", _all_to_all, False),
    ("all_to_all_single", _all_to_all_single, False),
    ("send", _send, False),
    ("recv", _recv, False),
    ("isend", _send, True),
    ("irecv", _recv, True),
]


class _PendingWork:
    """A Work without a future (gloo's send and receive): stands in for it and records the end
    when the caller's wait() returns."""

    def __init__(self, work, on_done):
        self._work = work
        self._on_done = on_done

    def wait(self, *args, **kwargs):
        result = self._work.wait(*args, **kwargs)
        self._on_done()
        return result

    def __getattr__(self, name):
        return getattr(self._work, name)


class CollectiveWrappers:
    def __init__(self, log, clock):
        self._log = log
        self._clock = clock
        self._depth = threading.local()
        self._saved = []  # (module, name, original)

    def install(self):
        modules = [dist, c10d]
        for name, describe, always_async in _WRAPPED:
            original = getattr(c10d, name, None)
            if original is None:  # not in this torch release
                continue
            wrapper = self._wrap(original, describe, always_async)
            for module in modules:
                if getattr(module, name, None) is original:
                    self._saved.append((module, name, original))
                    setattr(module, name, wrapper)

    def restore(self):
        for module, name, original in reversed(self._saved):
            setattr(module, name, original)
        self._saved = []

    def _wrap(self, original, describe, always_async):
        signature = inspect.signature(original)
        log, clock, depth = self._log, self._clock, self._depth

        def recording(*args, **kwargs):
            if getattr(depth, "value", 0) > 0:
                return original(*args, **kwargs)
            bound = signature.bind(*args, **kwargs)
            bound.apply_defaults()
            arguments = bound.arguments
            depth.value = 1
            try:
                op, tensor, count, group, extra = describe(arguments)
                if naming.resolve_group(group) is c10d.GroupMember.NON_GROUP_MEMBER:
                    return original(*args, **kwargs)
                collective = log.begin_collective(op, group, tensor, count, clock.now_ns())
                for field, value in extra.items():
                    setattr(collective, field, value)
                try:
                    result = original(*args, **kwargs)
                except BaseException:
                    log.discard_collective(collective)
                    raise
            finally:
                depth.value = 0
            if op == "sendrecv" and collective.peer is None and isinstance(result, int):
                collective.peer = result  # recv from any source returns the sender
            if not (always_async or arguments.get("async_op", False)) or result is None:
                log.end_collective(collective, clock.now_ns())
                return result

            def done():
                if op == "sendrecv" and collective.peer is None:
                    # irecv from any source: the sender is known now (source_rank is deprecated
                    # in torch 1.13 and warns; _source_rank is the same call without the warning)
                    collective.peer = getattr(result, "_source_rank", result.source_rank)()
                log.end_collective(collective, clock.now_ns())

            return _watch(result, done)

        recording.__name__ = original.__name__
        recording.__doc__ = original.__doc__
        recording.__wrapped__ = original
        return recording


def _watch(work, on_done):
    """Calls on_done when the asynchronous work completes: through its future where it has one
    (the end is when the library finished, not when the caller waited), otherwise on wait()."""
    try:
        future = work.get_future()
    except RuntimeError:
        return _PendingWork(work, on_done)
    future.add_done_callback(lambda _: on_done())
    return work
