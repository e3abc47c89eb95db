#!/usr/bin/env python3
"""A small GPT trained with DistributedDataParallel on CPU processes (gloo), optionally
recorded with ringviz_torch for `ringviz job import`.

    python3 examples/ddp_gpt.py --out job/            # 4 ranks, record into job/
    python3 examples/ddp_gpt.py --zero --out job/     # ZeroRedundancyOptimizer instead of Adam

Everything is deterministic (fixed seeds, synthetic data, one thread per rank), so two runs
give bit-identical parameters; that is how the test shows recording changes nothing.
"""

import argparse
import math
import os
import socket
import sys
import time

try:
    import torch
    import torch.distributed as dist
    import torch.multiprocessing as mp
    import torch.nn as nn
    import torch.nn.functional as F
    from torch.nn.parallel import DistributedDataParallel
except ImportError as error:
    print("ddp_gpt: needs PyTorch with torch.distributed (%s); install python3-torch or run it "
          "with an interpreter that has torch" % error, file=sys.stderr)
    sys.exit(2)

# The package lives in the repository's python/ folder, next to this one; use it from there
# when it is not installed.
_REPOSITORY_PYTHON = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "python")


class CausalSelfAttention(nn.Module):
    def __init__(self, width, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(width, 3 * width)
        self.proj = nn.Linear(width, width)

    def forward(self, x):
        batch, length, width = x.shape
        q, k, v = self.qkv(x).split(width, dim=2)
        shape = (batch, length, self.heads, width // self.heads)
        q, k, v = (t.view(shape).transpose(1, 2) for t in (q, k, v))
        scores = q @ k.transpose(-2, -1) / math.sqrt(width // self.heads)
        # Built each call rather than kept as a buffer: DDP broadcasts buffers every forward,
        # which would add collectives that have nothing to do with the model.
        future = torch.triu(torch.ones(length, length, dtype=torch.bool), diagonal=1)
        weights = scores.masked_fill(future, float("-inf")).softmax(dim=-1)
        out = (weights @ v).transpose(1, 2).reshape(batch, length, width)
        return self.proj(out)


class Block(nn.Module):
    def __init__(self, width, heads):
        super().__init__()
        self.ln1 = nn.LayerNorm(width)
        self.attn = CausalSelfAttention(width, heads)
        self.ln2 = nn.LayerNorm(width)
        self.fc = nn.Linear(width, 4 * width)
        self.fc_out = nn.Linear(4 * width, width)

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.fc_out(F.gelu(self.fc(self.ln2(x))))


class TinyGPT(nn.Module):
    """Token and position embeddings, transformer blocks, a final layer norm and a head tied
    to the token embedding (about 430 thousand parameters, 1.7 MB of f32 gradients with the
    defaults: more than DDP's 1 MiB first bucket, so the rebuilt buckets show both caps)."""

    def __init__(self, vocabulary=256, context=32, width=128, heads=4, layers=2):
        super().__init__()
        self.token_embedding = nn.Embedding(vocabulary, width)
        self.position_embedding = nn.Embedding(context, width)
        self.blocks = nn.ModuleList([Block(width, heads) for _ in range(layers)])
        self.ln_final = nn.LayerNorm(width)
        for module in self.modules():
            # GPT-2's initialisation; torch's N(0, 1) embeddings make the tied head's first
            # logits so large that the loss starts near 90.
            if isinstance(module, (nn.Linear, nn.Embedding)):
                nn.init.normal_(module.weight, std=0.02)
            if isinstance(module, nn.Linear):
                nn.init.zeros_(module.bias)

    def forward(self, tokens):
        positions = torch.arange(tokens.shape[1])
        x = self.token_embedding(tokens) + self.position_embedding(positions)
        for block in self.blocks:
            x = block(x)
        return self.ln_final(x) @ self.token_embedding.weight.t()


def synthetic_batch(generator, batch, context, vocabulary):
    """Sequences that follow t[i+1] = (5 t[i] + 3) mod vocabulary from random starts: something
    the model can learn, so the loss visibly falls."""
    starts = torch.randint(vocabulary, (batch, 1), generator=generator)
    tokens = starts
    for _ in range(context):
        tokens = torch.cat([tokens, (5 * tokens[:, -1:] + 3) % vocabulary], dim=1)
    return tokens[:, :-1], tokens[:, 1:]


def train(rank, world_size, port, args):
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(port)
    torch.set_num_threads(1)  # determinism, and four ranks share few cores
    dist.init_process_group("gloo", rank=rank, world_size=world_size)

    torch.manual_seed(1234)  # the same initial model on every rank
    model = TinyGPT()
    ddp = DistributedDataParallel(model, bucket_cap_mb=args.bucket_cap_mb)
    if args.zero:
        from torch.distributed.optim import ZeroRedundancyOptimizer
        optimizer = ZeroRedundancyOptimizer(ddp.parameters(), optimizer_class=torch.optim.Adam, lr=3e-3)
    else:
        optimizer = torch.optim.Adam(ddp.parameters(), lr=3e-3)

    recorder = None
    if args.out:
        if _REPOSITORY_PYTHON not in sys.path:
            sys.path.insert(0, _REPOSITORY_PYTHON)
        import ringviz_torch
        recorder = ringviz_torch.record(ddp, optimizer, out=args.out)

    data = torch.Generator().manual_seed(1000 + rank)  # each rank its own shard of data
    for iteration in range(args.iterations):
        inputs, targets = synthetic_batch(data, batch=8, context=32, vocabulary=256)
        logits = ddp(inputs)
        loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1))
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        if rank == 0:
            print("iteration %d: loss %.4f" % (iteration, loss.item()), flush=True)

    if recorder is not None:
        recorder.close()
    if rank == 0 and args.params_out:
        state = {name: p.detach().clone() for name, p in model.named_parameters()}
        torch.save(state, args.params_out)
    dist.destroy_process_group()


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def run_ranks(args):
    """Trains on args.world_size processes; see run_processes."""
    return run_processes(train, args)


def run_processes(target, args):
    """Starts one process per rank, each running target(rank, world_size, port, args), and waits
    for all of them, at most args.timeout seconds. Returns the exit status: 0, 1 where a rank
    failed, 2 where ranks were stopped."""
    # fork where there is one: the ranks start in a fraction of the time a fresh interpreter
    # takes to import torch (the parent has run no torch op, so no thread pool is copied).
    context = mp.get_context("fork" if "fork" in mp.get_all_start_methods() else "spawn")
    port = free_port()
    processes = [context.Process(target=target, args=(rank, args.world_size, port, args), daemon=True)
                 for rank in range(args.world_size)]
    for process in processes:
        process.start()
    deadline = time.monotonic() + args.timeout
    while any(p.is_alive() for p in processes):
        failed = [r for r, p in enumerate(processes) if p.exitcode not in (None, 0)]
        if failed:
            # The others would wait forever for the failed rank in their next collective.
            stop(processes)
            print("ddp_gpt: rank(s) %s failed (exit %s); stopped the others"
                  % (failed, [processes[r].exitcode for r in failed]), file=sys.stderr)
            return 1
        if time.monotonic() > deadline:
            stuck = [r for r, p in enumerate(processes) if p.is_alive()]
            stop(processes)
            print("ddp_gpt: rank(s) %s did not finish within %g s; stopped them"
                  % (stuck, args.timeout), file=sys.stderr)
            return 2
        time.sleep(0.05)
    failed = [r for r, p in enumerate(processes) if p.exitcode != 0]
    if failed:
        print("ddp_gpt: rank(s) %s failed (exit %s)" % (failed, [processes[r].exitcode for r in failed]),
              file=sys.stderr)
        return 1
    return 0


def stop(processes):
    for process in processes:
        if process.is_alive():
            process.terminate()
    for process in processes:
        process.join(5)
        if process.is_alive():
            process.kill()
            process.join(5)


def parse_arguments(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--iterations", type=int, default=5, help="training steps (default 5)")
    parser.add_argument("--out", metavar="DIR", help="record with ringviz_torch into DIR (rank-<R>.json)")
    parser.add_argument("--zero", action="store_true", help="ZeroRedundancyOptimizer(Adam) instead of Adam")
    parser.add_argument("--bucket-cap-mb", type=float, default=0.25,
                        help="DDP's bucket_cap_mb (default 0.25: the model spans several buckets)")
    parser.add_argument("--params-out", metavar="FILE", help="save rank 0's final parameters (torch.save)")
    parser.add_argument("--world-size", type=int, default=4, help="processes (default 4)")
    parser.add_argument("--timeout", type=float, default=120.0,
                        help="seconds before stuck ranks are stopped (default 120)")
    args = parser.parse_args(argv)
    if args.iterations < 1:
        parser.error("--iterations must be at least 1")
    if args.world_size < 1:
        parser.error("--world-size must be at least 1")
    if not args.bucket_cap_mb > 0:
        parser.error("--bucket-cap-mb must be positive")
    if not args.timeout > 0:
        parser.error("--timeout must be positive")
    return args


def main(argv=None):
    args = parse_arguments(sys.argv[1:] if argv is None else argv)
    started = time.monotonic()
    status = run_ranks(args)
    if status == 0:
        print("ddp_gpt: %d ranks, %d iterations in %.1f s%s" % (
            args.world_size, args.iterations, time.monotonic() - started,
            "; recorded into " + args.out if args.out else ""))
    return status


if __name__ == "__main__":
    sys.exit(main())
