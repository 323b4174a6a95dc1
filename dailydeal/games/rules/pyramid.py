"""Pyramid rules (docs/rules.md, "Pyramid") over a mask of the pyramid places still filled.

The pyramid is its 28 dealt cards (``cards[place]``) and a 28-bit mask of the places still
holding theirs; place ``r * (r + 1) // 2 + p`` is row ``r``, place ``p`` (0-based). The
talon is the stock (next card drawn last) and the waste (top last); the waste top is
``EMPTY`` when the waste is empty.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from dailydeal.cards import Card
from dailydeal.games.rules import EMPTY

ROWS: Final = 7
SIZE: Final = 28
FULL: Final = (1 << SIZE) - 1  # the mask of the deal: every place filled
ROW_OF: Final = tuple(r for r in range(ROWS) for _ in range(r + 1))
PLACE_OF: Final = tuple(p for r in range(ROWS) for p in range(r + 1))
# The two places that cover each place (none for the bottom row).
COVERS: Final[tuple[tuple[int, ...], ...]] = tuple(
    () if r == ROWS - 1 else ((r + 1) * (r + 2) // 2 + p, (r + 1) * (r + 2) // 2 + p + 1)
    for r in range(ROWS)
    for p in range(r + 1)
)
COVER_MASK: Final = tuple(sum(1 << c for c in COVERS[i]) for i in range(SIZE))
# The places each place covers (its parents): what removing it may uncover.
PARENTS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(p for p in range(SIZE) if i in COVERS[p]) for i in range(SIZE)
)
KING: Final = 13
PAIR_SUM: Final = 13

_free: dict[int, tuple[int, ...]] = {}


def is_free(mask: int, place: int) -> bool:
    """A place is accessible when it holds its card and no card covering it remains."""
    return bool(mask >> place & 1) and not mask & COVER_MASK[place]


def free_places(mask: int) -> tuple[int, ...]:
    """The accessible places of a mask, in place order (cached: masks recur constantly)."""
    got = _free.get(mask)
    if got is None:
        got = _free[mask] = tuple(i for i in range(SIZE) if is_free(mask, i))
    return got


def value(card: Card) -> int:
    return card % 13 + 1


def is_king(card: Card) -> bool:
    """A king leaves alone."""
    return card % 13 == KING - 1


def is_pair(a: Card, b: Card) -> bool:
    """Two cards pair when their values sum to 13."""
    return a % 13 + b % 13 == PAIR_SUM - 2


def pairs(cards: Sequence[Card], places: Sequence[int], top: Card = EMPTY) -> list[tuple[int, int]]:
    """The pairs among accessible ``places`` and the waste ``top``: (place, place) or
    (place, -1) for the waste top; for each place, its pairs with later places, then with
    the top."""
    out: list[tuple[int, int]] = []
    for n, a in enumerate(places):
        ca = cards[a]
        for b in places[n + 1 :]:
            if is_pair(ca, cards[b]):
                out.append((a, b))
        if top != EMPTY and is_pair(ca, top):
            out.append((a, -1))
    return out


def draw(stock: list[Card], waste: list[Card]) -> None:
    """Draw: the next stock card (the last of ``stock``) becomes the waste top (legal only
    when the stock is not empty)."""
    waste.append(stock.pop())


def undraw(stock: list[Card], waste: list[Card]) -> None:
    """Take back ``draw``."""
    stock.append(waste.pop())


def recycle(stock: list[Card], waste: list[Card]) -> None:
    """Recycle: the waste, turned over, becomes the stock (its bottom card is drawn first);
    the waste is empty. Legal only when the stock is empty, the waste is not and
    ``may_recycle``."""
    stock[:] = waste[::-1]
    waste.clear()


def unrecycle(stock: list[Card], waste: list[Card]) -> None:
    """Take back ``recycle``."""
    waste[:] = stock[::-1]
    stock.clear()


def may_recycle(passes: int | None, recycles: int) -> bool:
    """A recycle is left: unlimited (``passes`` None) or fewer than ``passes - 1`` used.
    (It is legal only when the stock is empty and the waste is not.)"""
    return passes is None or recycles < passes - 1


def reachable(stock: Sequence[Card], waste: Sequence[Card], recycle_left: bool) -> list[Card]:
    """Stock and waste cards that draws and recycles can bring to the waste top.

    Every stock card can be drawn. With a recycle left, every waste card comes round again.
    Without one, only the waste top is reachable, and the cards under it as long as
    everything above them is a king (a waste king leaves alone, uncovering the next).
    """
    out = list(stock)
    if recycle_left:
        out.extend(waste)
        return out
    for card in reversed(waste):
        out.append(card)
        if not is_king(card):
            break
    return out


def can_progress(
    cards: Sequence[Card], mask: int, stock: Sequence[Card], waste: Sequence[Card],
    recycle_left: bool,
) -> bool:
    """Can some sequence of draws and recycles lead to removing a pyramid card? (Not: lost.)"""
    values = {value(cards[i]) for i in free_places(mask)}
    if KING in values or any(PAIR_SUM - v in values for v in values):
        return True
    return any(PAIR_SUM - value(c) in values for c in reachable(stock, waste, recycle_left))


def is_won(mask: int) -> bool:
    """Won: every pyramid place is empty (stock and waste may hold cards)."""
    return mask == 0


def is_lost(
    cards: Sequence[Card], mask: int, stock: Sequence[Card], waste: Sequence[Card],
    recycle_left: bool,
) -> bool:
    """Lost: not won, and no draws and recycles can lead to removing a pyramid card."""
    return not is_won(mask) and not can_progress(cards, mask, stock, waste, recycle_left)
