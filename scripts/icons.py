#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""icons.py: draw the web app's PNG icons from static/hearth.svg's mark.

usage: python3 scripts/icons.py [STATIC-DIR]

Standard library only (zlib, struct), no randomness and no dates: the
same bytes every run, so the PNGs under static/ are its output, checked
in.  The mark is hearth.svg's: a white flame on the accent colour
(hearth.css's --accent, #a8441c), its path flattened to a polygon and
filled with 4x4 samples a pixel.

    icon-192.png, icon-512.png   the manifest's "any" icons: a rounded
                                 square (hearth.svg's rx 6 of 32),
                                 transparent corners
    icon-maskable-512.png        "maskable": full bleed, the flame
                                 inside the central 80 % circle that
                                 Android's masks keep
    apple-touch-icon.png         180 px, full bleed (iOS rounds the
                                 corners itself and shows transparency
                                 as black)
"""

import math
import os
import struct
import sys
import zlib

ACCENT = (0xa8, 0x44, 0x1c)     # hearth.css --accent (light)
WHITE = (0xff, 0xff, 0xff)
SS = 4                          # samples a pixel, each way


def cubic(p0, p1, p2, p3, n=16):
    """Points along a cubic Bezier, p0 excluded."""
    out = []
    for i in range(1, n + 1):
        t = i / n
        u = 1 - t
        out.append(tuple(u * u * u * a + 3 * u * u * t * b +
                         3 * u * t * t * c + t * t * t * d
                         for a, b, c, d in zip(p0, p1, p2, p3)))
    return out


def flame():
    """hearth.svg's path, "M16 5c1 5 7 8 7 15a7 7 0 0 1-14 0c0-4 2-6 3-8
    1 3 2 4 3 4-1-4 0-8 1-11z", as a polygon in its 32-unit box."""
    pts = [(16.0, 5.0)]
    pts += cubic(pts[-1], (17, 10), (23, 13), (23, 20))
    # The arc: centre (16, 20), radius 7, from 0 to pi (down, round).
    pts += [(16 + 7 * math.cos(math.pi * i / 24),
             20 + 7 * math.sin(math.pi * i / 24)) for i in range(1, 25)]
    pts += cubic(pts[-1], (9, 16), (11, 14), (12, 12))
    pts += cubic(pts[-1], (13, 15), (14, 16), (15, 16))
    pts += cubic(pts[-1], (14, 12), (15, 8), (16, 5))
    return pts


def rounded_rect(r, n=8):
    """The 32-unit square with corners of radius r (0: square)."""
    if r == 0:
        return [(0, 0), (32, 0), (32, 32), (0, 32)]
    pts = []
    for cx, cy, a0 in ((32 - r, r, -90), (32 - r, 32 - r, 0),
                       (r, 32 - r, 90), (r, r, 180)):
        for i in range(n + 1):
            a = math.radians(a0 + 90 * i / n)
            pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return pts


def coverage(poly, size):
    """Per pixel, the share of its samples inside poly (even-odd),
    poly in pixels."""
    cov = [[0] * size for _ in range(size)]
    edges = list(zip(poly, poly[1:] + poly[:1]))
    for sy in range(size * SS):
        y = (sy + 0.5) / SS
        xs = []
        for (x0, y0), (x1, y1) in edges:
            if (y0 <= y) != (y1 <= y):
                xs.append(x0 + (y - y0) * (x1 - x0) / (y1 - y0))
        xs.sort()
        row = cov[sy // SS]
        for a, b in zip(xs[0::2], xs[1::2]):
            # Samples at (sx + 0.5) / SS inside [a, b).
            s0 = max(0, math.ceil(a * SS - 0.5))
            s1 = min(size * SS, math.ceil(b * SS - 0.5))
            for sx in range(s0, s1):
                row[sx // SS] += 1
    full = SS * SS
    return [[c / full for c in row] for row in cov]


def draw(size, corner, scale):
    """RGBA rows: the background shape (corner radius in units), the
    flame scaled about the centre by scale."""
    k = size / 32.0
    bg = coverage([(x * k, y * k) for x, y in rounded_rect(corner)], size)
    fl = coverage([((16 + (x - 16) * scale) * k,
                    (16 + (y - 16) * scale) * k) for x, y in flame()],
                  size)
    rows = []
    for y in range(size):
        row = bytearray()
        for x in range(size):
            a, f = bg[y][x], fl[y][x]
            rgb = [round(c0 * (1 - f) + c1 * f)
                   for c0, c1 in zip(ACCENT, WHITE)]
            row += bytes(rgb) + bytes([round(255 * max(a, f))])
        rows.append(bytes(row))
    return rows


def png(rows):
    """An RGBA PNG of the rows."""
    w, h = len(rows[0]) // 4, len(rows)

    def chunk(kind, data):
        return (struct.pack(">I", len(data)) + kind + data +
                struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff))

    raw = b"".join(b"\0" + r for r in rows)
    return (b"\x89PNG\r\n\x1a\n" +
            chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0)) +
            chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


ICONS = (("icon-192.png", 192, 6, 1.0),
         ("icon-512.png", 512, 6, 1.0),
         ("icon-maskable-512.png", 512, 0, 0.8),
         ("apple-touch-icon.png", 180, 0, 0.9))


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "static")
    for name, size, corner, scale in ICONS:
        with open(os.path.join(out, name), "wb") as f:
            f.write(png(draw(size, corner, scale)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
