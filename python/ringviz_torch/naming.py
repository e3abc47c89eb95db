"""ringviz's names for what torch.distributed calls by its own (docs/job-format.md, "Fields")."""

import torch
import torch.distributed as dist
import torch.distributed.distributed_c10d as c10d

_DTYPE_NAMES = {
    torch.float32: "f32",
    torch.float64: "f64",
    torch.float16: "f16",
    torch.bfloat16: "bf16",
    torch.int32: "i32",
    torch.int64: "i64",
}


def dtype_name(dtype):
    """ringviz's name, or torch's own (e.g. "uint8") for a type ringviz does not reduce; the
    importer names and skips those."""
    return _DTYPE_NAMES.get(dtype, str(dtype).replace("torch.", ""))


_REDUCE_NAMES = ["SUM", "AVG", "PRODUCT", "MIN", "MAX", "BAND", "BOR", "BXOR", "PREMUL_SUM"]


def reduce_name(op):
    for name in _REDUCE_NAMES:
        candidate = getattr(dist.ReduceOp, name, None)
        if candidate is not None and op == candidate:
            return name.lower()
    return str(op)


def resolve_group(group):
    """The process group a call runs on: None means the default (world) group."""
    return group if group is not None else c10d._get_default_group()


def group_name(group):
    """The name torch gave the group ("0" for the default group, then "1", "2", ...)."""
    return c10d._pg_names.get(resolve_group(group), "?")


def group_global_ranks(group):
    """The group's members as global ranks, in the order of their rank within the group."""
    group = resolve_group(group)
    global_to_group = c10d._pg_group_ranks.get(group)
    if global_to_group is None:
        return list(range(dist.get_world_size()))
    return [global_rank for global_rank, _ in sorted(global_to_group.items(), key=lambda kv: kv[1])]


def group_description(group):
    group = resolve_group(group)
    return "default_pg" if group is c10d._get_default_group() else "process group " + group_name(group)

