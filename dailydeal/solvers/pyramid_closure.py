"""Pyramid solver: which pyramid cards must leave before which (``precedence``), and what
the cards of a window take (``window_takes``), for ``dailydeal.solvers.pyramid_bounds``.

This module is the reference. ``pyramid_closure.c`` beside it is the same functions in C
(setup.py builds it with the compiled solvers, and it imports under this name): the same
answers, step for step. They are the costliest calls of a search node that a cache does
not answer (``window_blocked``'s misses: about 23,000 instructions a call compiled by
mypyc, its 28 masks boxed in a list and rescanned until nothing changes), and each call is
one call from the compiled bounds, so in C the call's price is paid once for all that
work (docs/solvers.md, "Pyramid's node").

A place is an index 0 to 27 of the pyramid (row by row from the top); a mask has bit i set
for each place still holding its card; ``values`` is the value (1 to 13) of the card dealt
to each place, as bytes.
"""

from __future__ import annotations

from typing import Final

from dailydeal.games.rules.pyramid import COVERS, KING, PAIR_SUM, SIZE

NATIVE: Final = 0  # 1 in the C build


def blockers() -> tuple[int, ...]:
    """Bits of every place that must leave before each place is accessible (the covering
    cards, theirs, and so on)."""
    below = [0] * SIZE
    for i in reversed(range(SIZE)):
        for c in COVERS[i]:
            below[i] |= 1 << c | below[c]
    return tuple(below)


_BLOCKERS: Final = blockers()


def has_partner(pre: list[int], cand: int, c: int) -> bool:
    """Whether a pyramid card of ``cand`` (places, as bits) may leave with the card at
    place ``c``: one that must leave neither before it nor after it (``pre``:
    ``precedence``)."""
    prec = pre[c]
    while cand:
        x = cand & -cand
        cand ^= x
        if not prec & x and not pre[x.bit_length() - 1] >> c & 1:
            return True
    return False


def precedence(values: bytes, mask: int, vals: int, inside: int, ivals: int) -> list[int] | None:
    """For each card c of the mask, the cards that must leave before it (``pre[c]``, see
    ``Bounds.forced_chain``), when the talon cards left have the values ``vals`` (bits),
    and the cards of ``inside`` can only leave with talon cards of the values ``ivals``.
    None when some card cannot leave at all."""
    place_bits = [0] * 14
    for i in range(SIZE):
        place_bits[values[i]] |= 1 << i
    places = [i for i in reversed(range(SIZE)) if mask >> i & 1]
    pre = [0] * SIZE
    for i in places:
        pre[i] = _BLOCKERS[i] & mask
    # The cards that must pair in the pyramid: no talon partner left, not a king.
    only = [
        i for i in places
        if values[i] != KING
        and not (ivals if inside >> i & 1 else vals) >> (PAIR_SUM - values[i]) & 1
    ]
    changed = bool(only)
    while changed:
        changed = False
        for c in only:
            cand = mask & place_bits[PAIR_SUM - values[c]]
            meet = mask
            prec = pre[c]
            some = False
            while cand:
                x = cand & -cand
                cand ^= x
                prej = pre[x.bit_length() - 1]
                if prec & x or prej >> c & 1:
                    continue
                some = True
                meet &= prej
            if not some:
                return None
            meet &= ~(1 << c)
            if meet & ~prec:
                pre[c] = prec | meet
                changed = True
        # What must leave before a card that must leave before c, leaves before c.
        for i in places:
            t = pre[i]
            closed = t
            while t:
                x = t & -t
                t ^= x
                closed |= pre[x.bit_length() - 1]
            if closed != pre[i]:
                pre[i] = closed
                changed = True
            if closed >> i & 1:
                return None
    return pre


def window_takes(values: bytes, mask: int, vals: int, inside: int, ivals: int) -> int:
    """What the cards of ``inside`` take from the talon when they may only leave with talon
    cards of the values ``ivals`` (``Bounds.window_blocked``): -1 when ``precedence`` says
    some card cannot leave at all, else how many talon cards of each value w they take
    at least, 3 bits a value from bit 3 * (w - 1) (``pyramid_bounds.count_shift``): one
    for each card of ``inside`` with no possible pyramid partner (``has_partner``)."""
    pre = precedence(values, mask, vals, inside, ivals)
    if pre is None:
        return -1
    takes = 0
    t = inside
    while t:
        x = t & -t
        t ^= x
        c = x.bit_length() - 1
        v = values[c]
        if v == KING:
            continue
        cand = 0
        for i in range(SIZE):
            if values[i] == PAIR_SUM - v:
                cand |= 1 << i
        if not has_partner(pre, mask & cand, c):
            takes += 1 << 3 * (PAIR_SUM - v - 1)  # at most 4 a value
    return takes


Chain = list[tuple[int, list[int], int, list[int], int]]  # ``Bounds.forced_chain``'s entries


def forced_chain(values: bytes, mask: int, vals: int) -> tuple[Chain, list[int]] | None:
    """``Bounds.forced_chain`` (its docstring says what the chain is) and the ``precedence``
    it was read from, for the mask and the values (bits) ``vals`` of the talon cards left;
    None when the position is lost. The entries are the mask's cards with no possible
    pyramid partner but kings, fewest cards that must leave before them first (c before d
    makes pre[c] a strict subset of pre[d]), places from the highest among equals: (talon
    value w that pairs with it, indices of the nearest earlier entries that must leave
    before it, its place, indices of all the earlier entries that must leave before it,
    the cards that must leave before it)."""
    pre = precedence(values, mask, vals, 0, 0)
    if pre is None:
        return None
    place_bits = [0] * 14
    for i in range(SIZE):
        place_bits[values[i]] |= 1 << i
    places = [i for i in reversed(range(SIZE)) if mask >> i & 1]
    places.sort(key=lambda i: pre[i].bit_count())
    index: dict[int, int] = {}
    got: Chain = []
    for i in places:
        v = values[i]
        if v == KING:
            continue
        if has_partner(pre, mask & place_bits[PAIR_SUM - v], i):
            continue  # a pyramid partner may take it
        above = [k for place, k in index.items() if pre[i] >> place & 1]
        # Only the nearest ones: the cursor of each is at least that of those above it.
        covered = set()
        for k in above:
            covered.update(got[k][1])
            covered.update(got[k][3])
        before = [k for k in above if k not in covered]
        index[i] = len(got)
        got.append((PAIR_SUM - v, before, i, above, pre[i]))
    return got, pre


def usable_values(values: bytes, mask: int, pool: int) -> int:
    """Talon values (bits; kings always) that can pair with a card of ``mask`` once it is
    accessible, in the relaxation where ``pool`` values (bits) are unlimited and a pyramid
    card may pair with any other that can become accessible with it: a card can leave when
    its blockers can, and it is a king, its partner value is in ``pool``, or a partner card
    in the pyramid can be accessible with it. Over-approximates what a real play can reach,
    so every talon value it leaves out really has no usable partner."""
    place_bits = [0] * 14
    for i in range(SIZE):
        place_bits[values[i]] |= 1 << i
    gone = ~mask  # places that can leave (or are gone)
    # Every condition only grows with ``gone``: the same closure in any order. The places
    # are walked by their bits (highest first), a card's partners among the places of the
    # partner value.
    changed = True
    while changed:
        changed = False
        rest = mask & ~gone
        while rest:
            i = rest.bit_length() - 1
            rest ^= 1 << i
            bi = _BLOCKERS[i]
            if bi & ~gone:
                continue
            v = values[i]
            ok = v == KING or bool(pool >> (PAIR_SUM - v) & 1)
            if not ok:
                cand = mask & place_bits[PAIR_SUM - v] & ~bi
                while cand:
                    j = cand.bit_length() - 1
                    cand ^= 1 << j
                    bj = _BLOCKERS[j]
                    if not bj & ~gone and not bj >> i & 1:
                        ok = True
                        break
            if ok:
                gone |= 1 << i
                changed = True
    found = 1 << KING
    rest = mask
    while rest:
        i = rest.bit_length() - 1
        rest ^= 1 << i
        if not _BLOCKERS[i] & ~gone and values[i] != KING:
            found |= 1 << (PAIR_SUM - values[i])
    return found
