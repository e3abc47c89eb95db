#!/usr/bin/env python3
"""Proves from layout dumps that no text on screen overlaps another, leaves the window or is cut off.

Reads the "texts" of `ringviz --dump-layout` files (one per frame; `ringviz record --dump-layout
DIR/` writes a folder of them, and a folder argument means every .json in it) and reports:
  - every pair of text rectangles that intersect by more than the tolerance (0.5 px) both ways;
    rectangles that only touch are fine;
  - every text whose rectangle reaches out of the window by more than the tolerance;
  - every text drawn "clipped" (cut off by its panel or by the CPU);
Texts marked "hidden" (under an opaque rectangle drawn after them) are left out.
  - with --expect-view, every file whose centre view ("view") is another.
Each finding names the file, the string(s) and the rectangle(s). Exit status: 0 when nothing is
found, 1 when something is, 2 when a file cannot be read or is not a layout with texts.
Python 3 standard library only.
"""
import argparse
import json
import os
import sys

TOLERANCE = 0.5  # pixels; glyph quads are placed on whole pixels, so less is rounding


class LayoutError(Exception):
    """A file that is not a readable layout dump with texts."""


def rect_text(text):
    return "%r at (%g, %g) %gx%g" % (text["text"], text["x"], text["y"], text["w"], text["h"])


def overlap(a, b, tolerance=TOLERANCE):
    """True when the rectangles share more than `tolerance` pixels along both axes."""
    across = min(a["x"] + a["w"], b["x"] + b["w"]) - max(a["x"], b["x"])
    down = min(a["y"] + a["h"], b["y"] + b["h"]) - max(a["y"], b["y"])
    return across > tolerance and down > tolerance


def overlapping_pairs(texts, tolerance=TOLERANCE):
    """Index pairs (i, j), i < j, of overlapping rectangles: a sweep along x, so that a frame
    with hundreds of labels is not hundreds squared comparisons."""
    order = sorted(range(len(texts)), key=lambda i: texts[i]["x"])
    pairs = []
    active = []
    for i in order:
        left = texts[i]["x"]
        active = [j for j in active if texts[j]["x"] + texts[j]["w"] - left > tolerance]
        for j in active:
            if overlap(texts[i], texts[j], tolerance):
                pairs.append((min(i, j), max(i, j)))
        active.append(i)
    return sorted(pairs)


def outside_window(text, width, height, tolerance=TOLERANCE):
    return (text["x"] < -tolerance or text["y"] < -tolerance or
            text["x"] + text["w"] > width + tolerance or text["y"] + text["h"] > height + tolerance)


def load_layout(path):
    try:
        with open(path, encoding="utf-8") as f:
            layout = json.load(f)
    except (OSError, ValueError) as problem:
        raise LayoutError("%s: cannot read a layout: %s" % (path, problem))
    if not isinstance(layout, dict) or not isinstance(layout.get("texts"), list):
        raise LayoutError("%s: no \"texts\" list: not a layout dump of this ringviz (--dump-layout)" % path)
    for text in layout["texts"]:
        if not all(isinstance(text.get(key), (int, float)) for key in ("x", "y", "w", "h")) or \
                not isinstance(text.get("text"), str):
            raise LayoutError("%s: a text without x, y, w, h and text: %s" % (path, json.dumps(text)[:200]))
    window = layout.get("window", {})
    if not all(isinstance(window.get(key), (int, float)) for key in ("width", "height")):
        raise LayoutError("%s: no window width and height" % path)
    return layout


def findings(path, layout, expect_view=None, tolerance=TOLERANCE):
    """The problems of one layout, each one line starting with the file's path. Texts marked
    "hidden" (wholly under an opaque rectangle drawn after them, such as a title card) are not
    seen, so they are not checked."""
    found = []
    texts = [text for text in layout["texts"] if not text.get("hidden")]
    if expect_view is not None and layout.get("view") != expect_view:
        found.append("%s: view is %r, expected %r" % (path, layout.get("view"), expect_view))
    for i, j in overlapping_pairs(texts, tolerance):
        found.append("%s: overlap: %s and %s" % (path, rect_text(texts[i]), rect_text(texts[j])))
    width, height = layout["window"]["width"], layout["window"]["height"]
    for text in texts:
        if outside_window(text, width, height, tolerance):
            found.append("%s: outside the %gx%g window: %s" % (path, width, height, rect_text(text)))
    for text in texts:
        if text.get("clipped"):
            found.append("%s: clipped: %s" % (path, rect_text(text)))
    return found


def layout_files(arguments):
    """The files named, a folder standing for the .json files in it (sorted, as frames are)."""
    files = []
    for argument in arguments:
        if os.path.isdir(argument):
            files.extend(os.path.join(argument, name) for name in sorted(os.listdir(argument))
                         if name.endswith(".json"))
        else:
            files.append(argument)
    return files


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("layouts", nargs="+", help="layout JSON files, or folders of them")
    parser.add_argument("--expect-view", choices=["ring", "memory", "training", "compare", "devices"],
                        help="also check that every file shows this centre view")
    args = parser.parse_args(argv)
    files = layout_files(args.layouts)
    if not files:
        print("text_overlap.py: no layout files in %s" % " ".join(args.layouts), file=sys.stderr)
        return 2
    total = 0
    bad_files = 0
    texts = 0
    for path in files:
        try:
            layout = load_layout(path)
        except LayoutError as problem:
            print("text_overlap.py: %s" % problem, file=sys.stderr)
            return 2
        texts += len(layout["texts"])
        found = findings(path, layout, args.expect_view)
        for line in found:
            print(line)
        total += len(found)
        bad_files += 1 if found else 0
    print("summary: %d finding(s) in %d of %d file(s) (%d texts checked)" % (total, bad_files, len(files), texts))
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
