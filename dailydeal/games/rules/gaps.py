"""Gaps rules (docs/rules.md, "Gaps") over the 52 cells, row by row, ``EMPTY`` for a gap.

A move is ``(card, destination cell)``. The functions read any sequence of ints (a list
for the engine and the player models, a ``bytearray`` for the solver).
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import Final

from dailydeal.cards import Card
from dailydeal.games.rules import EMPTY
from dailydeal.shuffle import redeal_shuffle

# Final: mypyc inlines the literals and keeps the tables in C statics (a module's other
# globals are read through its dict on every use, a measured cost in the solver's loop)
ROWS: Final = 4
COLS: Final = 13
CELLS: Final = 52  # ROWS * COLS
ROW_STARTS: Final = tuple(range(0, CELLS, COLS))
TWOS: Final[tuple[Card, ...]] = (1, 14, 27, 40)  # the 2s, in suit order: any may go to column 1
# SUCCESSOR[c]: the card that may fill the gap right of ``c`` (its suit, one rank up), or
# EMPTY: nothing goes right of a king or of a gap.
SUCCESSOR: Final[tuple[Card, ...]] = tuple(
    EMPTY if c == EMPTY or c % 13 == 12 else c + 1 for c in range(EMPTY + 1)
)
# FOLLOWERS[c]: the same as a tuple of the cards that may go right of ``c`` (0 or 1 card).
FOLLOWERS: Final[tuple[tuple[Card, ...], ...]] = tuple(
    () if n == EMPTY else (n,) for n in SUCCESSOR
)


def is_ace(card: Card) -> bool:
    return card % 13 == 0


def is_two(card: Card) -> bool:
    return card % 13 == 1


def start_cells(cards: Sequence[Card]) -> list[Card]:
    """The deal in 4 rows of 13 with the aces taken out (they never return)."""
    return [EMPTY if is_ace(c) else c for c in cards]


def positions(cells: Sequence[Card]) -> list[int]:
    """Cell of each card (index 0..52; -1 for a card not on the board)."""
    pos = [-1] * (EMPTY + 1)
    for i, c in enumerate(cells):
        if c != EMPTY:
            pos[c] = i
    return pos


def fits(cells: Sequence[Card], gap: int) -> tuple[Card, ...]:
    """The cards that may move into the gap at cell ``gap``: any 2 in column 1, else the
    successor of the card on its left (none right of a king or of a gap)."""
    return TWOS if gap % COLS == 0 else FOLLOWERS[cells[gap - 1]]


def place_moves(cells: Sequence[Card]) -> list[tuple[Card, int]]:
    """Every legal placement (card, destination), by destination cell, 2s in suit order."""
    out: list[tuple[Card, int]] = []
    g = -1
    try:
        while True:
            g = cells.index(EMPTY, g + 1)  # the next gap (a C-speed scan)
            # ``fits(cells, g)``, inlined: this is the hottest loop of the player models
            for card in TWOS if g % COLS == 0 else FOLLOWERS[cells[g - 1]]:
                out.append((card, g))
    except ValueError:
        return out


def target(pos: Sequence[int], card: Card, row: int | None) -> int:
    """The destination of a placement: column 1 of ``row`` (1..4) for a 2, else the cell
    right of the card's predecessor."""
    if row is not None:
        return (row - 1) * COLS
    return pos[card - 1] + 1


def move(cells: MutableSequence[Card], pos: MutableSequence[int], card: Card, dst: int) -> int:
    """Play a placement (legality already checked); returns the cell the card left."""
    src = pos[card]
    cells[src] = EMPTY
    cells[dst] = card
    pos[card] = dst
    return src


def unmove(cells: MutableSequence[Card], pos: MutableSequence[int], card: Card, src: int) -> None:
    """Take back ``move``: the card returns to ``src``."""
    dst = pos[card]
    cells[dst] = EMPTY
    cells[src] = card
    pos[card] = src


def kept_lengths(cells: Sequence[Card]) -> list[int]:
    """Per row, the length (0..12) of its kept sequence: a 2 in column 1 and the cards of
    its suit upward with no break."""
    out = []
    for base in ROW_STARTS:
        first = cells[base]
        n = 0
        if first % 13 == 1:  # a 2 (as ``is_two``, inlined: EMPTY % 13 is 0)
            n = 1
            while n < COLS - 1 and cells[base + n] == first + n:
                n += 1
        out.append(n)
    return out


def score(cells: Sequence[Card]) -> int:
    """Cards in kept sequences (0..48)."""
    return sum(kept_lengths(cells))


WON_LENGTHS: Final = [COLS - 1] * ROWS


def is_won(cells: Sequence[Card]) -> bool:
    """Won: every row reads 2..K of one suit from column 1."""
    return kept_lengths(cells) == WON_LENGTHS


def kept_signature(cells: Sequence[Card]) -> tuple[tuple[int, int], ...]:
    """Per row, (the 2 in column 1 or ``EMPTY``, the length of its kept run): all that a
    redeal keeps, so positions with one signature redeal alike (the solver's key)."""
    return tuple(
        (cells[base] if n else EMPTY, n)
        for base, n in zip(ROW_STARTS, kept_lengths(cells), strict=True)
    )


# What a blocked position (no placement) is: a win, a redeal to make, or a loss.
BLOCKED_WON: Final = 0
BLOCKED_REDEAL: Final = 1
BLOCKED_LOST: Final = 2


def when_blocked(cells: Sequence[Card], redeals_left: int) -> int:
    """Blocked (no placement): won when the rows are built, else redealt when a redeal is
    left, else lost."""
    if is_won(cells):
        return BLOCKED_WON
    return BLOCKED_REDEAL if redeals_left > 0 else BLOCKED_LOST


def can_redeal(cells: Sequence[Card], redeals_left: int) -> bool:
    """A redeal is allowed only when blocked (no placement), not won, and one is left."""
    return not place_moves(cells) and when_blocked(cells, redeals_left) == BLOCKED_REDEAL


def is_lost(cells: Sequence[Card], redeals_left: int) -> bool:
    """Lost: blocked, not won, and no redeal left."""
    return not place_moves(cells) and when_blocked(cells, redeals_left) == BLOCKED_LOST


def redeal(cells: Sequence[Card], seed: int | None, k: int) -> list[Card]:
    """The cells after redeal number ``k`` (1-based) of the deal of ``seed`` (an explicit
    deal, without a seed, redeals as seed 0).

    Each row keeps its kept sequence; every other card is collected (row by row, in
    ``redeal_shuffle``'s canonical order), shuffled by ``redeal_shuffle(collected, seed, k)``
    and dealt back row by row, left to right, with one gap right of each kept sequence.
    """
    kept = kept_lengths(cells)
    collected = [
        c
        for base, n in zip(ROW_STARTS, kept, strict=True)
        for c in cells[base + n : base + COLS]
        if c != EMPTY
    ]
    it = iter(redeal_shuffle(collected, 0 if seed is None else seed, k))
    out = list(cells)
    for base, n in zip(ROW_STARTS, kept, strict=True):
        out[base + n] = EMPTY
        for col in range(n + 1, COLS):
            out[base + col] = next(it)
    return out
