"""Link-preview pictures: a daily deal's layout drawn as a 1200x630 PNG (OpenGraph size).

Drawn once per deal, when it is stored (``store_pictures``: ``generate.fill_days`` calls it
after each fill, so the scheduler, ``dailydeal generate`` and ``serve`` all store them), and
kept in the deals' file (``deal_pictures``), so that serving one (``web/share.py``) reads
bytes: a drawing costs 40-60 ms of CPU, and pictures drawn per request were a denial of
service (issue 39). A deal with no stored picture (an older file, before the next run) is
drawn on request through a bounded cache, under a per-address limit.

Drawn with Pillow from the stored deal only (no browser, no request to anyone): the
Pyramid's seven rows and its stock, the Gaps grid with its four gaps, the first thirteen
cards of an Accordion stock. The suits are drawn as shapes, so the picture needs no font
with suit symbols; the ranks and titles use DejaVu Sans when the system has it (Debian:
fonts-dejavu-core) and Pillow's own scalable font otherwise.

``VERSION`` is part of the picture's URL key and ETag: bump it whenever the drawing
changes, so a cache never mixes two drawings of one deal.
"""

from __future__ import annotations

import datetime as dt
import functools
import io
import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import sqlite_utils
from PIL import Image, ImageDraw, ImageFont

from dailydeal.daily import store
from dailydeal.games import spec_of

log = logging.getLogger(__name__)

VERSION = 2  # 2: the tier's mark has its shape (no meaning in colour alone)
WIDTH, HEIGHT = 1200, 630
SCALE = 2  # drawn at twice the size and reduced: smooth edges on the suit shapes

FELT_TOP, FELT_BOTTOM = (42, 122, 83), (23, 73, 47)
FACE, EDGE, INK, RED = (255, 253, 247), (216, 208, 191), (27, 31, 29), (192, 38, 45)
BACK, BACK_EDGE = (158, 42, 48), (255, 253, 247)
PALE = (216, 234, 223)
TIER_COLOURS = {
    "easy": (58, 157, 93),
    "medium": (214, 162, 30),
    "hard": (224, 112, 43),
    "expert": (194, 48, 58),
}
FONT_FILES = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans-Bold.ttf",
)

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


@functools.lru_cache(maxsize=32)
def font(size: int) -> Font:
    """A bold sans-serif font of ``size`` pixels (DejaVu if installed, else Pillow's own)."""
    for name in FONT_FILES:
        if Path(name).is_file():
            return ImageFont.truetype(name, size)
    return ImageFont.load_default(size=size)


def _card_parts(name: str) -> tuple[str, str]:
    """"TH" -> ("10", "H")."""
    rank, suit = name[:-1], name[-1]
    return ("10" if rank == "T" else rank), suit


class Canvas:
    """A picture drawn at ``SCALE`` times the final size; every coordinate is final pixels."""

    def __init__(self) -> None:
        w, h = WIDTH * SCALE, HEIGHT * SCALE
        column = Image.new("RGB", (1, h))
        pairs = list(zip(FELT_TOP, FELT_BOTTOM, strict=True))
        shades = [tuple(round(a + (b - a) * y / (h - 1)) for a, b in pairs) for y in range(h)]
        column.putdata(shades)
        self.image = column.resize((w, h), Image.Resampling.NEAREST)  # a vertical gradient
        self.draw = ImageDraw.Draw(self.image)

    def xy(self, *values: float) -> list[float]:
        return [v * SCALE for v in values]

    def text(
        self, x: float, y: float, text: str, size: int, fill: tuple[int, int, int],
        anchor: str = "la",
    ) -> float:
        """Draw ``text``; return its width (final pixels)."""
        f = font(size * SCALE)
        self.draw.text((x * SCALE, y * SCALE), text, font=f, fill=fill, anchor=anchor)
        return float(self.draw.textlength(text, font=f)) / SCALE

    def measure(self, text: str, size: int) -> float:
        return float(self.draw.textlength(text, font=font(size * SCALE))) / SCALE

    def rounded(
        self, box: Sequence[float], radius: float, fill: Any, outline: Any = None,
        width: float = 1,
    ) -> None:
        self.draw.rounded_rectangle(
            self.xy(*box), radius=radius * SCALE, fill=fill, outline=outline,
            width=max(1, round(width * SCALE)),
        )

    def suit(self, suit: str, cx: float, cy: float, size: float, fill: Any) -> None:
        """A suit symbol drawn from circles and triangles, ``size`` pixels tall."""
        s, d = size, self.draw

        def circle(x: float, y: float, r: float) -> None:
            d.ellipse(self.xy(x - r, y - r, x + r, y + r), fill=fill)

        def poly(*points: tuple[float, float]) -> None:
            d.polygon([(x * SCALE, y * SCALE) for x, y in points], fill=fill)

        if suit == "D":
            poly((cx, cy - s / 2), (cx + s * 0.38, cy), (cx, cy + s / 2), (cx - s * 0.38, cy))
        elif suit == "H":
            r = s * 0.26
            circle(cx - s * 0.23, cy - s * 0.2, r)
            circle(cx + s * 0.23, cy - s * 0.2, r)
            top = cy - s * 0.12
            poly((cx - s * 0.48, top), (cx + s * 0.48, top), (cx, cy + s * 0.46))
        elif suit == "S":
            r = s * 0.25
            circle(cx - s * 0.23, cy + s * 0.06, r)
            circle(cx + s * 0.23, cy + s * 0.06, r)
            poly((cx - s * 0.47, cy - s * 0.01), (cx + s * 0.47, cy - s * 0.01), (cx, cy - s * 0.5))
            poly((cx, cy + s * 0.05), (cx - s * 0.17, cy + s * 0.5), (cx + s * 0.17, cy + s * 0.5))
        else:  # clubs
            r = s * 0.21
            circle(cx, cy - s * 0.24, r)
            circle(cx - s * 0.24, cy + s * 0.08, r)
            circle(cx + s * 0.24, cy + s * 0.08, r)
            circle(cx, cy, s * 0.12)
            poly((cx, cy - s * 0.05), (cx - s * 0.16, cy + s * 0.5), (cx + s * 0.16, cy + s * 0.5))

    def card(self, name: str, x: float, y: float, w: float, big: bool = True) -> None:
        """A face-up card, ``w`` wide (5:7), top left at (x, y); ``big``: with the large
        suit in its middle (left out where another card will cover it)."""
        h = w * 1.4
        self.rounded((x + 1, y + 3, x + w + 1, y + h + 3), w * 0.1, fill=(12, 40, 26))
        self.rounded((x, y, x + w, y + h), w * 0.1, fill=FACE, outline=EDGE, width=1)
        rank, suit = _card_parts(name)
        colour = RED if suit in "HD" else INK
        self.text(x + w * 0.09, y + w * 0.06, rank, round(w * 0.34), colour)
        self.suit(suit, x + w * 0.21, y + w * 0.56, w * 0.18, colour)
        if big:
            self.suit(suit, x + w * 0.6, y + h * 0.66, w * 0.46, colour)

    def back(self, x: float, y: float, w: float) -> None:
        """A face-down card."""
        h = w * 1.4
        self.rounded((x + 1, y + 3, x + w + 1, y + h + 3), w * 0.1, fill=(12, 40, 26))
        self.rounded((x, y, x + w, y + h), w * 0.1, fill=BACK_EDGE, outline=EDGE)
        inset = w * 0.08
        self.rounded((x + inset, y + inset, x + w - inset, y + h - inset), w * 0.06, fill=BACK)

    def slot(self, x: float, y: float, w: float) -> None:
        """An empty place (a Gaps gap)."""
        self.rounded(
            (x, y, x + w, y + w * 1.4), w * 0.1, fill=(21, 66, 43), outline=(96, 160, 124), width=2
        )

    def png(self) -> bytes:
        out = io.BytesIO()
        # a box filter over 2x2 pixels: smooth edges, much faster than LANCZOS
        self.image.reduce(SCALE).save(out, format="PNG", compress_level=6)
        return out.getvalue()


TOP = 112  # the board starts below the title
BOTTOM = HEIGHT - 58  # and ends above the footer


def _pyramid(c: Canvas, deal: dict[str, Any]) -> None:
    rows: list[list[str]] = deal["pyramid"]
    w = 82.0
    h = w * 1.4
    step_y = (BOTTOM - TOP - h) / (len(rows) - 1)
    gap = 8
    left = 150.0
    widest = len(rows[-1]) * (w + gap) - gap
    for r, row in enumerate(rows):
        x0 = left + (widest - (len(row) * (w + gap) - gap)) / 2
        for i, name in enumerate(row):
            c.card(name, x0 + i * (w + gap), TOP + r * step_y, w, big=r == len(rows) - 1)
    # the stock, face down, and how many cards it holds
    sx, sy = left + widest + 110, TOP + (BOTTOM - TOP - h) / 2
    for k in range(3, -1, -1):
        c.back(sx + k * 3, sy - k * 3, w)
    c.text(sx + w / 2, sy + h + 16, f"stock {len(deal['stock'])}", 22, PALE, "ma")


def _gaps(c: Canvas, deal: dict[str, Any]) -> None:
    rows: list[list[str | None]] = deal["rows"]
    cols = max(len(r) for r in rows)
    gap = 7.0
    w = min((WIDTH - 2 * 40 - (cols - 1) * gap) / cols, (BOTTOM - TOP - 3 * gap) / 4 / 1.4)
    h = w * 1.4
    left = (WIDTH - cols * (w + gap) + gap) / 2
    step_y = (BOTTOM - TOP - h) / (len(rows) - 1)
    for r, row in enumerate(rows):
        for i, name in enumerate(row):
            x, y = left + i * (w + gap), TOP + r * step_y
            if name is None:
                c.slot(x, y, w)
            else:
                c.card(name, x, y, w)


def _accordion(c: Canvas, deal: dict[str, Any]) -> None:
    """The stock face down, and its first thirteen cards fanned in dealing order."""
    stock: list[str] = deal["stock"]
    shown = stock[:13]
    w, step = 104.0, 66.0
    h = w * 1.4
    width = w + 60 + (len(shown) - 1) * step + w
    left = (WIDTH - width) / 2
    y = TOP + (BOTTOM - TOP - h) / 2 - 16
    for k in range(3, -1, -1):
        c.back(left + k * 3, y - k * 3, w)
    c.text(left + w / 2, y + h + 18, f"stock {len(stock)}", 22, PALE, "ma")
    x0 = left + w + 60
    for i, name in enumerate(shown):
        c.card(name, x0 + i * step, y, w)
    c.text(x0, y + h + 18, f"the first {len(shown)} cards, in dealing order", 22, PALE)


LAYOUTS = {"pyramid": _pyramid, "grid": _gaps, "row": _accordion}  # GameSpec.layout


def tier_mark(c: Canvas, tier: str, cx: float, cy: float) -> None:
    """The tier's mark: its colour and its shape (easy a circle, medium a square, hard a
    triangle, expert a diamond), as on the pages: no meaning in colour alone."""
    fill = TIER_COLOURS.get(tier, INK)
    r = 7.0
    shapes = {
        "medium": [(cx - r, cy - r), (cx + r, cy - r), (cx + r, cy + r), (cx - r, cy + r)],
        "hard": [(cx, cy - r - 1), (cx + r + 1, cy + r), (cx - r - 1, cy + r)],
        "expert": [(cx, cy - r - 1), (cx + r + 1, cy), (cx, cy + r + 1), (cx - r - 1, cy)],
    }
    if tier in shapes:
        c.draw.polygon([(x * SCALE, y * SCALE) for x, y in shapes[tier]], fill=fill)
    else:
        c.draw.ellipse(c.xy(cx - r, cy - r, cx + r, cy + r), fill=fill)


def draw_deal(row: dict[str, Any]) -> bytes:
    """The PNG of a stored deal (a row of ``dailydeal.daily.store``): title, layout, footer."""
    c = Canvas()
    # the brand: a spade on a rounded square, then "dailydeal"
    c.rounded((40, 34, 88, 82), 12, fill=(255, 255, 255))
    c.suit("S", 64, 58, 30, fill=(29, 94, 63))
    x = 102 + c.text(102, 36, "daily", 38, (255, 255, 255))
    c.text(x, 36, "deal", 38, (242, 193, 78))
    # the title on the right: a chip with the tier's colour, the game and tier; the date
    tier = str(row["tier"])
    label = f"{spec_of(str(row['game'])).title} · {tier}"
    date_w = c.measure(row["date"], 30)
    right = WIDTH - 40 - date_w - 22
    left = right - c.measure(label, 26) - 54
    c.rounded((left, 40, right, 78), 19, fill=FACE)
    tier_mark(c, tier, left + 23, 59)
    c.text(left + 40, 59, label, 26, INK, "lm")
    c.text(WIDTH - 40, 59, row["date"], 30, PALE, "rm")
    LAYOUTS[spec_of(str(row["game"])).layout](c, row["deal"])
    footer = (
        f"rating {float(row['rating']):.0f} · par {row['solution_length']} moves · "
        "proved winnable by a solver"
    )
    c.text(WIDTH / 2, HEIGHT - 42, footer, 24, PALE, "ma")
    return c.png()


def store_pictures(db: sqlite_utils.Database, since: dt.date | None = None) -> int:
    """Draw and store the picture of every deal dated ``since`` or later (all, with None)
    that has none of this ``VERSION``, newest first; the number stored. Idempotent, and
    safe beside another process doing the same (a picture is never replaced)."""
    count = 0
    for row in store.deals_without_picture(db, VERSION, since):
        count += store.put_picture(db, row["id"], VERSION, draw_deal(row))
    if count:
        log.info("%d preview pictures drawn and stored", count)
    return count
