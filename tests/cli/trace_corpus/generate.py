#!/usr/bin/env python3
"""Records the trace corpus: 200 seeded random configs and what `ringviz trace --format json`
printed for each. Run it with a ringviz binary you trust (the corpus was recorded before the
engine was split into its core folders); the CLI suite then checks that every later build
prints the same bytes.

    tests/cli/trace_corpus/generate.py build/app/ringviz
"""
import pathlib
import random
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
CORPUS_SIZE = 200


def random_config(rng):
    op = rng.choice(["allgather", "reducescatter", "allreduce"])
    algo = rng.choice(["ring"] * 4 + ["naive", "direct", "rhd", "tree", "tree-pipelined"])
    gpus = rng.choice([1, 2, 2, 3, 4, 4, 5, 6, 7, 8])
    # Divisible, not divisible, smaller than N, zero.
    count = rng.choice([0, 1, gpus - 1, gpus, gpus + 1, 2 * gpus, rng.randint(1, 24)])
    dtype = rng.choice(["f32", "f64", "f16", "bf16", "i32", "i64"])
    reduce = rng.choice(["sum", "prod", "max", "min", "avg"])
    order = rng.choice(["seed", "nccl"])
    init = rng.choice(["seed", "rank", "index", "random:%d" % rng.randint(0, 10**6)])
    return ["--op", op, "--algo", algo, "--gpus", str(max(gpus, 1)), "--count", str(max(count, 0)),
            "--dtype", dtype, "--reduce", reduce, "--order", order, "--init", init, "--backend", "cpu"]


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: generate.py PATH/TO/ringviz")
    ringviz = sys.argv[1]
    rng = random.Random(20261203)
    expected = HERE / "expected"
    expected.mkdir(exist_ok=True)
    lines = []
    while len(lines) < CORPUS_SIZE:
        args = random_config(rng)
        run = subprocess.run([ringviz, "trace", "--format", "json", *args], capture_output=True)
        if run.returncode != 0:
            continue  # a combination the algorithm refuses; bad input has its own tests
        name = "%03d.json" % len(lines)
        (expected / name).write_bytes(run.stdout)
        lines.append(name + " " + " ".join(args))
    (HERE / "configs.txt").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
