#!/usr/bin/env python3
"""The house rules of docs/architecture.md ("Build and layering") that a compiler does not check:

  cycles   no header (with its .cpp) includes, directly or through others, one that includes it back;
  layers   every source folder has a place in LAYER_ORDER and includes only folders placed below
           it, so no two folders include each other, directly or around a loop;
  methods  a .cpp file defines methods only of classes declared in its own folder;
  folders  no source folder holds more than 20 files;
  algorithms  no code outside core/algorithms/ (the registry) chooses among algorithms by
           name: no `switch` over an algorithm, no `case Algorithm::`, no line that compares
           with two algorithms (`a == Algorithm::tree || a == Algorithm::naive`).

Usage: check-structure.py SOURCE_DIR [cycles|layers|methods|folders|algorithms ...]   (default: all)
Prints every violation with its files and exits 1 when there is one.
"""
import pathlib
import re
import sys

LAYERS = ("core", "gpu", "app")
MAX_FILES_PER_FOLDER = 20

# The folders from the bottom of the house to the top (docs/architecture.md draws it). A folder
# may include its own headers and those of folders on an earlier line; folders on one line are
# peers and include none of each other. A new folder takes a line here before it builds.
LAYER_ORDER = [
    # core: the model, then what plans and runs collectives, then what reads and teaches them.
    ["core/model"],
    ["core/output", "core/schedule"],
    ["core/algorithms"],
    ["core/input"],
    ["core/engine", "core/topology"],
    ["core/nccl"],
    ["core/training"],
    ["core/trace"],
    ["core/fit", "core/run"],
    ["core/kineto"],
    ["core/job"],
    ["core/teaching"],
    ["core/request"],
    # gpu: the devices, the kernels, the backend that runs a schedule on them, NCCL beside it.
    ["gpu/device"],
    ["gpu/kernels"],
    ["gpu/backend"],
    ["gpu/nccl"],
    ["gpu/baselines", "gpu/interop"],
    # app: what the front ends share, the capture program, then the GUI from the pixels up to
    # the hosts that own a window or a recording, and the command line over everything.
    ["app/platform", "app/gui/layout", "app/options"],
    ["app/backend"],
    ["app/capture/transport"],
    ["app/capture/mpi"],
    ["app/capture/nccl"],
    ["app/capture"],
    ["app/gui/render"],
    ["app/gui/text", "app/gui/inspect"],
    ["app/gui/plots", "app/gui/compare", "app/gui/state"],
    ["app/gui/panels", "app/gui/pipeline", "app/gui/replay", "app/gui/views/iteration"],
    ["app/gui/views"],
    ["app/gui/runtime"],
    ["app/gui/record"],
    ["app/gui/teaching"],
    ["app/gui/share", "app/gui/stage"],
    ["app/gui/hosts"],
    ["app/cli/memory"],
    ["app/cli", "app/web"],
    ["app"],
]
INCLUDE = re.compile(r'^\s*#\s*include\s+"((?:core|gpu|app)/[^"]+)"', re.M)
# A class or struct with a body, at any nesting: `class Name final : public Base {`.
DECLARATION = re.compile(r"^\s*(?:class|struct)\s+(\w+)\b[^;(]*\{", re.M)
# A method defined at namespace scope: `Type Class::name(` or `Class::Class(` starting in the
# first column (namespaces are not indented here, so a call inside a body never starts there).
DEFINITION = re.compile(r"^(?!return\b)(?:[\w:<>,*&]+[ \t]+)*?[*&]?(\w+)::~?\w+\s*\(", re.M)


def sources(root):
    for layer in LAYERS:
        for path in sorted((root / layer).rglob("*")):
            if path.suffix in (".h", ".cpp", ".cu") and path.is_file():
                yield path


def check_cycles(root):
    # A header and the .cpp of the same name are one unit: foo.cpp including bar.h while bar.h
    # includes foo.h is as much a loop as two headers including each other.
    graph = {}
    for path in sources(root):
        unit = path.relative_to(root).with_suffix("").as_posix()
        targets = {inc.rsplit(".", 1)[0] for inc in INCLUDE.findall(path.read_text(errors="replace"))}
        graph.setdefault(unit, set()).update(targets - {unit})
    problems = []
    for start in sorted(graph):
        # Depth-first search from each unit for a path back to it.
        stack, seen = [(start, [start])], set()
        while stack:
            node, trail = stack.pop()
            for nxt in sorted(graph.get(node, ())):
                if nxt == start:
                    problems.append("include loop: " + " -> ".join(trail + [start]))
                    stack.clear()
                    break
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append((nxt, trail + [nxt]))
    return problems


def check_layers(root):
    rank = {folder: i for i, line in enumerate(LAYER_ORDER) for folder in line}
    problems, edges = [], {}
    for path in sources(root):
        here = path.parent.relative_to(root).as_posix()
        for inc in INCLUDE.findall(path.read_text(errors="replace")):
            there = inc.rsplit("/", 1)[0]
            if there != here:
                edges.setdefault((here, there), path.relative_to(root).as_posix() + " includes " + inc)
    for folder in sorted({here for here, _ in edges} | {there for _, there in edges}):
        if folder not in rank:
            problems.append(f"{folder} has no line in LAYER_ORDER (scripts/check-structure.py): give it one")
    for (here, there), example in sorted(edges.items()):
        if here in rank and there in rank and rank[there] >= rank[here]:
            where = "a peer of" if rank[there] == rank[here] else "above"
            problems.append(f"{here} includes {there}, which is {where} it in LAYER_ORDER: {example}")
    return problems


def check_methods(root):
    declared_in = {}
    for path in sources(root):
        if path.suffix == ".h":
            for name in DECLARATION.findall(path.read_text(errors="replace")):
                declared_in.setdefault(name, set()).add(path.parent)
    problems = []
    for path in sources(root):
        if path.suffix not in (".cpp", ".cu"):
            continue
        text = path.read_text(errors="replace")
        local = set(DECLARATION.findall(text))  # classes the file declares for itself
        for name in sorted(set(DEFINITION.findall(text))):
            folders = declared_in.get(name)
            if name in local or not folders or path.parent in folders:
                continue
            where = ", ".join(sorted(f.relative_to(root).as_posix() for f in folders))
            problems.append(f"{path.relative_to(root)} defines methods of {name}, declared in {where}")
    return problems


def check_folders(root):
    problems = []
    folders = {path.parent for path in sources(root)}
    for folder in sorted(folders):
        count = sum(1 for p in folder.iterdir() if p.is_file() and p.suffix in (".h", ".cpp", ".cu"))
        if count > MAX_FILES_PER_FOLDER:
            problems.append(f"{folder.relative_to(root)} holds {count} source files (at most {MAX_FILES_PER_FOLDER})")
    return problems


REGISTRY = "core/algorithms"
# `switch (config.algorithm)`, `switch (algorithm)`, `switch (unit.id)` ... : the controlling
# expression names an algorithm.
ALGORITHM_SWITCH = re.compile(r"\bswitch\s*\(\s*[\w.>-]*algorithm\w*\s*\)", re.I)
ALGORITHM_CASE = re.compile(r"\bcase\s+Algorithm::")
ALGORITHM_VALUE = re.compile(r"\bAlgorithm::(\w+)")
COMMENT = re.compile(r"//.*")


def check_algorithms(root):
    # Each algorithm is one unit in the registry (docs/architecture.md, "Algorithms: one unit
    # each"); code elsewhere asks algorithm_unit() rather than naming algorithms one by one.
    problems = []
    for path in sources(root):
        relative = path.relative_to(root).as_posix()
        if relative.startswith(REGISTRY + "/"):
            continue
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            code = COMMENT.sub("", line)
            compared = set(ALGORITHM_VALUE.findall(code)) if "==" in code or "!=" in code else set()
            if ALGORITHM_SWITCH.search(code) or ALGORITHM_CASE.search(code) or len(compared) > 1:
                problems.append(f"{relative}:{number}: chooses among algorithms outside {REGISTRY}/: {line.strip()}")
    return problems


# A doctest case's name as written, and a character that CMake's list syntax splits it at.
TEST_CASE_NAME = re.compile(r'\bTEST_CASE\(\s*"((?:[^"\\]|\\.)*)"')


def check_test_names(root):
    # ctest runs each case by its name; CMake cuts a name at ';' into a list, so the entry asks
    # doctest for a case that does not exist, runs none, and passes without testing anything.
    problems = []
    for path in sorted((root / "tests").rglob("*.cpp")):
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            for name in TEST_CASE_NAME.findall(line):
                if ";" in name:
                    problems.append(f"{path.relative_to(root).as_posix()}:{number}: a test name with ';', which "
                                    f"ctest cuts there and then runs nothing: {name}")
    return problems


CHECKS = {"cycles": check_cycles, "layers": check_layers, "methods": check_methods, "folders": check_folders,
          "algorithms": check_algorithms, "test_names": check_test_names}


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    root = pathlib.Path(sys.argv[1]).resolve()
    names = sys.argv[2:] or list(CHECKS)
    problems = [p for name in names for p in CHECKS[name](root)]
    for problem in problems:
        print(problem)
    print(f"{len(problems)} problem(s) in: {', '.join(names)}")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
