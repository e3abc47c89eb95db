#!/usr/bin/env python3
"""Regenerates the tables of docs/memory.md that come from running things:

- "measured-table": examples/measured_gpt.py on 4 gloo processes (needs a python3 with torch),
  imported with `ringviz job import` and held against the model with `ringviz memory --from-job`;
- "llama-tp-table": `ringviz memory --model llama3-8b|llama3-70b` with TP 8 and SP;
- "playbook-table": the Ultra-Scale Playbook's Llama 3 memory charts
  (tests/data/playbook/memory-charts.json) beside `ringviz memory` for the same settings.

    python3 scripts/memory_tables.py --ringviz build/app/ringviz [--python /usr/bin/python3]

Each table sits between `<!-- NAME:begin -->` and `<!-- NAME:end -->` in docs/memory.md and is
replaced whole; the rest of the file is left as it is.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

REPOSITORY = os.path.abspath(os.path.join(os.path.dirname(__file__), os.pardir))
DOC = os.path.join(REPOSITORY, "docs", "memory.md")


def run(command):
    finished = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if finished.returncode != 0:
        sys.exit("memory_tables: %s exited %d:\n%s%s" % (" ".join(command), finished.returncode, finished.stdout,
                                                          finished.stderr))
    return finished.stdout


def tolerance(term):
    low, high = term["tolerance"]
    if low == 0 and high == 0:
        return "0"
    if low == -high:
        return "±%d" % high
    return "%d to +%d" % (low, high)


def measured_table(ringviz, python):
    with tempfile.TemporaryDirectory() as workdir:
        parts = os.path.join(workdir, "job")
        run([python, os.path.join(REPOSITORY, "examples", "measured_gpt.py"), "--out", parts])
        job = os.path.join(workdir, "job.json")
        run([ringviz, "job", "import", parts, "--out", job, "--quiet"])
        comparisons = json.loads(run([ringviz, "memory", "--from-job", job, "--format", "json"]))["comparisons"]
    rows = ["| strategy | checkpointing | term | measured (bytes) | model (bytes) | difference | tolerance | within |",
            "|---|---|---|---:|---:|---:|---|---|"]
    zero1_shards = {}
    for c in comparisons:
        if c["strategy"] == "zero1":
            for term in c["terms"]:
                if term["term"] == "optimizer states":
                    zero1_shards.setdefault(c["recompute"], []).append(term["measured"])
        if c["rank"] != 0:
            continue
        strategy = "DDP" if c["strategy"] == "ddp" else "ZeRO-1"
        for term in c["terms"]:
            rows.append("| %s | %s | %s | %d | %d | %+d | %s | %s |" % (
                strategy, c["recompute"], term["term"], term["measured"], term["model"], term["difference"],
                tolerance(term), "yes" if term["within"] else "**no**"))
    within = all(term["within"] for c in comparisons for term in c["terms"])
    notes = ["",
             "Rank 0 of 4; every rank measured the same bytes except ZeRO-1's optimizer states (and their step counters), which "
             "ZeroRedundancyOptimizer splits by whole tensors: per rank %s bytes (the model's ring slices: "
             "%d each), together exactly DDP's." % (
                 ", ".join(str(b) for b in zero1_shards.get("none", [])),
                 next(t["model"] for c in comparisons if c["strategy"] == "zero1"
                      for t in c["terms"] if t["term"] == "optimizer states")),
             "Every term of every rank and configuration within its tolerance: %s." % ("yes" if within else "**no**")]
    return "\n".join(rows + notes)


def llama_table(ringviz):
    rows = ["| model | parallelism | checkpointing | attention | activations per layer | all layers + logits "
            "| model states (16Ψ/t) | peak | TP bytes sent per GPU | fits 80 GB |",
            "|---|---|---|---|---:|---:|---:|---:|---:|---|"]
    for model in ("llama3-8b", "llama3-70b"):
        for tp, sp in ((1, False), (8, False), (8, True)):
            for attention in ("eager", "flash"):
                command = [ringviz, "memory", "--model", model, "--gpus", "8", "--tp", str(tp), "--strategy", "ddp",
                           "--recompute", "all", "--attention", attention, "--format", "json"]
                if sp:
                    command.append("--sp")
                document = json.loads(run(command))
                for e in document["estimates"]:
                    a = e["activation_bytes"]
                    # The paper convention's 16 bytes for each of this GPU's Ψ/t parameters (DP 1 at TP 8
                    # on 8 GPUs; DDP replicates them at TP 1): the model states whatever the moment.
                    states = 16 * -(-document["model"]["parameters"] // tp)
                    parallelism = "TP %d%s, DP %d" % (tp, " + SP" if sp else "", e["data_parallel"])
                    rows.append("| %s | %s | %s | %s | %.3f GB | %.1f GB | %.1f GB | %.1f GB | %.1f GB | %s |" % (
                        model, parallelism, e["recompute"], attention, a["stored_per_layer"] / 1e9,
                        (a["all_layers"] + a["recomputed"] + a["logits"]) / 1e9,
                        states / 1e9, e["per_gpu"]["peak"] / 1e9, e["bytes_sent_per_gpu"]["tensor_parallel"] / 1e9,
                        "yes" if e["fits"] else "no"))
    return "\n".join(rows)


def gib(value):
    return ("%.4f" % value).rstrip("0").rstrip(".")


def playbook_table(ringviz):
    with open(os.path.join(REPOSITORY, "tests", "data", "playbook", "memory-charts.json")) as handle:
        panels = json.load(handle)["panels"]
    # The paper convention's bytes a parameter: the model states every GPU of a TP group holds
    # for its Ψ/t parameters whatever the moment (the iteration's per-GPU figures are its peak's).
    rules = json.loads(run([ringviz, "memory", "--params", "1", "--gpus", "1", "--format", "json"]))["components"]
    per_parameter = {r["component"]: r["bytes_per_parameter"] for r in rules}
    adam_bytes = per_parameter["momentum"] + per_parameter["variance"]
    rows = ["| chart | sequence | parameters: chart / ringviz | gradients: chart / ringviz "
            "| Adam states: chart / ringviz | activations: chart / ringviz |",
            "|---|---:|---:|---:|---:|---:|"]
    for panel in panels:
        for seq, chart_activations in zip(panel["seq"], panel["activations"]):
            command = [ringviz, "memory", "--model", panel["model"], "--gpus", str(panel["tp"]), "--tp", str(panel["tp"]),
                       "--strategy", "ddp", "--recompute", "selective", "--seq", str(seq), "--micro-batch", "1",
                       "--format", "json"]
            if panel["sp"]:
                command.append("--sp")
            document = json.loads(run(command))
            estimate = document["estimates"][0]
            share = -(-document["model"]["parameters"] // panel["tp"])
            rows.append("| %s | %d | %s / %s | %s / %s | %s / %s | %s / %s |" % (
                panel["chart"], seq, gib(panel["parameters"]), gib(per_parameter["parameters"] * share / 2**30),
                gib(panel["gradients"]), gib(per_parameter["gradients"] * share / 2**30),
                gib(panel["optimizer_states"]), gib(adam_bytes * share / 2**30),
                gib(chart_activations), gib(estimate["activation_bytes"]["all_layers"] / 2**30)))
    return "\n".join(rows)


def replace_block(text, name, table):
    begin, end = "<!-- %s:begin -->" % name, "<!-- %s:end -->" % name
    if begin not in text or end not in text:
        sys.exit("memory_tables: docs/memory.md has no %s ... %s" % (begin, end))
    head, rest = text.split(begin, 1)
    _, tail = rest.split(end, 1)
    return head + begin + "\n" + table + "\n" + end + tail


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ringviz", required=True, help="the ringviz executable")
    parser.add_argument("--python", default="/usr/bin/python3", help="a python3 with torch (default /usr/bin/python3)")
    args = parser.parse_args()
    with open(DOC) as handle:
        text = handle.read()
    text = replace_block(text, "measured-table", measured_table(args.ringviz, args.python))
    text = replace_block(text, "llama-tp-table", llama_table(args.ringviz))
    text = replace_block(text, "playbook-table", playbook_table(args.ringviz))
    with open(DOC, "w") as handle:
        handle.write(text)
    print("memory_tables: rewrote the measured, Llama and playbook tables of docs/memory.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
