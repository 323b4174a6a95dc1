"""Accordion rules (docs/rules.md, "Accordion") over the row of top cards.

Only the top card of each pile plays a part, so the position is the row of tops, left to
right, and how many stock cards are out. A pile move is ``(i, j)``: the pile at index ``i``
goes onto the pile at index ``j = i - jump``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from dailydeal.cards import Card

JUMPS = (1, 3)  # a pile moves onto the pile 1 or 3 places to its left
DECK_SIZE = 52


def matches(a: Card, b: Card) -> bool:
    """Two top cards match when they share a suit or a rank (colour never counts)."""
    return a // 13 == b // 13 or a % 13 == b % 13


# MATCHES[a][b] is 1 when ``matches(a, b)``: the same rule as a table for the hot paths.
MATCHES: Final[tuple[bytes, ...]] = tuple(
    bytes(1 if matches(a, b) else 0 for b in range(DECK_SIZE)) for a in range(DECK_SIZE)
)


def pile_moves(row: Sequence[Card], jumps: Sequence[int] = JUMPS) -> list[tuple[int, int]]:
    """Every legal pile move of a row as (source index, destination index).

    Grouped by jump in the order of ``jumps``, then left to right; ``by_source`` gives the
    order of the engine (left to right, then by jump).
    """
    m = MATCHES
    out: list[tuple[int, int]] = []
    n = len(row)
    if isinstance(row, bytes):
        # The solver's rows: compiled, a bytes item is read natively, where the generic
        # Sequence below goes through the object protocol (half the solver's instructions).
        for k in jumps:
            for i in range(k, n):
                if m[row[i]][row[i - k]]:
                    out.append((i, i - k))
        return out
    for k in jumps:
        for i in range(k, n):
            if m[row[i]][row[i - k]]:
                out.append((i, i - k))
    return out


def by_source(moves: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Moves ordered by source pile (stable: within a source, the order of the jumps)."""
    return sorted(moves, key=lambda m: m[0])


def move_pile(row: list[Card], i: int, j: int) -> list[Card]:
    """The row after pile ``i`` moves onto pile ``j``: its top covers ``j``, the gap closes."""
    new = row[:]
    new[j] = new[i]
    del new[i]
    return new


def can_deal(dealt: int, has_moves: bool, forced: bool, total: int = DECK_SIZE) -> bool:
    """A deal needs a stock card; in the ``forced`` variant, also no pile move."""
    return dealt < total and not (forced and has_moves)


def is_won(dealt: int, piles: int, total: int = DECK_SIZE) -> bool:
    """Won: the stock is empty and one pile remains."""
    return dealt == total and piles == 1


def is_lost(dealt: int, piles: int, has_moves: bool, total: int = DECK_SIZE) -> bool:
    """Lost: not won, the stock is empty and no pile move is left."""
    return not is_won(dealt, piles, total) and dealt >= total and not has_moves


def score(dealt: int, piles: int, total: int = DECK_SIZE) -> int:
    """Piles left, each undealt card counted as the pile it will become (1 is a win)."""
    return piles + total - dealt
