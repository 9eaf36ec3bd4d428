#!/usr/bin/env python3
"""Looks at the board PNG of `carcsolo replay --svg --png` the way a person would (run by ctest).

  board_pixels_test.py CARCSOLO

For a few seeded games: the SVG must parse as XML; in the PNG (drawn by rsvg-convert, one
pixel per SVG unit) the middle of every edge of every tile must show the colour of what the
log says is there (the `edges` string after rotation: C city, R road, F field), so a tile
drawn with the wrong rotation fails; every meeple must show its colour at its centre.
Exit status 77 (ctest SKIP_RETURN_CODE) when rsvg-convert is not installed (Debian package
librsvg2-bin; scripts/test installs it).
"""
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
import zlib

SKIP = 77
GAMES = [(3, 4, 7, 17), (4, 5, 9, 1), (2, 8, 3, 5), (5, 12, 2, 8)]  # colours, meeples, seed, game
EDGE_COLOURS = {"F": (0x86, 0xB8, 0x4E), "R": (0xF3, 0xEA, 0xD2), "C": (0xE0, 0xC0, 0x8A)}
MEEPLE_COLOURS = ["#d7301f", "#2166ac", "#f1c40f", "#252525", "#8e44ad", "#e67e22"]  # sim/svg.hpp
# Just inside the middle of each edge N, E, S, W, in tile units (a tile is 100 x 100).
PROBES = [(50, 1), (98, 50), (50, 98), (1, 50)]
SVG = "{http://www.w3.org/2000/svg}"


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def read_png(path):
    """(width, height, rows of RGB tuples) of an 8-bit RGB or RGBA, non-interlaced PNG."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail(path + " is not a PNG")
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or ctype not in (2, 6) or interlace:
                fail("%s: unexpected PNG format (depth %d, colour type %d)" % (path, depth, ctype))
            bpp = 4 if ctype == 6 else 3
        elif kind == b"IDAT":
            idat += body
    raw, stride = zlib.decompress(idat), width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        ftype, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], (prev[i - bpp] if i >= bpp else 0)
            if ftype == 1:
                line[i] = (line[i] + a) & 255
            elif ftype == 2:
                line[i] = (line[i] + b) & 255
            elif ftype == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif ftype == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x * bpp:x * bpp + 3]) for x in range(width)])
        prev = line
    return width, height, rows


def close(a, b, tol=6):
    return all(abs(x - y) <= tol for x, y in zip(a, b))


def translate(el):
    t = el.get("transform")
    x, y = t[t.index("(") + 1:t.index(")")].split()
    return float(x), float(y)


def check_game(carcsolo, work, colors, meeples, seed, game):
    stem = os.path.join(work, "g%d-%d" % (seed, game))
    subprocess.run([carcsolo, "replay", "--colors", str(colors), "--meeples", str(meeples), "--seed", str(seed),
                    "--game", str(game), "--turn-numbers", "--svg", stem + ".svg", "--png", stem + ".png",
                    "--out", stem + ".json"], check=True, timeout=120)
    with open(stem + ".json") as f:
        log = json.load(f)
    try:
        root = ET.parse(stem + ".svg").getroot()
    except ET.ParseError as e:
        fail("%s.svg is not well-formed XML: %s" % (stem, e))
    width, height, px = read_png(stem + ".png")
    if (width, height) != (int(root.get("width")), int(root.get("height"))):
        fail("%s.png is %dx%d, the SVG %sx%s" % (stem, width, height, root.get("width"), root.get("height")))

    placed = {(t["x"], t["y"]): t for t in log["turns"] if not t["discarded"]}
    tiles = [g for g in root.iter(SVG + "g") if g.get("class") == "tile"]
    if len(tiles) != len(placed) + 1:
        fail("%s: %d tiles drawn, the log places %d (+ the start tile)" % (stem, len(tiles), len(placed)))
    probes = 0
    for g in tiles:
        x, y = int(g.get("data-x")), int(g.get("data-y"))
        edges = placed[(x, y)]["edges"] if (x, y) in placed else "CRFR"  # the start tile D, unrotated
        ox, oy = int(g.get("data-px")), int(g.get("data-py"))
        for d, (dx, dy) in enumerate(PROBES):
            seen = px[oy + dy][ox + dx]
            if not close(seen, EDGE_COLOURS[edges[d]]):
                names = [k for k, v in EDGE_COLOURS.items() if close(seen, v)]
                fail("%s: tile %s at (%d, %d) turned %s: edge %s should look like %s, the picture shows %s (%s)"
                     % (stem, g.get("data-type"), x, y, g.get("data-rot"), "NESW"[d], edges[d],
                        "#%02x%02x%02x" % seen, names[0] if names else "neither city, road nor field"))
            probes += 1
    meeple_groups = [g for g in root.iter(SVG + "g") if g.get("class") == "meeple"]
    if len(meeple_groups) != len(log["final_scoring"]):
        fail("%s: %d meeples drawn, %d left on the board" % (stem, len(meeple_groups), len(log["final_scoring"])))
    for g in meeple_groups:
        mx, my = translate(g)
        want = MEEPLE_COLOURS[int(g.get("data-color"))]
        want = tuple(int(want[i:i + 2], 16) for i in (1, 3, 5))
        if not close(px[int(my)][int(mx)], want):
            fail("%s: the meeple at (%s, %s) does not show its colour %s" % (stem, mx, my, want))
    return probes, len(meeple_groups)


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    if not shutil.which("rsvg-convert"):
        print("SKIP: rsvg-convert is not installed (Debian package librsvg2-bin)")
        return SKIP
    with tempfile.TemporaryDirectory(prefix="carcsolo-pixels-") as work:
        total = meeples = 0
        for game in GAMES:
            probes, m = check_game(sys.argv[1], work, *game)
            total += probes
            meeples += m
            print("ok seed %d game %d: %d edge probes, %d meeples" % (game[2], game[3], probes, m))
    print("all %d edge probes and %d meeples look right" % (total, meeples))
    return 0


if __name__ == "__main__":
    sys.exit(main())
