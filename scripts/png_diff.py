#!/usr/bin/env python3
"""Counts the pixels in which two PNG screenshots of ringviz differ, by their RGBA bytes.

Usage: png_diff.py A.png B.png [LAYOUT.json]

Prints one line: "identical", or "N of M pixels differ", and with a layout file (the
--dump-layout of A) the same count inside the centre view's rectangle, where the cells are
drawn; the panels around it name the backend and its measured times, which differ by design.
Exits 0 when the files could be compared (whatever the count), 2 when one cannot be read.

Standard library only (zlib): the GPU machine that runs scripts/gpu-check.sh may have neither
Pillow nor ffmpeg. Reads what ringviz writes: 8-bit RGB or RGBA, not interlaced.
"""
import json
import struct
import sys
import zlib


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def read_png(path):
    try:
        from PIL import Image  # much faster where it exists; the loop below is the fallback
        with Image.open(path) as image:
            rgba = image.convert("RGBA")
            width, height = rgba.size
            data = rgba.tobytes()
            return width, height, 4, [data[y * width * 4:(y + 1) * width * 4] for y in range(height)]
    except ImportError:
        pass
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path} is not a PNG file")
    position, idat, header = 8, [], None
    while position < len(data):
        length, kind = struct.unpack(">I4s", data[position:position + 8])
        body = data[position + 8:position + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        position += 12 + length
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in (2, 6) or interlace:
        raise ValueError(f"{path}: only 8-bit RGB/RGBA, not interlaced, is read here")
    channels = 4 if colour == 6 else 3
    stride = width * channels
    raw = zlib.decompress(b"".join(idat))
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                line[i] = (line[i] + paeth(left, up, corner)) & 255
        rows.append(bytes(line))
        previous = line
    return width, height, channels, rows


def count_differences(a, b, rect=None):
    width, height, channels, rows_a = a
    _, _, _, rows_b = b
    x0, y0, x1, y1 = rect if rect else (0, 0, width, height)
    differing = 0
    for y in range(max(0, y0), min(height, y1)):
        row_a, row_b = rows_a[y], rows_b[y]
        if row_a == row_b:
            continue
        for x in range(max(0, x0), min(width, x1)):
            if row_a[x * channels:(x + 1) * channels] != row_b[x * channels:(x + 1) * channels]:
                differing += 1
    total = (min(width, x1) - max(0, x0)) * (min(height, y1) - max(0, y0))
    return differing, total


def main(arguments):
    if len(arguments) not in (2, 3):
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    try:
        a, b = read_png(arguments[0]), read_png(arguments[1])
    except (OSError, ValueError, TypeError, zlib.error, struct.error) as problem:
        print(f"png_diff: {problem}", file=sys.stderr)
        return 2
    if a[:2] != b[:2]:
        print(f"sizes differ: {a[0]}x{a[1]} and {b[0]}x{b[1]}")
        return 0
    differing, total = count_differences(a, b)
    words = ["identical" if differing == 0 else f"{differing} of {total} pixels differ"]
    if len(arguments) == 3:
        with open(arguments[2]) as f:
            view = json.load(f)["panels"]["view"]
        rect = (int(view["x"]), int(view["y"]), int(view["x"] + view["w"]), int(view["y"] + view["h"]))
        in_view, view_total = count_differences(a, b, rect)
        words.append("view identical" if in_view == 0 else f"view: {in_view} of {view_total} pixels differ")
    print("; ".join(words))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
