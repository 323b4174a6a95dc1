"""The installed app's PNG icons, drawn from the shapes of ``static/icon.svg`` with the
standard library only (no image library, no browser): ``python -m dailydeal.web.icons``
writes ``static/icon-192.png`` and ``static/icon-512.png``; tests/test_offline.py checks
that the committed files are what this draws, so the two cannot drift apart.

Each shape is a polygon in the SVG's 64-unit box (its curves flattened), painted in order
with anti-aliasing: 4 sub-rows per pixel, and each span's exact horizontal coverage.
"""

from __future__ import annotations

import math
import struct
import sys
import zlib
from pathlib import Path

Point = tuple[float, float]
Color = tuple[int, int, int]

GREEN: Color = (0x1D, 0x5E, 0x3F)
CREAM: Color = (0xFF, 0xFD, 0xF7)
INK: Color = (0x1B, 0x1F, 0x1D)
SIZES = (192, 512)
SUBROWS = 4
STATIC = Path(__file__).parent / "static"


def rounded_rect(x: float, y: float, w: float, h: float, r: float) -> list[Point]:
    corners = ((x + w - r, y + r, -90), (x + w - r, y + h - r, 0), (x + r, y + h - r, 90),
               (x + r, y + r, 180))
    turns = [(cx, cy, math.radians(a + 10 * i)) for cx, cy, a in corners for i in range(10)]
    return [(cx + r * math.cos(t), cy + r * math.sin(t)) for cx, cy, t in turns]


def cubic(p0: Point, p1: Point, p2: Point, p3: Point, steps: int = 16) -> list[Point]:
    out = []
    for i in range(1, steps + 1):
        t = i / steps
        u = 1 - t
        out.append(tuple(u**3 * a + 3 * u * u * t * b + 3 * u * t * t * c + t**3 * d
                         for a, b, c, d in zip(p0, p1, p2, p3, strict=True)))
    return out  # type: ignore[return-value]


def arc(p0: Point, p1: Point, r: float, large: bool, sweep: bool, steps: int = 16) -> list[Point]:
    """An SVG circular arc (``A r r 0 large sweep``) from p0 to p1, SVG 1.1 F.6.5."""
    hx, hy = (p0[0] - p1[0]) / 2, (p0[1] - p1[1]) / 2
    d2 = hx * hx + hy * hy
    coef = math.sqrt(max(0.0, (r * r - d2) / d2)) * (1 if large != sweep else -1)
    cx, cy = coef * hy + (p0[0] + p1[0]) / 2, -coef * hx + (p0[1] + p1[1]) / 2
    start = math.atan2(p0[1] - cy, p0[0] - cx)
    turn = math.atan2(p1[1] - cy, p1[0] - cx) - start
    if sweep and turn < 0:
        turn += 2 * math.pi
    elif not sweep and turn > 0:
        turn -= 2 * math.pi
    angles = [start + turn * i / steps for i in range(1, steps + 1)]
    return [(cx + r * math.cos(t), cy + r * math.sin(t)) for t in angles]


def spade() -> list[Point]:
    """The path of icon.svg: M38 20 c-6 8-12 11-12 17 a6 6 0 0 0 10 4 l-2 7 h8 l-2-7
    a6 6 0 0 0 10-4 c0-6-6-9-12-17 z."""
    points: list[Point] = [(38, 20)]
    points += cubic((38, 20), (32, 28), (26, 31), (26, 37))
    points += arc((26, 37), (36, 41), 6, False, False)
    points += [(34, 48), (42, 48), (40, 41)]
    points += arc((40, 41), (50, 37), 6, False, False)
    points += cubic((50, 37), (50, 31), (44, 28), (38, 20))
    return points


#: icon.svg, painted in order: the back card, the front card's border and face, the spade
SHAPES: tuple[tuple[list[Point], Color], ...] = (
    (rounded_rect(6, 4, 40, 54, 6), GREEN),
    (rounded_rect(16.5, 6.5, 43, 57, 7.5), GREEN),  # the stroke (3 wide) around the face
    (rounded_rect(19.5, 9.5, 37, 51, 4.5), CREAM),
    (spade(), INK),
)


def coverage(polygon: list[Point], size: int) -> list[list[float]]:
    """The share (0..1) of each pixel inside ``polygon`` (even-odd), at ``size`` pixels."""
    scale = size / 64
    pts = [(x * scale, y * scale) for x, y in polygon]
    edges = list(zip(pts, pts[1:] + pts[:1], strict=True))
    grid = [[0.0] * size for _ in range(size)]
    for sub in range(size * SUBROWS):
        y = (sub + 0.5) / SUBROWS
        xs = sorted(x0 + (y - y0) * (x1 - x0) / (y1 - y0)
                    for (x0, y0), (x1, y1) in edges if (y0 <= y < y1) or (y1 <= y < y0))
        row = grid[sub // SUBROWS]
        for a, b in zip(xs[::2], xs[1::2], strict=True):
            a, b = max(a, 0.0), min(b, float(size))
            for px in range(int(a), min(math.ceil(b), size)):
                row[px] += (min(b, px + 1) - max(a, px)) / SUBROWS
    return grid


def draw(size: int) -> bytes:
    """The icon as an RGBA PNG of ``size`` x ``size`` pixels (the same bytes every time)."""
    rgba = [[(0.0, 0.0, 0.0, 0.0)] * size for _ in range(size)]  # premultiplied
    for polygon, color in SHAPES:
        cover = coverage(polygon, size)
        for y in range(size):
            line, shares = rgba[y], cover[y]
            for x, a in enumerate(shares):
                if a > 0:
                    a = min(a, 1.0)
                    r, g, b, al = line[x]
                    line[x] = (color[0] * a + r * (1 - a), color[1] * a + g * (1 - a),
                               color[2] * a + b * (1 - a), 255 * a + al * (1 - a))
    raw = bytearray()
    for line in rgba:
        raw.append(0)  # filter: none
        for r, g, b, al in line:
            k = 255 / al if al else 0.0
            raw += bytes((round(min(255.0, r * k)), round(min(255.0, g * k)),
                          round(min(255.0, b * k)), round(al)))
    return png(size, size, bytes(raw))


def png(width: int, height: int, raw: bytes) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(
            ">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def main(folder: Path = STATIC) -> None:
    for size in SIZES:
        path = folder / f"icon-{size}.png"
        path.write_bytes(draw(size))
        print(f"wrote {path}", file=sys.stderr)


if __name__ == "__main__":
    main()
