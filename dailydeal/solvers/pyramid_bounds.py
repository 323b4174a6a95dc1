"""Pyramid solver, part 1: lower bounds on the steps left (see ``dailydeal.solvers.pyramid``).

Every bound here is a relaxation of the game: the pyramid is exact (its accessibility and
pairs come from the rules core) while the talon is loosened (``pool_steps``: the talon
values as an unlimited pool; ``two_phase``: two pools, before and after a recycle;
``threshold_bound``: the talon order up to some draw). They prove positions lost (no pool
clears the pyramid) and steer A*; all are admissible, which the tests check against a naive
breadth-first search. Results are cached per pyramid mask and pool.

Counting the talon cards a clearance takes (``talon_used``): if the pyramid's n cards, k of
them kings, leave in P steps, x of them pairs of pyramid cards and t with a talon card, then
P = x + t + k and n = 2x + t + k, so t = 2 * P - (n + k) (n + k is the mask's ``weight``).
Every pool bound P* is a lower bound on P, and t grows with P: a solution takes at least
2 * P* - weight distinct talon cards, and each stock card among them needs its own draw
(only waste cards above any buried ones can be taken without one). Both bounds add these
draws (``heuristic``; ``with_draws`` for each term of the threshold bound).

Counting passes (``passes_needed``): the pools above forget the order of the talon, so on
their own they never see that a position needs more than one recycle. Pyramid cards that
no pyramid card can ever pair with must each leave with a talon card, in the order the
pyramid frees them, while the waste is a stack: a card can be taken from under the waste
top only if every card above it leaves first. Following the draw cursor through the passes
gives the fewest recycles every solution makes, and how far its last pass draws; the
threshold bound drops the terms that stop short of either.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from dailydeal.cards import Card
from dailydeal.games.rules.pyramid import (
    KING,
    PAIR_SUM,
    SIZE,
    free_places,
    is_king,
    may_recycle,
    value,
)
from dailydeal.games.rules.pyramid import pairs as place_pairs
from dailydeal.solvers.pyramid_closure import BIG, PassCounter
from dailydeal.solvers.pyramid_plan import bit_length, popcount

if TYPE_CHECKING:
    # Native 64-bit ints for the compiled build (mypyc), as in ``pyramid_plan``: the masks
    # of the bit walks are at most 28 bits.
    from mypy_extensions import i64

KING_VALUE: Final = KING
KEY_SHIFT: Final = SIZE  # cache keys: pyramid mask | pool values << KEY_SHIFT


@dataclass(slots=True)
class _MaskInfo:
    """What a pyramid mask allows, cached per mask (pyramid moves never look at the talon)."""

    king: int  # an accessible pyramid king's place, or -1
    pairs: list[tuple[int, int]]  # accessible place pairs summing to 13
    partners: list[list[int]]  # partners[w]: accessible places a talon card of value w pairs
    h: int  # steps needed by the pyramid alone (kings + per-class max)
    need: list[tuple[int, int]]  # (talon value w, at least this many talon cards of value w)
    wanted: int  # bit w set when a talon card of value w could pair with a card of the mask
    # (talon value, accessible places it pairs with; [-1] for a talon king alone), for the
    # values that have a partner now
    talon_moves: list[tuple[int, list[int]]]
    caps: bytes  # caps[w]: cards of the mask a talon card of value w can pair with
    dead: int  # talon positions of cards no card of the mask pairs with (kings excepted)
    # cards + kings of the mask: a pyramid clearance of P steps removes 2 * P - weight talon
    # cards (``talon_used``)
    weight: int
    need_bits: int  # the values of ``need`` as bits
    # (a, b, w): accessible pairs where b is the mask's only card of value w = 13 - value(a)
    # (both ways round when both are alone); when no talon card of value w is left either,
    # a can only ever leave with b (the forced pair of the search)
    lone_pairs: list[tuple[int, int, int]]
    index: int  # the order in which the mask was first met: a short name for it
    # The caches of this mask's bounds, by the rest of their keys: small dicts with small
    # keys, where one table for all masks would hash long keys into a large table.
    pool: dict[int, int]  # ``pool_steps`` by the values of the pool (those of ``wanted``)
    phase: dict[int, int]  # ``two_phase`` by va | vb << 14 (those of ``wanted``)
    # The infos of the children the pool bounds recursed into (``Bounds.kid``): by the
    # place removed, then by the index of the pair in ``pairs`` past SIZE
    kids: list[_MaskInfo | None]


def mask_key(mask: i64) -> int:
    """The key of a mask in ``Bounds.info_cache``: its high places folded onto its low
    ones. A dict finds an int key's slot from its low bits, which are the top of the
    pyramid, gone in most masks met: raw, the keys crowd into a few slots and probe on
    (4.9 probes an insertion among one search's 1,319 masks, 2.5 folded). x ^ x >> k is
    one to one."""
    return mask ^ mask >> 14


def count_shift(w: int) -> int:
    """Where the count of the talon cards of value w (1 to 12) sits in the pool search's
    counts: 3 bits per value (at most 4 cards), 36 bits in all, so that a pool state's key
    (``_MaskInfo.index`` above them) stays a machine-sized int."""
    return 3 * (w - 1)


def with_draws(rank: int, steps: int, room: int) -> int:
    """A term of the threshold bound: ``rank`` draws, at least ``steps`` pyramid steps,
    and the draws the talon cards those steps take call for. A clearance in P steps takes
    2 * P - weight talon cards (``talon_used``); the cards a pass can use are those of its
    base (``room`` - weight of them) and the ``rank`` drawn, so a clearance in P steps
    needs max(rank, 2 * P - room) draws, which only grows with P: the term is taken at
    P = ``steps``."""
    need = 2 * steps - room
    return steps + (need if need > rank else rank)


def redrawn(rank: int, steps: int, room: int, every: int, weight: int) -> int:
    """``with_draws`` for a term of the pass after a recycle, which reaches talon position
    R having drawn ``rank`` cards outside the base: it also draws again every card up to R
    (``every`` of them) that was not removed before the recycle. Removed ones are talon
    cards the pyramid took (at most 2 * P - weight, ``talon_used``) or talon kings (each
    one step more, which pays for its draw). So the steps are at least P + max(rank,
    every + weight - 2 * P) for some P >= ``steps``: the first arm grows with P and the
    second falls, so the minimum is at least max(rank + steps, ceil((rank + every +
    weight) / 2)).

    And at least one card is drawn after the recycle: a solution that draws none after
    it takes no talon card after it (the waste is empty then), so dropping the recycle
    and the draws after it leaves a shorter solution. A shortest one never does that."""
    if rank < 1:
        rank = 1
    term = with_draws(rank, steps, room)
    half = (rank + every + weight + 1) >> 1
    return half if half > term else term


class Bounds:
    """The bounds of one solve: the pyramid cards, the talon order and their caches."""

    def __init__(self, cards: list[Card], talon: list[Card], passes: int | None) -> None:
        self.cards = cards  # the card dealt to each pyramid place
        values = [value(c) for c in cards]
        tvalues = [value(c) for c in talon]
        # The values of the pyramid places and of the talon positions, as bytes: compiled,
        # a bytes item is read natively, a list item through the generic path.
        self.values = bytes(values)
        self.talon = talon  # waste bottom..top, then the stock in drawing order
        self.tvalues = bytes(tvalues)
        self.n = len(talon)
        self.passes = passes
        # value_bits[w]: talon positions holding a card of value w.
        self.value_bits = [0] * 14
        # place_bits[v]: pyramid places dealt a card of value v.
        self.place_bits = [0] * 14
        for i, v in enumerate(values):
            self.place_bits[v] |= 1 << i
        for j, v in enumerate(tvalues):
            self.value_bits[v] |= 1 << j
        self.full = (1 << self.n) - 1  # every talon position
        # vtab[k][x]: the values (as bits) of the talon cards at positions 8k..8k+7 in x;
        # ctab[k][x]: how many of them of each value but kings (``counts_of``).
        self.vtab = [[0] * 256 for _ in range(3)]
        self.ctab = [[0] * 256 for _ in range(3)]
        for k in range(3):
            vt = self.vtab[k]
            ct = self.ctab[k]
            for x in range(1, 256):  # x from x less its lowest card
                j = 8 * k + bit_length(x & -x) - 1
                rest = x & (x - 1)
                vt[x] = vt[rest]
                ct[x] = ct[rest]
                if j < self.n:
                    v = self.tvalues[j]
                    vt[x] |= 1 << v
                    if v != KING_VALUE:
                        ct[x] += 1 << count_shift(v)
        self.info_cache: dict[int, _MaskInfo] = {}
        self.counter = PassCounter(self.values, self.tvalues)  # ``passes_needed``
        # The last mask ``info_of`` answered, and its info: the bounds of one position ask
        # for the same mask again and again, and a compare is cheaper than a dict lookup.
        self.last_steps = 0  # the pool steps the last ``heuristic`` read
        self.memo_mask = -1
        self.memo_info = _MaskInfo(
            -1, [], [], 0, [], 0, [], b"", 0, 0, 0, [], -1, {}, {}, []
        )

    def release(self) -> None:
        """Drop the caches (the end of a solve: ``pyramid._solve``)."""
        self.memo_mask = -1
        self.info_cache = {}
        self.counter.clear()

    def values_of(self, talon_set: int) -> int:
        """The values (as bits) of the talon cards in a set of positions."""
        t0, t1, t2 = self.vtab
        return t0[talon_set & 255] | t1[talon_set >> 8 & 255] | t2[talon_set >> 16]

    def counts_of(self, talon_set: int) -> int:
        """How many talon cards of each value but kings a set of positions holds (the pool
        search's counts: ``count_shift``; a talon king never takes a pyramid card)."""
        c0, c1, c2 = self.ctab
        return c0[talon_set & 255] + c1[talon_set >> 8 & 255] + c2[talon_set >> 16]

    def info_of(self, mask: int) -> _MaskInfo:
        """``info(mask)``, through a one-entry memo (``memo_mask``)."""
        if mask == self.memo_mask:
            return self.memo_info
        got = self.info_cache.get(mask_key(mask)) or self.info(mask)
        self.memo_mask = mask
        self.memo_info = got
        return got

    def info(self, mask: int) -> _MaskInfo:
        """Moves and bounds of a pyramid mask.

        Lower bound: a step removes at most one pyramid card of any one value and touches only
        one value class {v, 13-v}, so the pyramid needs at least (kings) + sum over the six
        classes of max(#v, #(13-v)) steps. If #v > #(13-v), at least the excess of v-cards
        must pair with talon cards of value 13-v (``need``).
        """
        got = self.info_cache.get(mask_key(mask))
        if got is not None:
            return got
        values = self.values
        acc = free_places(mask)
        king = next((i for i in acc if is_king(self.cards[i])), -1)
        pairs = place_pairs(self.cards, acc)
        partners: list[list[int]] = [[] for _ in range(14)]
        for i in acc:
            if values[i] != KING_VALUE:
                partners[PAIR_SUM - values[i]].append(i)
        count = [0] * 14
        for i in range(SIZE):
            if mask >> i & 1:
                count[values[i]] += 1
        h = count[KING_VALUE]
        need: list[tuple[int, int]] = []
        for v in range(1, 7):
            a, b = count[v], count[PAIR_SUM - v]
            h += max(a, b)
            if a > b:
                need.append((PAIR_SUM - v, a - b))
            elif b > a:
                need.append((v, b - a))
        wanted = sum(1 << (PAIR_SUM - v) for v in range(1, 13) if count[v])
        talon_moves = [(w, partners[w]) for w in range(1, 13) if partners[w]]
        talon_moves.append((KING_VALUE, [-1]))
        dead = 0
        for w in range(1, 13):
            if not wanted >> w & 1:
                dead |= self.value_bits[w]
        caps = bytes([0] + [count[PAIR_SUM - w] for w in range(1, 13)] + [SIZE])
        weight = popcount(mask) + count[KING_VALUE]
        need_bits = sum(1 << w for w, _ in need)
        lone_pairs: list[tuple[int, int, int]] = []
        for a, b in pairs:
            if count[values[b]] == 1:
                lone_pairs.append((a, b, values[b]))
            if count[values[a]] == 1:
                lone_pairs.append((b, a, values[a]))
        got = _MaskInfo(
            king, pairs, partners, h, need, wanted, talon_moves, caps, dead, weight, need_bits,
            lone_pairs, len(self.info_cache), {}, {},
            [None] * (SIZE + len(pairs)),
        )
        self.info_cache[mask_key(mask)] = got
        return got

    def heuristic(self, mask: int, tal: i64, p: i64) -> int:
        """Admissible bound on the steps left (never more than them); -1 when provably lost.

        Not necessarily consistent (``pool_steps`` may drop by more than one step along an
        edge): the search re-expands a state reached again by a shorter path, so its answer
        stays shortest anyway.

        Pyramid steps (``info.h``) plus a bound on the draws. A stock card can only be
        removed after it is drawn, and every stock card before it in this pass is drawn too.
        For each value w that ``need`` asks for, the talon cards of value w still missing from
        the waste must be drawn: at least one draw each (summed over values), and reaching
        the m-th of them in the stock takes as many draws as its rank there (max over
        values). A draw lowers either draw term by at most one; removals leave them
        unchanged or raise them.

        The pyramid steps are taken as ``pool_steps`` with the values left in the talon
        (at least ``info.h``; usually cached, as the pop-time bound asks for the same): every
        solution's removals are a pool solution, and draws come on top of them. This
        tighter push-time bound spares many costly pop-time evaluations.
        """
        info = self.info_of(mask)
        t0, t1, t2 = self.vtab  # values_of(tal) inlined: this runs for every child
        vset = (t0[tal & 255] | t1[tal >> 8 & 255] | t2[tal >> 16]) & info.wanted
        steps = info.pool.get(vset) if mask else 0
        if steps is None:
            steps = self.pool_steps(mask, vset)
        self.last_steps = steps
        if steps >= BIG:
            return -1
        low = tal & ((1 << p) - 1)
        top_dead = bit_length(low & info.dead)
        buried = low & ((1 << top_dead) - 1)  # under a dead card: only after a recycle
        # Talon cards the pyramid takes (``talon_used``), each drawn once unless it is a
        # waste card above the buried ones.
        used: i64 = 2 * steps - info.weight - popcount(low ^ buried)
        if not info.need:
            return steps + used if used > 0 else steps
        stock = tal ^ low
        vb = self.value_bits
        total: i64 = 0
        far: i64 = 0
        for w, e in info.need:
            bits: i64 = tal & vb[w]
            if popcount(bits) < e:
                return -1
            missing = e - popcount(bits & ~buried & ~stock)
            if missing > 0:
                total += missing
                sb = stock & bits
                n_stock = popcount(sb)
                if n_stock >= missing:
                    for _ in range(missing - 1):
                        sb &= sb - 1
                    rank = popcount(stock & (((sb & -sb) << 1) - 1))
                else:
                    # Draw the whole stock, recycle, then reach the buried cards.
                    bb = buried & bits
                    for _ in range(missing - n_stock - 1):
                        bb &= bb - 1
                    rank = (
                        popcount(stock) + 1 + popcount(buried & (((bb & -bb) << 1) - 1))
                    )
                if rank > far:
                    far = rank
        if total > far:
            far = total
        return steps + (far if far > used else used)

    def pool_steps(self, mask: int, vset: int) -> int:
        """Fewest steps to clear ``mask`` when talon cards of the values in ``vset`` are an
        unlimited pool (BIG when impossible). A relaxation: exact pyramid, free talon."""
        if mask == 0:
            return 0
        info = self.memo_info if mask == self.memo_mask else (
            self.info_cache.get(mask_key(mask)) or self.info(mask)
        )
        return self.pool_in(info, mask, vset)

    def kid(self, info: _MaskInfo, k: int, child: int) -> _MaskInfo:
        """The info of ``child``, the mask of ``info`` less the card at place ``k`` (or
        less the pair ``info.pairs[k - SIZE]``), kept in ``info.kids``: the recursions of
        the pool bounds go from a mask to its children again and again, and a list read is
        cheaper than boxing the child's mask and looking it up in ``info_cache``."""
        got = info.kids[k]
        if got is None:
            got = self.info_cache.get(mask_key(child)) or self.info(child)
            info.kids[k] = got
        return got

    def pool_in(self, info: _MaskInfo, mask: int, vset: int) -> int:
        """``pool_steps`` of a mask other than 0, its info given."""
        # Only values some card of the mask pairs with matter (for it and its submasks), so
        # the key keeps just those: more cache hits.
        vset &= info.wanted
        got = info.pool.get(vset)
        if got is not None:
            return got
        if info.king >= 0:
            child = mask & ~(1 << info.king)
            best = 1 + (self.pool_in(self.kid(info, info.king, child), child, vset) if child else 0)
        elif info.need_bits & ~vset:
            best = BIG  # a surplus of some value needs talon partners the pool lacks
        else:
            # The least of 1 + pool_steps(child) over the pairs of pyramid cards, then the
            # cards pairing with a pool value; once it reaches the floor ``info.h`` (a lower
            # bound) no child can do better. Inlined: the hottest recursion of small solves.
            best = BIG
            floor = info.h
            k = SIZE
            for a, b in info.pairs:
                child = mask & ~(1 << a) & ~(1 << b)
                s = 1 + (self.pool_in(self.kid(info, k, child), child, vset) if child else 0)
                k += 1
                if s < best:
                    best = s
                    if s <= floor:
                        break
            if best > floor:
                partners = info.partners
                v = vset
                while v:
                    bit = v & -v
                    v ^= bit
                    for i in partners[bit_length(bit) - 1]:
                        child = mask & ~(1 << i)
                        s = 1 + (
                            self.pool_in(self.kid(info, i, child), child, vset) if child else 0
                        )
                        if s < best:
                            best = s
                    if best <= floor:
                        break
        info.pool[vset] = best
        return best

    def two_phase(self, mask: int, va: int, vb: int) -> int:
        """Fewest steps to clear ``mask`` in two phases: first with an unlimited pool of the
        talon values ``va``, then with one of the values ``vb`` (BIG when impossible). A
        relaxation of "use cards of this pass, recycle, use cards of the next pass"."""
        if mask == 0:
            return 0
        info = self.memo_info if mask == self.memo_mask else (
            self.info_cache.get(mask_key(mask)) or self.info(mask)
        )
        return self.phase_in(info, mask, va, vb)

    def phase_in(self, info: _MaskInfo, mask: int, va: int, vb: int) -> int:
        """``two_phase`` of a mask other than 0, its info given."""
        wanted = info.wanted
        va &= wanted
        vb &= wanted
        # When one pool holds the other, every move of the smaller phase fits in the larger.
        if not va & ~vb:
            return self.pool_in(info, mask, vb)
        if not vb & ~va:
            return self.pool_in(info, mask, va)
        key = va | vb << 14
        got = info.phase.get(key)
        if got is not None:
            return got
        if info.king >= 0:
            child = mask & ~(1 << info.king)
            best = 1 + (self.phase_in(self.kid(info, info.king, child), child, va, vb)
                        if child else 0)
        else:
            # Both pools at once is a relaxation of the two phases: a tighter floor.
            floor = max(info.h, self.pool_in(info, mask, va | vb))
            best = self.pool_in(info, mask, vb)
            # The least of 1 + two_phase(child), as in ``pool_steps`` (first-phase moves).
            if best > floor:
                k = SIZE
                for a, b in info.pairs:
                    child = mask & ~(1 << a) & ~(1 << b)
                    s = 1 + (self.phase_in(self.kid(info, k, child), child, va, vb)
                             if child else 0)
                    k += 1
                    if s < best:
                        best = s
                        if s <= floor:
                            break
            if best > floor:
                partners = info.partners
                v = va
                while v:
                    bit = v & -v
                    v ^= bit
                    for i in partners[bit_length(bit) - 1]:
                        child = mask & ~(1 << i)
                        s = 1 + (self.phase_in(self.kid(info, i, child), child, va, vb)
                                 if child else 0)
                        if s < best:
                            best = s
                    if best <= floor:
                        break
        info.phase[key] = best
        return best

    def pass_bound(
        self, mask: int, base: i64, order: i64, floor: int, best: int, va: int = -1,
        reach: i64 = -1, again: bool = False,
    ) -> int:
        """min(best, min over R of R + self.pool_steps(mask, values of ``base`` and of the first R
        cards of ``order``)), ``order`` taken by increasing talon index. A term only counts
        once those cards hold enough of each value ``need`` asks for.

        With ``va`` >= 0 (the pass after a recycle, ``base`` = the cards the pass before it
        could use, whose values are ``va``): min over R of R' + self.two_phase(mask, va, values of
        the first R cards of ``order``), where R' counts only cards outside ``base`` (those
        may have been removed before the recycle, so drawing them again is not charged).

        Only the positions where the pool gains a value or the last deficit is met can
        lower the minimum, so those are the only ones evaluated. With ``reach`` >= 0 (a
        position of ``order``), only R reaching it counts (``passes_needed``). With
        ``again`` the caller counts a recycle after this pass (and what follows it), so
        ``blocked_pass`` does not add one.
        """
        info = self.info_of(mask)
        wanted = info.wanted
        tvalues = self.tvalues
        vb = self.value_bits
        two = va >= 0
        room = info.weight + popcount(base)
        fresh = order & ~base
        counted = fresh if two else order
        ready: i64 = -1  # talon position from which every deficit is met
        for w, e in info.need:
            d = e - popcount(base & vb[w])
            if d > 0:
                bits: i64 = fresh & vb[w]
                if popcount(bits) < d:
                    return best
                for _ in range(d - 1):
                    bits &= bits - 1
                j = bit_length(bits & -bits) - 1
                if j > ready:
                    ready = j
        if reach > ready:
            ready = reach
        # Every term is at least the pool bound with all the values at once, plus the draws
        # needed to meet the deficits: when that cannot beat ``best``, nothing can.
        allv = self.values_of(base | order) & wanted
        floor = max(floor, self.pool_steps(mask, allv))
        if floor + (ready >= 0 and popcount(counted & ((2 << ready) - 1))) >= best:
            return best
        vset = 0 if two else self.values_of(base) & wanted
        events: i64 = 0  # talon positions, as bits: taken in increasing order, as sorted
        v: i64 = wanted & ~vset
        while v:
            bit = v & -v
            v ^= bit
            bits = order & vb[bit_length(bit) - 1]
            if bits:
                events |= bits & -bits
        if ready >= 0:
            events |= 1 << ready
        else:
            if two:
                s = redrawn(0, self.pool_steps(mask, va), room, 0, info.weight)
            else:
                s = with_draws(0, self.pool_steps(mask, vset), room)
            if s < best:
                best = s
        # Cards that no pyramid card can take bury everything drawn before them (only cards
        # surely still in the talon count).
        ok: i64 = self.usable_positions(mask, allv)
        if counted & ~ok:
            return self.blocked_pass(
                mask, order, counted, ready, floor, va if two else vset, two, room, again,
                counted & ~ok, best,
            )
        while events:
            j = bit_length(events & -events) - 1
            events &= events - 1
            vset |= (1 << tvalues[j]) & wanted
            if j < ready:
                continue
            rank = popcount(counted & ((2 << j) - 1))
            if rank + floor >= best:
                break
            if two:
                steps = (
                    self.two_phase(mask, va, vset) if vset & ~va else self.pool_steps(mask, va)
                )
                s = redrawn(rank, steps, room, popcount(order & ((2 << j) - 1)), info.weight)
            else:
                s = with_draws(rank, self.pool_steps(mask, vset), room)
            if s < best:
                best = s
        return best

    def blocked_pass(
        self, mask: int, order: i64, counted: i64, ready: i64, floor: int, first: int,
        two: bool, room: int, again: bool, blockers: i64, best: int,
    ) -> int:
        """``pass_bound`` when some cards of ``order`` (``blockers``) can never leave
        the waste in this pass: once one is drawn, the cards under it are out of reach until
        a recycle. So past a blocker the cards before it (and, with ``two``, those of
        the pass before the recycle) form a first phase, the cards after it a second one:
        R' + two_phase(first phase, second phase); the minimum with ``best`` is returned.
        The pass (``mask`` to ``again``) as ``pass_bound`` hands it over:

        - mask: the pyramid;
        - order: talon positions of the pass, drawn by increasing index;
        - counted: the cards of ``order`` whose draw is charged;
        - ready: talon position from which every deficit is met (-1: none);
        - floor: a bound no term can beat;
        - first: values of the first phase (the usable waste, or the pass before a recycle);
        - two: the pass after a recycle;
        - room: the mask's weight plus the cards of ``base``: see ``with_draws``;
        - again: the caller counts a recycle after this pass (``pass_bound``).

        Arguments, not a NamedTuple: compiled, building one is a Python call."""
        info = self.info_of(mask)
        wanted = info.wanted
        tvalues = self.tvalues
        if two:
            # A solution that recycles again is not bound by the blockers of this pass: it
            # draws every card of it, recycles, and may then use any value.
            # (the recycle is not counted twice: with ``again`` the caller counts it)
            total = popcount(counted) + (0 if again else 1)
            if total + floor < best:
                s = total + self.pool_steps(mask, self.values_of(order) & wanted)
                if s < best:
                    best = s
        before = first
        seg: i64 = 0
        split = two
        rank: i64 = 0
        every: i64 = 0
        t = order
        while t:
            b = t & -t
            t ^= b
            j = bit_length(b) - 1
            every += 1
            if b & counted:
                rank += 1
                if rank + floor >= best:
                    break
            if b & blockers:
                before |= seg
                seg = 0
                split = True
                changed = j == ready
            else:
                bit = (1 << tvalues[j]) & wanted
                changed = bool(bit & ~seg) or j == ready
                seg |= bit
            if changed and j >= ready:
                if two:
                    s = redrawn(
                        rank, self.two_phase(mask, before, seg), room, every, info.weight
                    )
                elif split:
                    s = with_draws(rank, self.two_phase(mask, before, seg), room)
                else:
                    s = with_draws(rank, self.pool_steps(mask, before | seg), room)
                if s < best:
                    best = s
        return best

    def usable_positions(self, mask: int, pool: int) -> int:
        """The talon positions holding a card of a value ``usable_values`` allows: the pass
        counter's (``PassCounter.usable_positions``)."""
        return self.counter.usable_positions(mask, pool)

    def usable_values(self, mask: int, pool: int) -> int:
        """Talon values (bits; kings always) that can pair with a card of ``mask`` once it is
        accessible, in the relaxation where ``pool`` values are unlimited
        (``pyramid_closure.usable_values``): the pass counter's, which keeps them."""
        return self.counter.usable_values(mask, pool)

    def passes_needed(self, mask: i64, tal: i64, p: i64, most: i64 = BIG) -> tuple[int, int]:
        """(S, c): every solution recycles at least S times, and if exactly S, draws at
        least up to talon position ``c`` in its last pass (c = -1: no such position). S is
        BIG when the position is lost, or needs more than ``most`` recycles.

        The waste is a stack. A pyramid card with no pyramid partner it can ever leave with
        (``pyramid_closure.forced_chain``: none outside the cards that must leave before it
        and those that must leave after it) must leave with a talon card of the partner
        value w, and only after the cards that must leave before it. Time is the draw cursor
        (pass, position of the last card drawn), which never goes back. At cursor c a card j
        of value w can be taken only if it is c, or lies below c in the waste and every card
        above it (talon positions j+1..c) leaves first; a card leaves only if
        ``usable_values`` allows its value, and each one but a king with a pyramid card of
        its own, accessible by then: not the waiting card, nor one it covers, nor one under
        a card of the chain whose cursor comes later. When that fails, the card's cursor
        moves on to the next draw of a card of value w, skipping the cursors in between,
        where the gap is larger but fewer chain cards are still to leave: so the test is
        made once for all of them, with the gap at the first and, as leaving later, only the
        chain cards whose cursor is at that next draw or after it (issue 28: reading them at
        the first cursor alone was not admissible). When every card of value w the waiting
        card could take in this pass is in the waste now, the one it takes stays there until
        it leaves, so the cards that must leave before it take talon cards above the lowest
        of them only (``pyramid_closure.window_blocked``). So each such card's earliest
        cursor is the first one, from the latest of the cards that must leave before it,
        where a card of value w is takeable; the latest of them is a lower bound on where
        every solution's cursor must get to. Cards removed meanwhile only make the talon
        smaller, which this ignores (the cards of ``tal`` between j and c count even if they
        may have gone already: they had to leave, so the conditions above hold for them all
        the same).

        ``pyramid_closure.PassCounter`` counts (in C in the compiled build: the walk, the
        chain and the windows on words on the stack, its tables in C, no Python object
        made but the answer; docs/solvers.md, "Pyramid's node").
        """
        return self.counter.passes_needed(mask, tal, p, most)

    def quick_bound(self, mask: int, tal: int, p: int, rec: int, need: int, far: int) -> int:
        """A cheap bound from ``passes_needed`` alone (BIG: lost), tried before the
        threshold bound: the pool steps with every talon value, and then, with S >= 1
        recycles, the whole stock drawn, the recycles and at least one draw after each
        (see ``redrawn``); with none, the draws up to the position the pass must reach.
        ``need`` and ``far`` are what ``passes_needed`` says of the position."""
        if need >= BIG or (self.passes is not None and need > self.passes - 1 - rec):
            return BIG
        info = self.info_of(mask)
        vset = self.values_of(tal) & info.wanted
        steps = info.pool.get(vset) if mask else 0
        if steps is None:
            steps = self.pool_steps(mask, vset)
        return self.quick_with(steps, tal, p, rec, need, far)

    def quick_with(self, steps: int, tal: int, p: int, rec: int, need: int, far: int) -> int:
        """``quick_bound`` with its pool steps given: those ``heuristic`` just read of the
        same mask and talon (``last_steps``)."""
        if need >= BIG or (self.passes is not None and need > self.passes - 1 - rec):
            return BIG
        stock = tal >> p << p
        if need:
            return steps + popcount(stock) + 2 * need
        if far >= p:
            return steps + popcount(stock & ((2 << far) - 1))
        return steps

    def threshold_bound(
        self, mask: int, tal: int, p: int, rec: int, need: int = -1, far: int = -1
    ) -> int:
        """A bound on the steps left from the pyramid and the talon order (BIG: lost).

        Without a recycle, a solution can use the top waste cards that can still leave the
        waste this pass (``PassCounter.reachable_waste``) and the stock cards up to some
        rank R, at the cost of R draws: min over R of R + pool_steps. With a recycle it
        first draws the whole stock and recycles (a first phase that may use those waste and
        stock cards), then draws again up to some talon position: the second phase only has
        the values found there, and only the cards the first phase could not have removed
        are charged (``pass_bound`` with ``two_phase``). In either pass, a drawn card that
        no pyramid card can ever take (``usable_values``) buries the cards before it, which
        splits the pass into phases too (``blocked_pass``).

        ``passes_needed`` says how many recycles every solution makes (S) and how far its
        last pass draws: with S >= 1 the first case goes, with S >= 2 the pass after the
        first recycle is drawn to its end and followed by S - 1 more recycles, each with at
        least one draw after it (see ``redrawn``), and R never stops short of the position
        the last pass must reach. The caller may pass what ``passes_needed`` says of the
        position (``need`` >= 0, ``far``) when it has it.
        """
        info = self.info_of(mask)
        wanted = info.wanted
        floor = info.h
        low = tal & ((1 << p) - 1)
        stock = tal ^ low
        if need < 0:
            need, far = self.passes_needed(mask, tal, p)
        if need >= BIG:
            return BIG
        if self.passes is not None and need > self.passes - 1 - rec:
            return BIG
        free = self.counter.reachable_waste(mask, low, self.values_of(stock))
        best = BIG
        if need == 0:
            reach = -1
            if far >= p:
                reach = bit_length(stock & ((2 << far) - 1)) - 1
            best = self.pass_bound(mask, free, stock, floor, BIG, -1, reach)
        if may_recycle(self.passes, rec):
            draws = popcount(stock) + 1
            reach = -1
            if need >= 2:
                # The pass after the first recycle ends in another, so it is drawn to its
                # end; then the other recycles, and the passes after them draw at least
                # one card each, and every card that stays in the talon for good.
                reach = bit_length(tal) - 1
                draws += need - 1
                draws += max(1, self.counter.staying(mask, tal, far))
                draws += (need - 2) * max(1, self.counter.staying(mask, tal, reach))
            elif need == 1:
                reach = bit_length(tal & ((2 << far) - 1)) - 1
            if draws + floor < best:
                base = free | stock
                va = self.values_of(base) & wanted
                best = draws + self.pass_bound(
                    mask, base, tal, floor, best - draws, va, reach, need >= 2
                )
        return best
