#!/usr/bin/env python3
"""Compares the ring view of the page (a canvas screenshot) with the desktop's headless frame of
the same state, size, fonts and theme.

Usage: compare_ring.py BROWSER.png DESKTOP.png DESKTOP_LAYOUT.json

Two measures, each with its bound (docs/architecture.md, "The browser build"):
  cells  every pixel inside each slot cell (the painted rectangle, one pixel in from its edges):
         drawn by the same shader from the same data with exact palette colours and no blending.
         A pixel matches when a channel differs by at most 2 (8-bit rounding of a colour mixed in
         highp float) from the desktop's pixel there or one pixel away: the two rasterisers
         interpolate the cell coordinate in float a little differently, so a boundary between a
         partial sum's stripes may fall one pixel column apart (measured: 0.8% of cell pixels, all
         on such boundaries). At most 0.1% of cell pixels may match nothing near them: a stripe of
         another colour, or a wrong cell, moves hundreds;
  view   every pixel of the centre view: ImGui's text, lines and arrows come from the same
         vertices and font atlas, but two rasterisers (SwiftShader in chromium, llvmpipe on the
         desktop) place anti-aliased edges a little differently; at most 2% of the view's pixels
         may differ by more than 48 in a channel (an edge pixel, not a different picture: a
         missing label or a cell of another colour moves thousands).
Prints both measures and exits 1 when a bound is exceeded, 2 when a file cannot be read.
"""
import json
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "scripts"))
from png_diff import read_png  # noqa: E402

CELL_CHANNEL_TOLERANCE = 2
CELL_PIXEL_FRACTION = 0.001
VIEW_CHANNEL_TOLERANCE = 48
VIEW_PIXEL_FRACTION = 0.02


def pixel(image, x, y):
    _, _, channels, rows = image
    row = rows[y]
    return row[x * channels:x * channels + 3]


def differs(a, b, x, y, tolerance):
    pa, pb = pixel(a, x, y), pixel(b, x, y)
    return any(abs(pa[i] - pb[i]) > tolerance for i in range(3))


def differs_nearby(a, b, x, y, tolerance):
    """True when a's pixel matches none of b's pixels at (x, y) and its 8 neighbours."""
    width, height = b[0], b[1]
    return all(differs_at(a, b, x, y, nx, ny, tolerance)
               for ny in (y - 1, y, y + 1) for nx in (x - 1, x, x + 1) if 0 <= nx < width and 0 <= ny < height)


def differs_at(a, b, x, y, bx, by, tolerance):
    pa, pb = pixel(a, x, y), pixel(b, bx, by)
    return any(abs(pa[i] - pb[i]) > tolerance for i in range(3))


def main():
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        browser, desktop = read_png(sys.argv[1]), read_png(sys.argv[2])
        layout = json.loads(pathlib.Path(sys.argv[3]).read_text())
    except (OSError, ValueError) as error:
        print(f"compare_ring: {error}", file=sys.stderr)
        return 2
    if browser[:2] != desktop[:2]:
        print(f"compare_ring: sizes differ: browser {browser[0]}x{browser[1]}, desktop {desktop[0]}x{desktop[1]}")
        return 1
    width, height = desktop[0], desktop[1]

    cell_pixels = cell_bad = 0
    for gpu in layout["gpus"]:
        for cell in gpu["cells"]:
            r = cell["painted"]
            x0, y0 = int(r["x"]) + 1, int(r["y"]) + 1
            x1, y1 = int(r["x"] + r["w"]) - 1, int(r["y"] + r["h"]) - 1
            for y in range(max(0, y0), min(height, y1)):
                for x in range(max(0, x0), min(width, x1)):
                    cell_pixels += 1
                    cell_bad += differs_nearby(browser, desktop, x, y, CELL_CHANNEL_TOLERANCE)

    view = layout["panels"]["view"]
    view_pixels = view_bad = 0
    for y in range(int(view["y"]), min(height, int(view["y"] + view["h"]))):
        for x in range(int(view["x"]), min(width, int(view["x"] + view["w"]))):
            view_pixels += 1
            view_bad += differs(browser, desktop, x, y, VIEW_CHANNEL_TOLERANCE)

    cell_fraction = cell_bad / max(1, cell_pixels)
    view_fraction = view_bad / max(1, view_pixels)
    print(f"cells: {cell_bad} of {cell_pixels} pixels differ by more than {CELL_CHANNEL_TOLERANCE} from every desktop pixel near them "
          f"({100 * cell_fraction:.3f}%, bound {100 * CELL_PIXEL_FRACTION:.1f}%)")
    print(f"view:  {view_bad} of {view_pixels} pixels differ by more than {VIEW_CHANNEL_TOLERANCE} "
          f"({100 * view_fraction:.3f}%, bound {100 * VIEW_PIXEL_FRACTION:.0f}%)")
    if cell_pixels == 0:
        print("compare_ring: the layout has no cells to compare")
        return 1
    return 0 if cell_fraction <= CELL_PIXEL_FRACTION and view_fraction <= VIEW_PIXEL_FRACTION else 1


if __name__ == "__main__":
    sys.exit(main())
