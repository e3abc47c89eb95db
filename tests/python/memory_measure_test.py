#!/usr/bin/env python3
"""python.memory_measure: examples/measured_gpt.py on 4 gloo ranks measures one training step under
DDP and ZeroRedundancyOptimizer (ZeRO-1), each with no, selective and full checkpointing, in one
launch; `ringviz job import` keeps the measurements and `ringviz memory --from-job` holds each
term against the memory model for the same shapes.

1. Every term of every rank and configuration is within its stated tolerance (docs/memory.md,
   "Measured against the model"): parameters, gradients and DDP's optimizer states exactly,
   ZeRO-1's optimizer states up to shard rounding.
2. ZeRO-1's shards add up to DDP's optimizer states exactly, and checkpointing keeps less:
   none > selective > full per layer, and only the checkpointed runs rebuild anything.
3. The comparison can fail: a job whose measured parameters are 4 bytes off is reported outside
   its tolerance.
"""

import copy
import json
import os
import subprocess
import sys
import tempfile

import record_support as support

WORLD_SIZE = 4
MEASURED_EXAMPLE = os.path.join(support.REPOSITORY, "examples", "measured_gpt.py")
CONFIGURATIONS = [(strategy, recompute) for strategy in ("ddp", "zero1") for recompute in ("none", "selective", "full")]


def ringviz(*arguments):
    executable = os.environ.get("RINGVIZ_EXECUTABLE")
    return subprocess.run([executable] + list(arguments), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def main():
    support.torch_or_skip()
    if not os.environ.get("RINGVIZ_EXECUTABLE"):
        print("FAILED: RINGVIZ_EXECUTABLE is not set (ctest sets it)")
        return 1
    failures = support.Failures()
    with tempfile.TemporaryDirectory() as workdir:
        parts_dir = os.path.join(workdir, "job")
        command = [sys.executable, MEASURED_EXAMPLE, "--out", parts_dir, "--world-size", str(WORLD_SIZE), "--timeout", "120"]
        finished = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if finished.returncode != 0:
            print("FAILED: %s exited %d:\n%s" % (" ".join(command), finished.returncode, finished.stdout))
            return 1
        parts = support.read_parts(parts_dir, WORLD_SIZE, failures)
        measured = {}  # (rank, strategy, recompute) -> measurement
        for rank, part in parts.items():
            entries = part["ranks"][0].get("memory", [])
            failures.check([(m["strategy"], m["recompute"]) for m in entries] == CONFIGURATIONS,
                           "rank %d measured %s, expected %s" % (rank, [(m["strategy"], m["recompute"]) for m in entries],
                                                                   CONFIGURATIONS))
            for m in entries:
                measured[(rank, m["strategy"], m["recompute"])] = m

        job = os.path.join(workdir, "job.json")
        imported = ringviz("job", "import", parts_dir, "--out", job, "--quiet")
        if not failures.check(imported.returncode == 0, "job import exited %d: %s" % (imported.returncode, imported.stderr)):
            return failures.exit("measured memory")
        with open(job) as handle:
            document = json.load(handle)
        carried = sum(len(r.get("memory", [])) for r in document["ranks"])
        failures.check(carried == WORLD_SIZE * len(CONFIGURATIONS),
                       "the imported job carries %d measurements, expected %d" % (carried, WORLD_SIZE * len(CONFIGURATIONS)))

        # 1. Every term within its tolerance.
        compared = ringviz("memory", "--from-job", job, "--format", "json")
        if not failures.check(compared.returncode == 0, "memory --from-job exited %d: %s" % (compared.returncode, compared.stderr)):
            return failures.exit("measured memory")
        comparisons = json.loads(compared.stdout)["comparisons"]
        # The same tables in Chinese: every term named and within, worded in the language asked for.
        chinese = ringviz("memory", "--from-job", job, "--lang", "zh")
        failures.check(chinese.returncode == 0, "memory --from-job --lang zh exited %d: %s" % (chinese.returncode, chinese.stderr))
        for words in ("第 1 层激活", "优化器状态", "激活峰值", "实测", "容差", "每一项都在容差内"):
            failures.check(words in chinese.stdout, "memory --from-job --lang zh lacks %r" % words)
        failures.check("within" not in chinese.stdout and "measured by" not in chinese.stdout,
                       "memory --from-job --lang zh still prints English words")
        failures.check(len(comparisons) == WORLD_SIZE * len(CONFIGURATIONS), "%d comparisons" % len(comparisons))
        for c in comparisons:
            for term in c["terms"]:
                failures.check(term["within"], "rank %d, %s: %s measured %d, model %d, difference %d outside %s (%s)"
                               % (c["rank"], c["label"], term["term"], term["measured"], term["model"],
                                  term["difference"], term["tolerance"], term["why"]))
                if term["term"] in ("parameters", "gradients") or (term["term"] == "optimizer states" and c["strategy"] == "ddp"):
                    failures.check(term["difference"] == 0 and term["tolerance"] == [0, 0],
                                   "rank %d, %s: %s must be exact" % (c["rank"], c["label"], term["term"]))

        # 2. ZeRO-1's shards add up to DDP's optimizer states; checkpointing keeps less.
        for recompute in ("none", "selective", "full"):
            shards = sum(measured[(r, "zero1", recompute)]["measured"]["optimizer_states"] for r in range(WORLD_SIZE))
            whole = measured[(0, "ddp", recompute)]["measured"]["optimizer_states"]
            failures.check(shards == whole, "%s: ZeRO-1's shards hold %d bytes of optimizer states, DDP %d" % (recompute, shards, whole))
            failures.check(whole == 8 * measured[(0, "ddp", recompute)]["shape"]["parameters"],
                           "%s: DDP's Adam holds %d bytes, not 8 per parameter" % (recompute, whole))
        for rank in range(WORLD_SIZE):
            layer = {r: measured[(rank, "ddp", r)]["measured"]["activations_per_layer"][0] for r in ("none", "selective", "full")}
            failures.check(layer["none"] > layer["selective"] > layer["full"] > 0,
                           "rank %d: a layer keeps %s; expected none > selective > full > 0" % (rank, layer))
            rebuilt = {r: max(measured[(rank, "ddp", r)]["measured"]["recomputed_per_layer"]) for r in ("none", "selective", "full")}
            failures.check(rebuilt["none"] == 0 and rebuilt["selective"] > 0 and rebuilt["full"] > rebuilt["selective"],
                           "rank %d: rebuilt in backward %s; expected none 0 < selective < full" % (rank, rebuilt))

        # 3. The comparison can fail.
        tampered = copy.deepcopy(document)
        tampered["ranks"][0]["memory"][0]["measured"]["parameters"] += 4
        tampered_path = os.path.join(workdir, "tampered.json")
        with open(tampered_path, "w") as handle:
            json.dump(tampered, handle)
        wrong = ringviz("memory", "--from-job", tampered_path, "--format", "json")
        if failures.check(wrong.returncode == 0, "memory --from-job on the tampered job exited %d: %s" % (wrong.returncode, wrong.stderr)):
            first = json.loads(wrong.stdout)["comparisons"][0]
            failures.check(not first["within"] and not first["terms"][0]["within"],
                           "4 bytes too many parameters were not reported outside the tolerance: %s" % first["terms"][0])
    return failures.exit("measured memory: %d configurations on %d ranks against the model" % (len(CONFIGURATIONS), WORLD_SIZE))


if __name__ == "__main__":
    sys.exit(main())
