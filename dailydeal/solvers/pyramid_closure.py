"""Pyramid solver: which pyramid cards must leave before which (``precedence``), what
the cards of a window take (``window_takes``), and the recycles a position needs
(``passes_needed``, built on them), for ``dailydeal.solvers.pyramid_bounds``.

This module is the reference. ``pyramid_closure.c`` beside it is the same functions in C
(setup.py builds it with the compiled solvers, and it imports under this name): the same
answers, step for step. ``passes_needed`` is the costliest bound of a search node (a
third of its instructions when compiled by mypyc: the closure's 28 masks boxed in a list
and rescanned until nothing changes, the chain's tuples, the tables of its windows), and
it is one call from the compiled bounds, so in C the call's price is paid once for all
that work, on masks held in words on the stack (docs/solvers.md, "Pyramid's node").

A place is an index 0 to 27 of the pyramid (row by row from the top); a mask has bit i set
for each place still holding its card; ``values`` is the value (1 to 13) of the card dealt
to each place, as bytes; ``tvalues`` those of the talon positions (waste bottom to top,
then the stock in drawing order), and a talon set has bit j set for position j.
"""

from __future__ import annotations

from typing import Final

from dailydeal.games.rules.pyramid import COVERS, KING, PAIR_SUM, SIZE

NATIVE: Final = 0  # 1 in the C build
BIG: Final = 1 << 20  # "impossible" for step and recycle counts (``pyramid_bounds``)
TALON: Final = 52 - SIZE  # talon positions at most


def blockers() -> tuple[int, ...]:
    """Bits of every place that must leave before each place is accessible (the covering
    cards, theirs, and so on)."""
    below = [0] * SIZE
    for i in reversed(range(SIZE)):
        for c in COVERS[i]:
            below[i] |= 1 << c | below[c]
    return tuple(below)


_BLOCKERS: Final = blockers()


def behind() -> tuple[int, ...]:
    """Bits of every place that each place blocks (``blockers`` the other way round)."""
    return tuple(
        sum(1 << x for x in range(SIZE) if _BLOCKERS[x] >> y & 1) for y in range(SIZE)
    )


_BEHIND: Final = behind()


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
    ``forced_chain``), when the talon cards left have the values ``vals`` (bits),
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
    cards of the values ``ivals`` (``window_blocked``): -1 when ``precedence`` says
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


Chain = list[tuple[int, list[int], int, list[int], int]]  # ``forced_chain``'s entries


def forced_chain(values: bytes, mask: int, vals: int) -> tuple[Chain, list[int]] | None:
    """The mask's cards that can only leave with a talon card (``passes_needed``), and the
    ``precedence`` it was read from, for the mask and the values (bits) ``vals`` of the
    talon cards left; None when the position is lost.

    Which cards must leave before a card c (``pre[c]``, strictly before the step that
    removes c, in every solution): the cards covering it; what must leave before any of
    those; and when no talon card of c's partner value is left (c is not a king), c
    leaves in the same step as one of its possible pyramid partners j, so what must leave
    before every such j (other than c) leaves before c too. A pyramid card j is no
    possible partner of c when j must leave before c, or c before j. A card with no
    possible pyramid partner must leave with a talon card (a chain card); with no talon
    card of its partner value either, the position is lost, and so it is when a card
    would have to leave before itself.

    The entries are the mask's cards with no possible pyramid partner but kings, fewest
    cards that must leave before them first (c before d makes pre[c] a strict subset of
    pre[d]), places from the highest among equals: (talon value w that pairs with it,
    indices of the nearest earlier entries that must leave before it, its place, indices
    of all the earlier entries that must leave before it, the cards that must leave
    before it)."""
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


def talon_bits(tvalues: bytes) -> list[int]:
    """[w]: the talon positions holding a card of value w (0 to 13), as bits."""
    got = [0] * 14
    for j, w in enumerate(tvalues):
        got[w] |= 1 << j
    return got


class PassCounter:
    """``passes_needed`` for one deal (the pyramid's ``values``, the talon's ``tvalues``),
    and the two reads of the waste of ``Bounds.threshold_bound`` (``reachable_waste``,
    ``staying``), with tables of what they read per mask and talon values, kept until
    ``clear``: the chain and its precedence (``forced_chain``), the talon positions whose
    values can leave and the usable values by pool (``usable_values``), and what the cards
    of a window take (``window_takes``). The tables keep the answers of pure functions of
    their keys: they change no answer."""

    def __init__(self, values: bytes, tvalues: bytes) -> None:
        self.values = values
        self.tvalues = tvalues
        self.vb = talon_bits(tvalues)
        self.place_bits = [0] * 14
        for i in range(SIZE):
            self.place_bits[values[i]] |= 1 << i
        # by ``key``
        self.chains: dict[int, tuple[Chain, list[int]] | None] = {}
        self.usable: dict[int, int] = {}
        # by ``key`` << 42 | the window's talon values (as ``key`` keeps them) | its cards
        # << 14
        self.windows: dict[int, int] = {}
        self.usable_by_pool: dict[int, int] = {}  # ``usable_values``, by ``key(mask, pool)``

    def clear(self) -> None:
        """Drop the tables (the end of a solve)."""
        self.chains = {}
        self.usable = {}
        self.windows = {}
        self.usable_by_pool = {}

    def key(self, mask: int, vals: int) -> int:
        """The key of the tables: the mask and the talon values ``vals`` its cards pair with
        (the others change no answer)."""
        place_bits = self.place_bits
        wanted = 0
        for v in range(1, KING):
            if mask & place_bits[v]:
                wanted |= 1 << (PAIR_SUM - v)
        return mask | (vals & wanted) << SIZE

    def usable_values(self, mask: int, pool: int) -> int:
        """``usable_values`` of the mask and the pool values ``pool``, through the table."""
        key = self.key(mask, pool)
        got = self.usable_by_pool.get(key)
        if got is None:
            got = self.usable_by_pool[key] = usable_values(self.values, mask, pool)
        return got

    def usable_positions(self, mask: int, vals: int) -> int:
        """The talon positions holding a card of a value ``usable_values`` allows, with the
        talon values ``vals`` as the pool, through the table."""
        key = self.key(mask, vals)
        ok = self.usable.get(key)
        if ok is None:
            usable = self.usable_values(mask, vals)
            ok = 0
            for u in range(1, 14):
                if usable >> u & 1:
                    ok |= self.vb[u]
            self.usable[key] = ok
        return ok

    def reachable_waste(self, mask: int, low: int, pool: int) -> int:
        """The waste cards (positions in ``low``) that can still be used before the next
        recycle, with the values ``pool`` from the stock: the top ones, down to the first
        that can never leave the waste this pass. Cards are used top first, each (kings
        aside) with its own pyramid partner, so the run stops at a card that needs more
        partners of its value than the mask holds, or whose partners cannot become
        accessible even with the cards above it in the pool (``usable_values``)."""
        tvalues = self.tvalues
        place_bits = self.place_bits
        usable = self.usable_values(mask, pool)
        used = 0  # 3 bits per value (at most 4 talon cards of a value), not a list
        t = low
        while t:
            j = t.bit_length() - 1
            w = tvalues[j]
            # the cards of the mask a talon card of value w can pair with (kings: any)
            cap = SIZE if w == KING else (mask & place_bits[PAIR_SUM - w]).bit_count()
            if used >> (3 * w) & 7 == cap or not usable >> w & 1:
                return low >> (j + 1) << (j + 1)
            used += 1 << (3 * w)
            t ^= 1 << j
            if not pool >> w & 1:
                pool |= 1 << w
                usable = self.usable_values(mask, pool)
        return low

    def staying(self, mask: int, tal: int, last: int) -> int:
        """How many talon cards at positions up to ``last`` (-1: none) never leave: those
        of values ``usable_values`` rules out (with the values of ``tal`` as the pool),
        and for each value (kings aside) those beyond the cards of the mask it pairs with.
        Every pass that gets there draws them."""
        vb = self.vb
        upto = tal & ((2 << last) - 1) if last >= 0 else 0
        pool = 0
        for w in range(1, 14):
            if tal & vb[w]:
                pool |= 1 << w
        bad = upto & ~self.usable_positions(mask, pool)
        left = upto & ~bad
        total = bad.bit_count()
        for u in range(1, KING):
            extra = (left & vb[u]).bit_count() - (mask & self.place_bits[PAIR_SUM - u]).bit_count()
            if extra > 0:
                total += extra
        return total

    def window_blocked(self, mask: int, vals: int, inside: int, above: int) -> bool:
        """Can the cards ``inside`` (those that must leave before a card of the chain) not
        all leave when they may only take talon cards among ``above`` (a set of talon
        positions)? By ``precedence`` with only the values of ``above`` for them
        (``window_takes``: -1, they cannot), then by counting: those with no possible
        pyramid partner each take a card of ``above`` of their partner value, their own,
        so ``above`` must hold as many of each value as they take (the counts, not only
        the values: one 8 is not two). ``vals``: the values of the talon cards left."""
        vb = self.vb
        ivals = 0
        for w in range(1, 14):
            if above & vb[w]:
                ivals |= 1 << w
        # the window's values, as the key: only those its cards pair with count
        wkey = self.key(mask, vals) << 42 | self.key(mask, ivals) >> SIZE | inside << 14
        takes = self.windows.get(wkey)
        if takes is None:
            takes = window_takes(self.values, mask, vals, inside, ivals)
            self.windows[wkey] = takes
        if takes < 0:
            return True
        for w in range(1, KING):
            if takes >> 3 * (w - 1) & 7 > (above & vb[w]).bit_count():
                return True
        return False

    def passes_needed(self, mask: int, tal: int, p: int, most: int) -> tuple[int, int]:
        """``Bounds.passes_needed`` (its docstring says what is counted and why it is a
        lower bound): (S, c), every solution recycles at least S times, and if exactly S,
        draws at least up to talon position c in its last pass (-1: no such position); S
        is ``BIG`` when the position is lost or needs more than ``most`` recycles.
        ``tal``: the talon positions left; ``p``: the first stock position (the cards
        under it are the waste)."""
        values = self.values
        tvalues = self.tvalues
        vb = self.vb
        place_bits = self.place_bits
        vals = 0
        for w in range(1, 14):
            if tal & vb[w]:
                vals |= 1 << w
        key = self.key(mask, vals)
        if key in self.chains:
            got = self.chains[key]
        else:
            got = self.chains[key] = forced_chain(values, mask, vals)
        if got is None:
            return BIG, -1
        chain, pre = got
        if not chain:
            return 0, -1
        bad = -1  # talon cards that never leave (``usable_values``), looked up at the first gap
        kings = vb[KING]
        # Each talon card that leaves, kings aside, takes a pyramid card of its own.
        takers = (mask & ~place_bits[KING]).bit_count()
        start = p  # times: pass << 5 | (cursor position + 1); the start is pass 0 at p - 1
        times: list[int] = []
        places: list[int] = []  # the places of the chain's entries so far
        latest = start
        for w, before, place, above, inside in chain:
            t0 = start
            for k in before:
                if times[k] > t0:
                    t0 = times[k]
            wb = tal & vb[w]
            if not wb:
                return BIG, -1
            c0 = (t0 & 31) - 1
            t = -1
            below = wb & ((2 << c0) - 1) if c0 >= 0 else 0
            if below:
                j = below.bit_length() - 1
                if j == c0:
                    t = t0
                else:
                    gap = tal & ((2 << c0) - 1) & ~((2 << j) - 1)
                    if bad < 0:
                        bad = tal & ~self.usable_positions(mask, vals)
                    if not gap & bad and (gap & ~kings).bit_count() < takers:
                        # The cards of the gap leave before this one does, each but a
                        # king with a pyramid card of its own accessible by then: not
                        # this one, none it covers, and none under a card of the chain
                        # that leaves later, at any cursor up to the next draw of a card
                        # of value w (those the card skips when the test fails).
                        late = 1 << place
                        ahead = wb >> (c0 + 1)
                        if ahead:  # the time of the next draw of a card of value w
                            end = (t0 >> 5) << 5 | ((ahead & -ahead).bit_length() + c0 + 1)
                        else:
                            end = ((t0 >> 5) + 1) << 5
                        for k in range(len(times)):
                            if times[k] >= end:
                                late |= 1 << places[k]
                        t = t0
                        # the late cards and those they block: no partner by then
                        out = late
                        y = late
                        while y:
                            x = y & -y
                            y ^= x
                            out |= _BEHIND[x.bit_length() - 1]
                        g = gap & ~kings
                        while g:
                            u = tvalues[(g & -g).bit_length() - 1]
                            ub = g & vb[u]
                            g ^= ub
                            partners = mask & place_bits[PAIR_SUM - u] & ~out
                            if ub.bit_count() > partners.bit_count():
                                t = -1
                                break
                        if t >= 0:
                            # The card of value w this card takes in the pass of t0 (one
                            # under cursor c0, or none) stays in the waste from its draw
                            # until this card leaves, and buries the cards under it: the
                            # cards that must leave first and leave after that draw take
                            # talon cards above the lowest of them. When those cards are
                            # all in the waste now (this pass), that is all the cards
                            # that must leave first; otherwise the chain cards among them
                            # whose cursor is at the top one or later, and those that
                            # must leave after one of these.
                            low = (below & -below).bit_length() - 1
                            rest = tal >> (low + 1) << (low + 1)
                            window = inside
                            if j >= p or t0 >> 5:
                                window = 0
                                drawn = t0 >> 5 << 5 | j  # the time of its draw, less 1
                                for k in above:
                                    if times[k] > drawn:
                                        window |= 1 << places[k]
                                if window:
                                    x = inside & ~window
                                    while x:
                                        y = x & -x
                                        x ^= y
                                        if pre[y.bit_length() - 1] & window:
                                            window |= y
                            if window and self.window_blocked(mask, vals, window, rest):
                                t = -1
            if t < 0:
                ahead = wb >> (c0 + 1)
                if ahead:
                    t = (t0 >> 5) << 5 | ((ahead & -ahead).bit_length() + c0 + 1)
                else:
                    t = ((t0 >> 5) + 1) << 5 | (wb & -wb).bit_length()
            times.append(t)
            places.append(place)
            if t > latest:
                latest = t
                if t >> 5 > most:
                    return BIG, -1
        return latest >> 5, (latest & 31) - 1
