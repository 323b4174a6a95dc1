"""The installed app's PNG icons, drawn from the shapes of ``static/icon.svg`` with Pillow:
``python -m dailydeal.web.icons`` writes ``static/icon-192.png`` and
``static/icon-512.png``; tests/test_offline.py checks that the committed files are what
this draws, so the two cannot drift apart.

Pillow draws without anti-aliasing, so each shape is drawn 8 times larger as a mask, reduced
(each pixel the mean of its 64) and laid over the shapes before it, in the SVG's order.
"""

from __future__ import annotations

import io
import math
import sys
from pathlib import Path

from PIL import Image, ImageDraw

Point = tuple[float, float]
Color = tuple[int, int, int]
Box = tuple[float, float, float, float, float]  # a rounded rectangle: x, y, width, height, radius

GREEN: Color = (0x1D, 0x5E, 0x3F)
CREAM: Color = (0xFF, 0xFD, 0xF7)
INK: Color = (0x1B, 0x1F, 0x1D)
SIZES = (192, 512)
SUPERSAMPLE = 8
STATIC = Path(__file__).parent / "static"


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
    """The path of icon.svg (Pillow draws no curves): M38 20 c-6 8-12 11-12 17
    a6 6 0 0 0 10 4 l-2 7 h8 l-2-7 a6 6 0 0 0 10-4 c0-6-6-9-12-17 z."""
    points: list[Point] = [(38, 20)]
    points += cubic((38, 20), (32, 28), (26, 31), (26, 37))
    points += arc((26, 37), (36, 41), 6, False, False)
    points += [(34, 48), (42, 48), (40, 41)]
    points += arc((40, 41), (50, 37), 6, False, False)
    points += cubic((50, 37), (50, 31), (44, 28), (38, 20))
    return points


#: icon.svg, painted in order: the back card, the front card's border and face, the spade
SHAPES: tuple[tuple[Box | list[Point], Color], ...] = (
    ((6, 4, 40, 54, 6), GREEN),
    ((16.5, 6.5, 43, 57, 7.5), GREEN),  # the stroke (3 wide) around the face
    ((19.5, 9.5, 37, 51, 4.5), CREAM),
    (spade(), INK),
)


def draw(size: int) -> bytes:
    """The icon as an RGBA PNG of ``size`` x ``size`` pixels (the same bytes every time)."""
    k = size * SUPERSAMPLE / 64  # the SVG's 64-unit box, supersampled
    icon = Image.new("RGBA", (size, size))
    for shape, color in SHAPES:
        mask = Image.new("L", (size * SUPERSAMPLE, size * SUPERSAMPLE))
        pen = ImageDraw.Draw(mask)
        if isinstance(shape, tuple):
            x, y, w, h, r = (v * k for v in shape)
            pen.rounded_rectangle((x, y, x + w - 1, y + h - 1), r, fill=255)  # inclusive
        else:
            pen.polygon([(x * k, y * k) for x, y in shape], fill=255)
        layer = Image.new("RGBA", (size, size), color)
        layer.putalpha(mask.reduce(SUPERSAMPLE))
        icon = Image.alpha_composite(icon, layer)
    out = io.BytesIO()
    icon.save(out, "PNG", optimize=True)
    return out.getvalue()


def main(folder: Path = STATIC) -> None:
    for size in SIZES:
        path = folder / f"icon-{size}.png"
        path.write_bytes(draw(size))
        print(f"wrote {path}", file=sys.stderr)


if __name__ == "__main__":
    main()
