"""Pyramid solver: an exact verdict and a solution of the fewest steps (RULES.md, Pyramid).

Two phases, then a fallback.

1. **Pool search** (winnability under unlimited recycles). With unlimited recycles any card
   left in the stock or waste can be brought to the waste top, so the order of those cards
   does not matter: the abstract state is the pyramid mask plus how many talon cards of each
   value remain. A depth-first search with a table of dead states decides it exactly. It is
   the verdict for the relaxed variant and a quick proof of loss for ``passes=N`` (fewer
   passes can only lose more).
2. **A\\*** for the shortest solution on the real order. The talon (stock and waste) is one
   cyclic sequence: waste bottom to top, then the stock in drawing order. Removing a card
   from it never reorders the rest, so a position is the pyramid mask, the set of talon
   cards removed, the waste-top position and (for ``passes=N``) the recycles used. Edges are
   macro moves: a pair or king of pyramid cards (1 step), or "draw/recycle until talon card
   ``j`` is the waste top, then remove it" (1 step plus the draws and recycles). Draws only
   ever serve to expose a card that is then removed, and pyramid moves do not depend on the
   talon, so any solution maps onto a macro path no longer than itself: shortest macro path =
   shortest solution. The bounds (``heuristic``, evaluated at each push, and the costlier
   ``threshold_bound``, evaluated lazily at each pop) are admissible (the tests check them
   against a naive breadth-first search) and prove positions lost when no pool can clear
   the pyramid. A state found again by a shorter path is expanded again, so the answer
   stays shortest even where the bounds are not consistent. Ties on f go to the deeper
   node.
3. If A* runs out of budget on a deal the pool search proved winnable, the pool plan is
   played on the real talon (nearest card of each wanted value): a verified win that is not
   necessarily shortest (``stats["optimal"]`` is False). With a pass limit that plan may not
   fit, and the answer stays ``unknown``.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from typing import Any

from dailydeal import cards as C
from dailydeal.games import Game
from dailydeal.games.pyramid import COVERS, SIZE, King, Pair, Pyramid
from dailydeal.solvers.base import LOST, UNKNOWN, WON, Budget, SolveResult

KING_VALUE = C.KING
# Bits of the places covering each place (0 for the bottom row).
COVER_MASK = tuple(sum(1 << c for c in COVERS[i]) for i in range(SIZE))


def _blockers() -> tuple[int, ...]:
    """Bits of every place that must leave before each place is accessible (the covering
    cards, theirs, and so on)."""
    below = [0] * SIZE
    for i in reversed(range(SIZE)):
        for c in COVERS[i]:
            below[i] |= 1 << c | below[c]
    return tuple(below)


BLOCKERS = _blockers()

# State packing for A*: pyramid mask (28 bits) | talon mask << 28 | waste pointer << 52 |
# recycles used << 58. The waste pointer is (index of the waste top) + 1, 0 for an empty waste.
TAL_SHIFT, P_SHIFT, REC_SHIFT = 28, 52, 58
PYR_BITS = (1 << TAL_SHIFT) - 1
TAL_BITS = (1 << 24) - 1
P_BITS = 63

# Edge kinds, for rebuilding the move list.
E_PAIR, E_KING, E_TALON = 0, 1, 2
BIG = 1 << 20  # "impossible" for step counts
KING_BIT = 1 << KING_VALUE


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
    caps: list[int]  # caps[w]: cards of the mask a talon card of value w can pair with
    dead: int  # talon positions of cards no card of the mask pairs with (kings excepted)


class _Solver:
    def __init__(self, game: Pyramid, budget: Budget) -> None:
        self.budget = budget
        self.nodes = 0
        self.cards: list[int] = list(game.cards[:SIZE])
        self.values = [C.value(c) for c in self.cards]
        self.mask0 = sum(1 << i for i, c in enumerate(game.pyramid) if c is not None)
        # The talon as one cyclic order: waste bottom..top, then the stock in drawing order.
        self.talon: list[int] = list(game.waste) + game.stock[::-1]
        self.tvalues = [C.value(c) for c in self.talon]
        self.n = len(self.talon)
        self.tal0 = (1 << self.n) - 1
        self.p0 = len(game.waste)
        passes = game.PASSES
        self.max_rec: int | None = None if passes is None else passes - 1
        self.rec0 = game.recycles if passes is not None else 0
        # value_bits[w]: talon positions holding a card of value w.
        self.value_bits = [0] * 14
        self.vbit = [1 << v for v in self.tvalues]
        for j, v in enumerate(self.tvalues):
            self.value_bits[v] |= 1 << j
        # vtab[k][x]: the values (as bits) of the talon cards at positions 8k..8k+7 in x.
        self.vtab = [[0] * 256 for _ in range(3)]
        for k in range(3):
            for x in range(256):
                for i in range(8):
                    if x >> i & 1 and 8 * k + i < self.n:
                        self.vtab[k][x] |= self.vbit[8 * k + i]
        self.info_cache: dict[int, _MaskInfo] = {}
        self.pool_cache: dict[int, int] = {}
        self.phase_cache: dict[int, int] = {}
        self.usable_cache: dict[int, int] = {}
        self.usable_pos_cache: dict[int, int] = {}
        self.plan: list[tuple[int, int, int]] = []  # the pool search's winning plan

    # --- pyramid masks --------------------------------------------------------------
    def values_of(self, talon_set: int) -> int:
        """The values (as bits) of the talon cards in a set of positions."""
        t0, t1, t2 = self.vtab
        return t0[talon_set & 255] | t1[talon_set >> 8 & 255] | t2[talon_set >> 16]

    def info(self, mask: int) -> _MaskInfo:
        """Moves and bounds of a pyramid mask.

        Lower bound: a step removes at most one pyramid card of any one value and touches only
        one value class {v, 13-v}, so the pyramid needs at least (kings) + sum over the six
        classes of max(#v, #(13-v)) steps. If #v > #(13-v), at least the excess of v-cards
        must pair with talon cards of value 13-v (``need``).
        """
        got = self.info_cache.get(mask)
        if got is not None:
            return got
        values = self.values
        acc = [i for i in range(SIZE) if mask >> i & 1 and not mask & COVER_MASK[i]]
        king = next((i for i in acc if values[i] == KING_VALUE), -1)
        pairs = [
            (a, b) for n, a in enumerate(acc) for b in acc[n + 1 :] if values[a] + values[b] == 13
        ]
        partners: list[list[int]] = [[] for _ in range(14)]
        for i in acc:
            if values[i] != KING_VALUE:
                partners[13 - values[i]].append(i)
        count = [0] * 14
        for i in range(SIZE):
            if mask >> i & 1:
                count[values[i]] += 1
        h = count[KING_VALUE]
        need: list[tuple[int, int]] = []
        for v in range(1, 7):
            a, b = count[v], count[13 - v]
            h += max(a, b)
            if a > b:
                need.append((13 - v, a - b))
            elif b > a:
                need.append((v, b - a))
        wanted = sum(1 << (13 - v) for v in range(1, 13) if count[v])
        talon_moves = [(w, partners[w]) for w in range(1, 13) if partners[w]]
        talon_moves.append((KING_VALUE, [-1]))
        dead = 0
        for w in range(1, 13):
            if not wanted >> w & 1:
                dead |= self.value_bits[w]
        caps = [0] + [count[13 - w] for w in range(1, 13)] + [SIZE]
        got = _MaskInfo(king, pairs, partners, h, need, wanted, talon_moves, caps, dead)
        self.info_cache[mask] = got
        return got

    # --- phase 1: the pool search ---------------------------------------------------
    def pool_winnable(self) -> bool | None:
        """Winnable with unlimited recycles? None when the budget ran out."""
        counts = 0  # 4 bits per value: talon cards of that value remaining
        for v in self.tvalues:
            counts += 1 << (4 * v)
        dead: set[int] = set()
        self.plan = []
        try:
            won = self._pool(self.mask0, counts, dead)
        except _OutOfBudget:
            return None
        self.plan.reverse()
        return won

    def _pool(self, mask: int, counts: int, dead: set[int]) -> bool:
        if mask == 0:
            return True
        key = mask | counts << TAL_SHIFT
        if key in dead:
            return False
        self.nodes += 1
        if self.budget.spent(self.nodes):
            raise _OutOfBudget
        info = self.info(mask)
        for w, e in info.need:
            if counts >> (4 * w) & 15 < e:
                dead.add(key)
                return False
        plan = self.plan
        if info.king >= 0:
            if self._pool(mask & ~(1 << info.king), counts, dead):
                plan.append((E_KING, info.king, -1))
                return True
            dead.add(key)
            return False
        for a, b in info.pairs:
            if self._pool(mask & ~(1 << a) & ~(1 << b), counts, dead):
                plan.append((E_PAIR, a, b))
                return True
        for w in range(1, 13):
            if counts >> (4 * w) & 15:
                for i in info.partners[w]:
                    if self._pool(mask & ~(1 << i), counts - (1 << (4 * w)), dead):
                        plan.append((E_TALON, w, i))
                        return True
        dead.add(key)
        return False

    # --- phase 2: A* ----------------------------------------------------------------
    def heuristic(self, mask: int, tal: int, p: int) -> int:
        """Admissible, consistent bound on the steps left; -1 when provably lost.

        Pyramid steps (``info.h``) plus a bound on the draws. A stock card can only be
        removed after it is drawn, and every stock card before it in this pass is drawn too.
        For each value w that ``need`` asks for, the talon cards of value w still missing from
        the waste must be drawn: at least one draw each (summed over values), and reaching
        the m-th of them in the stock takes as many draws as its rank there (max over
        values). A draw lowers either term by at most one; removals leave them unchanged
        or raise them.

        The pyramid steps are taken as ``pool_steps`` with the values left in the talon
        (at least ``info.h``; usually cached, as the pop-time bound asks for the same): every
        solution's removals are a pool solution, and draws come on top of them. This
        tighter push-time bound spares many costly pop-time evaluations.
        """
        info = self.info_cache.get(mask) or self.info(mask)
        steps = self.pool_steps(mask, self.values_of(tal) & info.wanted)
        if steps >= BIG:
            return -1
        if not info.need:
            return steps
        low = tal & ((1 << p) - 1)
        stock = tal ^ low
        top_dead = (low & info.dead).bit_length()
        buried = low & ((1 << top_dead) - 1)  # under a dead card: only after a recycle
        vb = self.value_bits
        total = 0
        far = 0
        for w, e in info.need:
            bits = tal & vb[w]
            if bits.bit_count() < e:
                return -1
            missing = e - (bits & ~buried & ~stock).bit_count()
            if missing > 0:
                total += missing
                sb = stock & bits
                n_stock = sb.bit_count()
                if n_stock >= missing:
                    for _ in range(missing - 1):
                        sb &= sb - 1
                    rank = (stock & (((sb & -sb) << 1) - 1)).bit_count()
                else:
                    # Draw the whole stock, recycle, then reach the buried cards.
                    bb = buried & bits
                    for _ in range(missing - n_stock - 1):
                        bb &= bb - 1
                    rank = (
                        stock.bit_count() + 1 + (buried & (((bb & -bb) << 1) - 1)).bit_count()
                    )
                if rank > far:
                    far = rank
        return steps + (far if far > total else total)

    def pool_steps(self, mask: int, vset: int) -> int:
        """Fewest steps to clear ``mask`` when talon cards of the values in ``vset`` are an
        unlimited pool (BIG when impossible). A relaxation: exact pyramid, free talon."""
        if mask == 0:
            return 0
        info = self.info_cache.get(mask) or self.info(mask)
        # Only values some card of the mask pairs with matter (for it and its submasks), so
        # the key keeps just those: more cache hits.
        vset &= info.wanted
        key = mask | vset << TAL_SHIFT
        got = self.pool_cache.get(key)
        if got is not None:
            return got
        if info.king >= 0:
            best = 1 + self.pool_steps(mask & ~(1 << info.king), vset)
        elif any(not vset >> w & 1 for w, _ in info.need):
            best = BIG  # a surplus of some value needs talon partners the pool lacks
        else:
            best = BIG
            floor = info.h
            for a, b in info.pairs:
                s = 1 + self.pool_steps(mask & ~(1 << a) & ~(1 << b), vset)
                if s < best:
                    best = s
                    if best <= floor:
                        break
            if best > floor:
                partners = info.partners
                v = vset & info.wanted
                while v and best > floor:
                    bit = v & -v
                    v ^= bit
                    for i in partners[bit.bit_length() - 1]:
                        s = 1 + self.pool_steps(mask & ~(1 << i), vset)
                        if s < best:
                            best = s
        self.pool_cache[key] = best
        return best

    def two_phase(self, mask: int, va: int, vb: int) -> int:
        """Fewest steps to clear ``mask`` in two phases: first with an unlimited pool of the
        talon values ``va``, then with one of the values ``vb`` (BIG when impossible). A
        relaxation of "use cards of this pass, recycle, use cards of the next pass"."""
        if mask == 0:
            return 0
        wanted = self.info(mask).wanted
        va &= wanted
        vb &= wanted
        # When one pool holds the other, every move of the smaller phase fits in the larger.
        if not va & ~vb:
            return self.pool_steps(mask, vb)
        if not vb & ~va:
            return self.pool_steps(mask, va)
        key = mask | va << TAL_SHIFT | vb << (TAL_SHIFT + 14)
        got = self.phase_cache.get(key)
        if got is not None:
            return got
        info = self.info(mask)
        if info.king >= 0:
            best = 1 + self.two_phase(mask & ~(1 << info.king), va, vb)
        else:
            best = self.pool_steps(mask, vb)
            # Both pools at once is a relaxation of the two phases: a tighter floor.
            floor = max(info.h, self.pool_steps(mask, va | vb))
            if best > floor:
                for a, b in info.pairs:
                    s = 1 + self.two_phase(mask & ~(1 << a) & ~(1 << b), va, vb)
                    if s < best:
                        best = s
                        if best <= floor:
                            break
            if best > floor:
                partners = info.partners
                v = va & info.wanted
                while v and best > floor:
                    bit = v & -v
                    v ^= bit
                    for i in partners[bit.bit_length() - 1]:
                        s = 1 + self.two_phase(mask & ~(1 << i), va, vb)
                        if s < best:
                            best = s
        self.phase_cache[key] = best
        return best

    def pass_bound(
        self, mask: int, base: int, order: int, floor: int, best: int, va: int = -1
    ) -> int:
        """min(best, min over R of R + pool_steps(mask, values of ``base`` and of the first R
        cards of ``order``)), ``order`` taken by increasing talon index. A term only counts
        once those cards hold enough of each value ``need`` asks for.

        With ``va`` >= 0 (the pass after a recycle, ``base`` = the cards the pass before it
        could use, whose values are ``va``): min over R of R' + two_phase(mask, va, values of
        the first R cards of ``order``), where R' counts only cards outside ``base`` (those
        may have been removed before the recycle, so drawing them again is not charged).

        Only the positions where the pool gains a value or the last deficit is met can
        lower the minimum, so those are the only ones evaluated.
        """
        info = self.info(mask)
        wanted = info.wanted
        tvalues = self.tvalues
        vb = self.value_bits
        two = va >= 0
        fresh = order & ~base
        counted = fresh if two else order
        ready = -1  # talon position from which every deficit is met
        for w, e in info.need:
            d = e - (base & vb[w]).bit_count()
            if d > 0:
                bits = fresh & vb[w]
                if bits.bit_count() < d:
                    return best
                for _ in range(d - 1):
                    bits &= bits - 1
                j = (bits & -bits).bit_length() - 1
                if j > ready:
                    ready = j
        # Every term is at least the pool bound with all the values at once, plus the draws
        # needed to meet the deficits: when that cannot beat ``best``, nothing can.
        allv = self.values_of(base | order) & wanted
        floor = max(floor, self.pool_steps(mask, allv))
        if floor + (ready >= 0 and (counted & ((2 << ready) - 1)).bit_count()) >= best:
            return best
        vset = 0 if two else self.values_of(base) & wanted
        events = []
        v = wanted & ~vset
        while v:
            bit = v & -v
            v ^= bit
            bits = order & vb[bit.bit_length() - 1]
            if bits:
                events.append((bits & -bits).bit_length() - 1)
        if ready >= 0:
            events.append(ready)
        else:
            s = self.pool_steps(mask, va if two else vset)
            if s < best:
                best = s
        # Cards that no pyramid card can take bury everything drawn before them (only cards
        # surely still in the talon count).
        ok = self.usable_positions(mask, allv)
        if counted & ~ok:
            return self.blocked_pass(
                mask, order, counted, counted & ~ok, ready, floor, best, va if two else vset, two
            )
        events.sort()
        for j in events:
            vset |= (1 << tvalues[j]) & wanted
            if j < ready:
                continue
            rank = (counted & ((2 << j) - 1)).bit_count()
            if rank + floor >= best:
                break
            if two:
                s = rank + (
                    self.two_phase(mask, va, vset) if vset & ~va else self.pool_steps(mask, va)
                )
            else:
                s = rank + self.pool_steps(mask, vset)
            if s < best:
                best = s
        return best

    def blocked_pass(
        self,
        mask: int,
        order: int,
        counted: int,
        blockers: int,
        ready: int,
        floor: int,
        best: int,
        first: int,
        two: bool,
    ) -> int:
        """``pass_bound`` when some cards of ``order`` (``blockers``) can never leave the
        waste in this pass: once one is drawn, the cards under it are out of reach until a
        recycle. So past a blocker the cards before it (and, with ``two``, those of the
        pass before the recycle) form a first phase, the cards after it a second one:
        R' + two_phase(first phase, second phase). ``first``: the values of the usable
        waste, or with ``two`` those of the pass before the recycle."""
        info = self.info(mask)
        wanted = info.wanted
        tvalues = self.tvalues
        if two:
            # A solution that recycles again is not bound by the blockers of this pass: it
            # draws every card of it, recycles, and may then use any value.
            total = counted.bit_count() + 1
            if total + floor < best:
                s = total + self.pool_steps(mask, self.values_of(order) & wanted)
                if s < best:
                    best = s
        before = first
        seg = 0
        split = two
        rank = 0
        t = order
        while t:
            b = t & -t
            t ^= b
            j = b.bit_length() - 1
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
                if split:
                    s = rank + self.two_phase(mask, before, seg)
                else:
                    s = rank + self.pool_steps(mask, before | seg)
                if s < best:
                    best = s
        return best

    def usable_positions(self, mask: int, pool: int) -> int:
        """The talon positions holding a card of a value ``usable_values`` allows."""
        key = mask | pool << TAL_SHIFT
        got = self.usable_pos_cache.get(key)
        if got is None:
            usable = self.usable_values(mask, pool)
            got = 0
            for w in range(1, 14):
                if usable >> w & 1:
                    got |= self.value_bits[w]
            self.usable_pos_cache[key] = got
        return got

    def usable_values(self, mask: int, pool: int) -> int:
        """Talon values (bits; kings always) that can pair with a card of ``mask`` once it is
        accessible, in the relaxation where ``pool`` values are unlimited and a pyramid card
        may pair with any other that can become accessible with it: a card can leave when
        its blockers can, and it is a king, its partner value is in ``pool``, or a partner
        card in the pyramid can be accessible with it. Over-approximates what a real play
        can reach, so every talon value it leaves out really has no usable partner."""
        key = mask | pool << TAL_SHIFT
        got = self.usable_cache.get(key)
        if got is not None:
            return got
        values = self.values
        places = [i for i in range(SIZE) if mask >> i & 1]
        places.reverse()
        gone = ~mask  # places that can leave (or are gone)
        changed = True
        while changed:
            changed = False
            for i in places:
                if gone >> i & 1 or BLOCKERS[i] & ~gone:
                    continue
                v = values[i]
                ok = v == KING_VALUE or pool >> (13 - v) & 1
                if not ok:
                    for j in places:
                        if (
                            values[j] + v == 13
                            and not BLOCKERS[j] & ~gone
                            and not BLOCKERS[i] >> j & 1
                            and not BLOCKERS[j] >> i & 1
                        ):
                            ok = True
                            break
                if ok:
                    gone |= 1 << i
                    changed = True
        got = KING_BIT
        for i in places:
            if not BLOCKERS[i] & ~gone and values[i] != KING_VALUE:
                got |= 1 << (13 - values[i])
        self.usable_cache[key] = got
        return got

    def reachable_waste(self, info: _MaskInfo, mask: int, low: int, pool: int) -> int:
        """The waste cards (positions in ``low``) that can still be used before the next
        recycle, with the values ``pool`` from the stock: the top ones, down to the first
        that can never leave the waste this pass. Cards are used top first, each (kings
        aside) with its own pyramid partner, so the run stops at a card that needs more
        partners of its value than the pyramid holds, or whose partners cannot become
        accessible even with the cards above it in the pool (``usable_values``)."""
        caps = info.caps
        tvalues = self.tvalues
        wanted = info.wanted
        pool &= wanted
        usable = self.usable_values(mask, pool)
        used = [0] * 14
        t = low
        while t:
            j = t.bit_length() - 1
            w = tvalues[j]
            if used[w] == caps[w] or not usable >> w & 1:
                return low >> (j + 1) << (j + 1)
            used[w] += 1
            t ^= 1 << j
            bit = 1 << w & wanted
            if bit & ~pool:
                pool |= bit
                usable = self.usable_values(mask, pool)
        return low

    def threshold_bound(self, mask: int, tal: int, p: int, rec: int) -> int:
        """A bound on the steps left from the pyramid and the talon order (BIG: lost).

        Without a recycle, a solution can use the top waste cards that can still leave the
        waste this pass (``reachable_waste``) and the stock cards up to some rank R, at the
        cost of R draws: min over R of R + pool_steps. With a recycle it first draws the
        whole stock and recycles (a first phase that may use those waste and stock cards),
        then draws again up to some talon position: the second phase only has the values
        found there, and only the cards the first phase could not have removed are charged
        (``pass_bound`` with ``two_phase``). In either pass, a drawn card that no pyramid
        card can ever take (``usable_values``) buries the cards before it, which splits the
        pass into phases too (``blocked_pass``).
        """
        info = self.info(mask)
        wanted = info.wanted
        floor = info.h
        low = tal & ((1 << p) - 1)
        stock = tal ^ low
        free = self.reachable_waste(info, mask, low, self.values_of(stock))
        best = self.pass_bound(mask, free, stock, floor, BIG)
        if self.max_rec is None or rec < self.max_rec:
            draws = stock.bit_count() + 1
            if draws + floor < best:
                base = free | stock
                va = self.values_of(base) & wanted
                best = draws + self.pass_bound(mask, base, tal, floor, best - draws, va)
        return best

    def astar(self) -> tuple[str, list[tuple[int, int, int, int]]]:
        """(status, path of (parent state, kind, a, b) edges) from the start position."""
        max_rec = self.max_rec
        start = self.mask0 | self.tal0 << TAL_SHIFT | self.p0 << P_SHIFT | self.rec0 << REC_SHIFT
        h0 = self.heuristic(self.mask0, self.tal0, self.p0)
        if h0 < 0:
            return LOST, []
        best: dict[int, int] = {start: 0}
        parent: dict[int, tuple[int, int, int, int]] = {}
        # g at which each state was expanded (-1: proved lost). A state found again with a
        # smaller g is expanded again, so A* stays exact even where the bounds are not
        # consistent.
        closed: dict[int, int] = {}
        closed_get = closed.get
        # Entries (priority, state, g, h known to be full). Priority: f first, then deeper
        # nodes first (nearer a goal when h is tight). Children are pushed with the cheap
        # bound; the threshold bound (costlier) is only computed when a node is popped, and
        # the node goes back with the larger f if it rises (lazy evaluation keeps A* exact).
        heap: list[tuple[int, int, int, bool]] = [(h0 << 13, start, 0, False)]
        budget = self.budget
        info_of = self.info
        heuristic = self.heuristic
        threshold = self.threshold_bound
        push = heapq.heappush
        pop = heapq.heappop
        best_get = best.get
        value_bits = self.value_bits
        while heap:
            prio, state, g, full = pop(heap)
            if g > best[state] or closed_get(state, BIG) <= g:
                continue
            mask = state & PYR_BITS
            if mask == 0:
                return WON, self._path(state, parent)
            if not full:
                f = (prio + g) >> 13
                h = threshold(
                    mask, state >> TAL_SHIFT & TAL_BITS, state >> P_SHIFT & P_BITS,
                    state >> REC_SHIFT,
                )
                if h >= BIG:
                    closed[state] = -1
                    continue
                if g + h > f:
                    push(heap, (((g + h) << 13) - g, state, g, True))
                    continue
            closed[state] = g
            self.nodes += 1
            if budget.spent(self.nodes):
                return UNKNOWN, []
            tal = state >> TAL_SHIFT & TAL_BITS
            p = state >> P_SHIFT & P_BITS
            rec = state >> REC_SHIFT
            info = info_of(mask)
            if info.king >= 0:
                # Removing an accessible pyramid king at once is never worse: it must go
                # anyway, stays accessible, and removing it only uncovers cards.
                edges = [(state & ~(1 << info.king), 1, E_KING, info.king, -1)]
            else:
                edges = [
                    (state & ~(1 << a) & ~(1 << b), 1, E_PAIR, a, b) for a, b in info.pairs
                ]
                top = (tal & ((1 << p) - 1)).bit_length() - 1
                stock_left = (tal >> p).bit_count()
                for w, places in info.talon_moves:
                    t = tal & value_bits[w]
                    while t:
                        lowbit = t & -t
                        t ^= lowbit
                        j = lowbit.bit_length() - 1
                        below = tal & (lowbit - 1)
                        if j == top:
                            cost, nrec = 1, rec
                        elif j > top:
                            cost, nrec = 2 + (below >> p).bit_count(), rec
                        else:
                            if max_rec is not None and rec >= max_rec:
                                continue
                            cost = 3 + stock_left + below.bit_count()
                            nrec = rec + 1 if max_rec is not None else rec
                        nhigh = (
                            (tal ^ lowbit) << TAL_SHIFT
                            | below.bit_length() << P_SHIFT
                            | nrec << REC_SHIFT
                        )
                        for i in places:
                            edges.append(
                                (nhigh | (mask if i < 0 else mask & ~(1 << i)), cost, E_TALON, j, i)
                            )
            for child, cost, kind, a, b in edges:
                ng = g + cost
                old = best_get(child)
                if old is not None and old <= ng:
                    continue
                ch = heuristic(child & PYR_BITS, child >> TAL_SHIFT & TAL_BITS,
                               child >> P_SHIFT & P_BITS)
                if ch < 0:
                    continue
                best[child] = ng
                parent[child] = (state, kind, a, b)
                push(heap, (((ng + ch) << 13) - ng, child, ng, False))
        return LOST, []

    def plan_path(self) -> list[tuple[int, int, int, int]] | None:
        """The pool plan played on the real talon: for each talon value, the nearest card
        of that value in drawing order. A valid, usually not shortest, solution; None when
        the pass limit does not allow it."""
        mask, tal, p, rec = self.mask0, self.tal0, self.p0, self.rec0
        vb = self.value_bits
        path: list[tuple[int, int, int, int]] = []
        for kind, a, b in self.plan:
            state = mask | tal << TAL_SHIFT | p << P_SHIFT | rec << REC_SHIFT
            if kind == E_KING:
                mask &= ~(1 << a)
                path.append((state, E_KING, a, -1))
            elif kind == E_PAIR:
                mask &= ~(1 << a) & ~(1 << b)
                path.append((state, E_PAIR, a, b))
            else:
                cards = tal & vb[a]
                top = (tal & ((1 << p) - 1)).bit_length() - 1
                if top >= 0 and cards >> top & 1:
                    j = top
                elif cards >> p:
                    ahead = cards >> p << p
                    j = (ahead & -ahead).bit_length() - 1
                else:
                    if self.max_rec is not None and rec >= self.max_rec:
                        return None
                    j = (cards & -cards).bit_length() - 1
                    if self.max_rec is not None:
                        rec += 1
                mask &= ~(1 << b)
                tal &= ~(1 << j)
                p = (tal & ((1 << j) - 1)).bit_length()
                path.append((state, E_TALON, j, b))
        return path

    def _path(
        self, state: int, parent: dict[int, tuple[int, int, int, int]]
    ) -> list[tuple[int, int, int, int]]:
        path = []
        while state in parent:
            edge = parent[state]
            path.append(edge)
            state = edge[0]
        path.reverse()
        return path

    def moves(self, path: list[tuple[int, int, int, int]]) -> list[str]:
        """The RULES.md notation of a macro path, draws and recycles spelled out."""
        out: list[str] = []
        for state, kind, a, b in path:
            if kind == E_KING:
                out.append(str(King(self.cards[a])))
            elif kind == E_PAIR:
                out.append(str(Pair(self.cards[a], self.cards[b])))
            else:
                tal = state >> TAL_SHIFT & TAL_BITS
                p = state >> P_SHIFT & P_BITS
                j = a
                top = (tal & ((1 << p) - 1)).bit_length() - 1
                below = tal & ((1 << j) - 1)
                if j > top:
                    out.extend("d" * (below >> p).bit_count() + "d")
                elif j < top:
                    out.extend("d" * (tal >> p).bit_count())
                    out.append("r")
                    out.extend("d" * (below.bit_count() + 1))
                card = self.talon[j]
                if b < 0:
                    out.append(str(King(card)))
                else:
                    out.append(str(Pair(self.cards[b], card)))
        return out


class _OutOfBudget(Exception):
    pass


def solve_game(game: Game[Any], budget: Budget) -> SolveResult:
    """Solve a Pyramid from its current position; the game object is not changed."""
    if not isinstance(game, Pyramid):
        raise TypeError(f"not a Pyramid game: {type(game).__name__}")
    solver = _Solver(game, budget)
    if solver.mask0 == 0:
        return SolveResult(WON, [], 0, stats={"phase": "start"})
    pool = solver.pool_winnable()
    pool_nodes = solver.nodes
    if pool is None:
        return SolveResult(UNKNOWN, [], solver.nodes, stats={"phase": "pool"})
    if not pool:
        return SolveResult(LOST, [], solver.nodes, stats={"phase": "pool", "proof": "pool"})
    status, path = solver.astar()
    stats: dict[str, Any] = {
        "phase": "astar",
        "pool_nodes": pool_nodes,
        "masks": len(solver.info_cache),
        "optimal": status == WON,
    }
    if status == UNKNOWN:
        # Out of budget before the shortest solution was proved: the pool plan still
        # gives a win (always with unlimited recycles), just not a shortest one.
        fallback = solver.plan_path()
        if fallback is not None:
            stats["phase"] = "pool plan"
            return SolveResult(WON, solver.moves(fallback), solver.nodes, stats=stats)
    if status != WON:
        return SolveResult(status, [], solver.nodes, stats=stats)
    return SolveResult(WON, solver.moves(path), solver.nodes, stats=stats)
