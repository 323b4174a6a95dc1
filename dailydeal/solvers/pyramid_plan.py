"""Pyramid solver, part 3: macro moves and plans (see ``dailydeal.solvers.pyramid``).

A search state packs the position into one int; an edge of the search is a macro move: a
pair or king of pyramid cards, or "draw (and recycle) until talon card ``j`` is the waste
top, then remove it". ``reach`` is the one statement of what bringing a talon card to the
waste top costs; the A* edges, the pool-plan fallback and the move notation all use it.
This module turns the found paths back into moves of docs/rules.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from dailydeal.cards import Card
from dailydeal.games.notation import PyramidNotation
from dailydeal.games.rules.pyramid import SIZE, may_recycle
from dailydeal.solvers.base import bit_count_table, bit_length_table

if TYPE_CHECKING:
    # Native 64-bit ints for the compiled build (mypyc): no tag checks, shifts as C shifts.
    # Only annotations name it, so the Python source runs without mypy_extensions.
    from mypy_extensions import i64

# State packing: pyramid mask (28 bits) | talon mask << 28 | waste pointer << 52 |
# recycles used << 58. The talon is one cyclic sequence: waste bottom..top, then the stock
# in drawing order; the waste pointer is (index of the waste top) + 1, 0 for an empty
# waste, so the talon positions below it are the waste and the others the stock.
TAL_SHIFT: Final = SIZE
P_SHIFT: Final = 52
REC_SHIFT: Final = 58
PYR_BITS: Final = (1 << TAL_SHIFT) - 1
TAL_BITS: Final = (1 << 24) - 1
P_BITS: Final = 63

# Edge kinds, for rebuilding the move list.
E_PAIR: Final = 0
E_KING: Final = 1
E_TALON: Final = 2

# Bit counts through tables: compiled by mypyc, ``int.bit_count()`` and ``bit_length()``
# are method calls through Python's generic lookup, several times the cost of two table
# reads. For the masks of this solver only: 0 <= x < 2**32 (pyramid 28 bits, talon 24).
_POP16: Final = bit_count_table()
_LEN16: Final = bit_length_table()


def popcount(x: i64) -> i64:
    """``x.bit_count()`` for 0 <= x < 2**32."""
    return _POP16[x & 0xFFFF] + _POP16[x >> 16]


def bit_length(x: i64) -> i64:
    """``x.bit_length()`` for 0 <= x < 2**32."""
    high = x >> 16
    return _LEN16[high] + 16 if high else _LEN16[x]


Edge = tuple[int, int, int, int]  # (parent state, kind, a, b)
# What A* keeps of the positions it reached, per "room" (the pyramid and talon bits of
# the state, ``ROOM_BITS``, as A* compares the positions of a room): a flat list of
# triples of ints, (waste pointer | recycles << 6 | LOST_BIT when proved lost | the
# smallest g it was reached with << G_SHIFT, the parent state it came from, the edge as
# ``link``). Flat ints, as scanning a room reads only the first of each triple; the parent
# and the edge apart, as one int they would take 74 bits and a long int's arithmetic.
ROOM_BITS: Final = (1 << P_SHIFT) - 1
ROOM_FOLD: Final = 26  # ``room_of``: the talon bits folded onto the mask's low bits
LOST_BIT: Final = 1 << 8
G_SHIFT: Final = 9
NO_LINK: Final = -1  # the start's parent


def link(kind: int, a: int, b: int) -> int:
    """An edge as one int: its kind and its two places or cards."""
    return kind << 12 | (a + 1) << 6 | (b + 1)


PoolStep = tuple[int, int, int]  # (kind, a, b) of the pool search's plan


def pack(mask: int, tal: int, p: int, rec: int) -> int:
    return mask | tal << TAL_SHIFT | p << P_SHIFT | rec << REC_SHIFT


def unpack(state: int) -> tuple[int, int, int, int]:
    """(pyramid mask, talon mask, waste pointer, recycles used) of a state."""
    return (state & PYR_BITS, state >> TAL_SHIFT & TAL_BITS, state >> P_SHIFT & P_BITS,
            state >> REC_SHIFT)


def waste_top(tal: i64, p: i64) -> i64:
    """The talon position of the waste top (-1 for an empty waste)."""
    return bit_length(tal & ((1 << p) - 1)) - 1


def reach(tal: i64, p: i64, top: i64, j: i64) -> tuple[int, int, int, int]:
    """What brings talon card ``j`` to the waste top and removes it: (draws, recycles, draws
    after the recycle, the waste pointer once it is gone). The top itself needs nothing; a
    stock card needs the draws up to it; a waste card under the top needs the rest of the
    stock drawn, a recycle and the draws up to it (``top`` is ``waste_top(tal, p)``).
    Removing it is one more step, and leaves the talon ``tal & ~(1 << j)``."""
    below = tal & ((1 << j) - 1)
    if j == top:
        return 0, 0, 0, bit_length(below)
    if j > top:
        return popcount(below >> p) + 1, 0, 0, bit_length(below)
    return popcount(tal >> p), 1, popcount(below) + 1, bit_length(below)


def room_of(state: i64) -> int:
    """The key of a state's room in A*'s table: its pyramid and talon bits (``ROOM_BITS``)
    with the talon folded onto the low bits. A dict finds an int key's slot from its low
    bits, and many rooms share a pyramid mask, differing only in the talon bits above bit
    28: as raw keys they start in one slot and probe on until the high bits come in (237
    ns a lookup among a search's 77,000 rooms, 98 ns folded). x ^ x >> k is one to one,
    so the keys stay those of distinct rooms."""
    room = state & ROOM_BITS
    room ^= room >> ROOM_FOLD
    room ^= room >> 17
    return room ^ room >> 34


def link_of(state: int, rooms: dict[int, list[int]]) -> tuple[int, int]:
    """The parent state (NO_LINK for the start) and the link of a position A* reached."""
    where = state >> P_SHIFT  # waste pointer | recycles << 6
    group = rooms[room_of(state)]
    for k in range(0, len(group), 3):
        if group[k] & 255 == where:
            return group[k + 1], group[k + 2]
    raise KeyError(state)


def redraw(tal: i64, p: i64, q: i64) -> i64:
    """The draws (and recycle) that take waste pointer ``p`` to ``q`` with talon ``tal``,
    removing nothing: the cards from p up to q, or when q < p the rest of the stock, a
    recycle and the cards up to q."""
    upto = tal & ((1 << q) - 1)  # the cards below q: the waste at q
    if p <= q:
        return popcount(upto >> p)
    return popcount(tal >> p) + 1 + popcount(upto)


# Canonical talons. The game only sees the values of the talon cards, so two talons that
# leave the same sequence of values (and the waste pointer at the same place in it) are the
# same position for the search. A* keeps one form of each: every card left sits at the
# leftmost position, among the removed ones just before it, whose card has its value
# (moving a card there keeps the sequence of values and the order). The moves of a
# solution found on canonical talons name cards by their rank among those left
# (``realize``).


def same_before(tvalues: Sequence[int]) -> list[list[int]]:
    """For each talon position, the earlier positions holding a card of the same value,
    in order."""
    return [[i for i in range(k) if tvalues[i] == tvalues[k]] for k in range(len(tvalues))]


def canonical_removal(tal: i64, p: i64, j: i64, same: list[list[int]]) -> tuple[int, int]:
    """The canonical talon ``tal`` less its card ``j``, and where waste pointer ``p``
    (already past the removal) goes. Only cards after j can move: the gap before the next
    one grew, and each card that moves grows the gap before the next in turn; the first
    card that stays ends it."""
    tal &= ~(1 << j)
    last = bit_length(tal & ((1 << j) - 1)) - 1  # the card left before the gap
    rest = tal >> (j + 1) << (j + 1)
    while rest:
        k = bit_length(rest & -rest) - 1
        rest &= rest - 1
        to: i64 = k
        for i in same[k]:
            if i > last:
                to = i
                break
        if to == k:
            break
        tal = tal & ~(1 << k) | 1 << to
        if p == k + 1:
            p = to + 1
        last = to
    return tal, p


def realize(path: Sequence[Edge], start: int) -> list[Edge]:
    """A macro path found on canonical talons, on the real talon from ``start``: each
    talon card taken is the one of the same rank among the cards left."""
    _, tal, p, _ = unpack(start)
    out: list[Edge] = []
    for state, kind, a, b in path:
        mask, ctal, _, rec = unpack(state)
        real = pack(mask, tal, p, rec)
        if kind != E_TALON:
            out.append((real, kind, a, b))
            continue
        rest = tal
        for _ in range(popcount(ctal & ((1 << a) - 1))):
            rest &= rest - 1
        j = bit_length(rest & -rest) - 1
        after = reach(tal, p, waste_top(tal, p), j)[3]
        out.append((real, E_TALON, j, b))
        tal &= ~(1 << j)
        p = after
    return out


def path_to(state: int, rooms: dict[int, list[int]]) -> list[Edge]:
    """The edges from the start to ``state``, following the links."""
    path: list[Edge] = []
    parent, edge = link_of(state, rooms)
    while parent != NO_LINK:
        path.append((parent, edge >> 12 & 3, (edge >> 6 & 63) - 1, (edge & 63) - 1))
        parent, edge = link_of(parent, rooms)
    path.reverse()
    return path


def pool_plan_path(
    plan: Sequence[PoolStep], start: int, value_bits: Sequence[int], passes: int | None
) -> list[Edge] | None:
    """The pool search's plan played on the real talon: for each talon value, the nearest
    card of that value in drawing order. A valid, usually not shortest, solution; None when
    the pass limit does not allow it."""
    mask, tal, p, rec = unpack(start)
    path: list[Edge] = []
    for kind, a, b in plan:
        state = pack(mask, tal, p, rec)
        if kind == E_KING:
            mask &= ~(1 << a)
            path.append((state, E_KING, a, -1))
        elif kind == E_PAIR:
            mask &= ~(1 << a) & ~(1 << b)
            path.append((state, E_PAIR, a, b))
        else:
            cards = tal & value_bits[a]
            top = waste_top(tal, p)
            if top >= 0 and cards >> top & 1:
                j = top
            elif cards >> p:
                ahead = cards >> p << p
                j = bit_length(ahead & -ahead) - 1
            else:
                j = bit_length(cards & -cards) - 1
            _, recycles, _, after = reach(tal, p, top, j)
            if recycles:
                if not may_recycle(passes, rec):
                    return None
                if passes is not None:
                    rec += 1
            mask &= ~(1 << b)
            tal, p = tal & ~(1 << j), after
            path.append((state, E_TALON, j, b))
    return path


def notation(path: Sequence[Edge], cards: Sequence[Card], talon: Sequence[Card]) -> list[str]:
    """The docs/rules.md notation of a macro path, draws and recycles spelled out."""
    out: list[str] = []
    n = PyramidNotation
    for state, kind, a, b in path:
        if kind == E_KING:
            out.append(n.king(cards[a]))
        elif kind == E_PAIR:
            out.append(n.pair(cards[a], cards[b]))
        else:
            _, tal, p, _ = unpack(state)
            draws, recycles, more, _ = reach(tal, p, waste_top(tal, p), a)
            out.extend([n.DRAW] * draws + [n.RECYCLE] * recycles + [n.DRAW] * more)
            card = talon[a]
            out.append(n.king(card) if b < 0 else n.pair(cards[b], card))
    return out
