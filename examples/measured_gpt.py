#!/usr/bin/env python3
"""A GPT written to the memory formulas' assumptions, measured with ringviz_torch.measure on 4
gloo processes: one training step under each configuration (DDP and ZeroRedundancyOptimizer,
each with no, selective and full checkpointing), all in one launch, into a recorded job.

    python3 examples/measured_gpt.py --out job/      # then: ringviz job import job/ --out job.json
                                                     #       ringviz memory --from-job job.json

The block keeps exactly the tensors Korthikanti et al. (2022) count for a GPT layer: the two
LayerNorms' inputs, the QKV projection's input and output (Q, K, V), the softmax's output, its
dropout mask and the dropped scores, the output projection's input and its dropout mask, the MLP's
input, GeLU's input and output, and the MLP's dropout mask. Where the CPU differs from the
formulas (docs/memory.md, "Measured against the model"): activations are fp32 (4 bytes, not 2),
dropout masks are bools (1 byte, as the formulas count them; `torch.native_dropout` keeps a bool
mask where `F.dropout` on the CPU keeps a float one), the causal mask is added (an addition saves
nothing) rather than filled in, and LayerNorm also keeps its fp32 mean and reciprocal deviation.
"""

import argparse
import math
import os
import sys
import time

try:
    import torch
    import torch.distributed as dist
    import torch.nn as nn
    import torch.nn.functional as F
    from torch.nn.parallel import DistributedDataParallel
    from torch.utils.checkpoint import checkpoint
except ImportError as error:
    print("measured_gpt: needs PyTorch with torch.distributed (%s)" % error, file=sys.stderr)
    sys.exit(2)

import ddp_gpt  # the process launcher next to this file

_REPOSITORY_PYTHON = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "python")

STRATEGIES = ("ddp", "zero1")
RECOMPUTES = ("none", "selective", "full")
DROPOUT = 0.1


def dropout(x, training):
    """Dropout that keeps a bool mask for backward, as the formulas count it."""
    return torch.native_dropout(x, DROPOUT, training)[0] if training else x


class AttentionCore(nn.Module):
    """softmax(Q·Kᵀ/√d + causal) with dropout, times V: what selective recomputation rebuilds."""

    def __init__(self, heads):
        super().__init__()
        self.heads = heads

    def forward(self, q, k, v):
        # Built here, not passed in: a checkpoint keeps every tensor it is given.
        length = q.shape[-2]
        causal = torch.full((length, length), float("-inf")).triu(diagonal=1)
        scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1]) + causal
        return dropout(scores.softmax(dim=-1), self.training) @ v


class BlockBody(nn.Module):
    def __init__(self, width, heads, selective):
        super().__init__()
        self.heads = heads
        self.selective = selective
        self.ln1 = nn.LayerNorm(width)
        self.qkv = nn.Linear(width, 3 * width)
        self.core = AttentionCore(heads)
        self.proj = nn.Linear(width, width)
        self.ln2 = nn.LayerNorm(width)
        self.fc = nn.Linear(width, 4 * width)
        self.fc_out = nn.Linear(4 * width, width)

    def forward(self, x):
        batch, length, width = x.shape
        q, k, v = self.qkv(self.ln1(x)).split(width, dim=2)
        shape = (batch, length, self.heads, width // self.heads)
        q, k, v = (t.view(shape).transpose(1, 2) for t in (q, k, v))
        if self.selective:
            attended = checkpoint(self.core, q, k, v)
        else:
            attended = self.core(q, k, v)
        attended = attended.transpose(1, 2).reshape(batch, length, width)
        x = x + dropout(self.proj(attended), self.training)
        return x + dropout(self.fc_out(F.gelu(self.fc(self.ln2(x)))), self.training)


class Block(nn.Module):
    """A layer; with full recomputation only its input is kept and its body reruns in backward."""

    def __init__(self, width, heads, recompute):
        super().__init__()
        self.full = recompute == "full"
        self.body = BlockBody(width, heads, recompute == "selective")

    def forward(self, x):
        return checkpoint(self.body, x) if self.full else self.body(x)


class MeasuredGPT(nn.Module):
    def __init__(self, vocabulary, context, width, heads, layers, recompute):
        super().__init__()
        self.token_embedding = nn.Embedding(vocabulary, width)
        self.position_embedding = nn.Embedding(context, width)
        self.blocks = nn.ModuleList([Block(width, heads, recompute) for _ in range(layers)])
        self.ln_final = nn.LayerNorm(width)
        self.head = nn.Linear(width, vocabulary, bias=False)

    def forward(self, tokens):
        x = self.token_embedding(tokens) + self.position_embedding(torch.arange(tokens.shape[1]))
        for block in self.blocks:
            x = block(x)
        return self.head(self.ln_final(x))


def shape_of(model, args):
    return {"parameters": sum(dict((p.storage().data_ptr(), p.numel()) for p in model.parameters()).values()),
            "layers": args.layers, "hidden": args.width, "heads": args.heads, "ffn": 4 * args.width,
            "vocab": args.vocabulary, "seq": args.context, "micro_batch": args.batch, "dropout": True}


def measure_rank(rank, world_size, port, args):
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(port)
    torch.set_num_threads(1)
    dist.init_process_group("gloo", rank=rank, world_size=world_size)
    if _REPOSITORY_PYTHON not in sys.path:
        sys.path.insert(0, _REPOSITORY_PYTHON)
    import ringviz_torch
    from torch.distributed.optim import ZeroRedundancyOptimizer

    recorder = ringviz_torch.record(None, out=args.out)
    data = torch.Generator().manual_seed(1000 + rank)
    for strategy in STRATEGIES:
        for recompute in RECOMPUTES:
            torch.manual_seed(1234)
            model = MeasuredGPT(args.vocabulary, args.context, args.width, args.heads, args.layers, recompute)
            ddp = DistributedDataParallel(model, gradient_as_bucket_view=True)
            if strategy == "zero1":
                optimizer = ZeroRedundancyOptimizer(ddp.parameters(), optimizer_class=torch.optim.Adam, lr=1e-3)
            else:
                optimizer = torch.optim.Adam(ddp.parameters(), lr=1e-3)
            tokens = torch.randint(args.vocabulary, (args.batch, args.context + 1), generator=data)

            def forward_loss():
                logits = ddp(tokens[:, :-1])
                return F.cross_entropy(logits.reshape(-1, logits.shape[-1]), tokens[:, 1:].reshape(-1))

            recorder.add_memory(ringviz_torch.measure(
                ddp, optimizer, forward_loss, list(model.blocks),
                shape_of(model, args), strategy, recompute,
                label="%s, recompute %s" % ("DDP" if strategy == "ddp" else "ZeRO-1", recompute)))
            del ddp, optimizer, model
    recorder.close()
    dist.destroy_process_group()


def parse_arguments(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", metavar="DIR", required=True, help="the recorded job's folder (rank-<R>.json)")
    parser.add_argument("--world-size", type=int, default=4, help="processes (default 4)")
    parser.add_argument("--layers", type=int, default=2)
    parser.add_argument("--width", type=int, default=64, help="h (default 64)")
    parser.add_argument("--heads", type=int, default=4, help="a (default 4)")
    parser.add_argument("--context", type=int, default=32, help="s (default 32)")
    parser.add_argument("--batch", type=int, default=2, help="b (default 2)")
    parser.add_argument("--vocabulary", type=int, default=96, help="V (default 96)")
    parser.add_argument("--timeout", type=float, default=120.0)
    args = parser.parse_args(argv)
    for name in ("world_size", "layers", "width", "heads", "context", "batch", "vocabulary"):
        if getattr(args, name) < 1:
            parser.error("--%s must be at least 1" % name.replace("_", "-"))
    if args.width % args.heads:
        parser.error("--heads must divide --width")
    return args


def main(argv=None):
    args = parse_arguments(sys.argv[1:] if argv is None else argv)
    started = time.monotonic()
    status = ddp_gpt.run_processes(measure_rank, args)
    if status == 0:
        print("measured_gpt: %d ranks, %d configurations in %.1f s; recorded into %s" % (
            args.world_size, len(STRATEGIES) * len(RECOMPUTES), time.monotonic() - started, args.out))
    return status


if __name__ == "__main__":
    sys.exit(main())
