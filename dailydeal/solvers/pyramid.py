"""Pyramid solver: an exact verdict and a solution of the fewest steps (docs/rules.md, Pyramid).

In three parts: this module is the search (the pool search and A*);
``dailydeal.solvers.pyramid_bounds`` holds the lower bounds, and
``dailydeal.solvers.pyramid_plan`` the macro moves (``reach``: what bringing a talon card to
the waste top costs), the state packing and the plan reconstruction. Two phases, then a
fallback.

1. **Pool search** (winnability under unlimited recycles). With unlimited recycles any card
   left in the stock or waste can be brought to the waste top, so the order of those cards
   does not matter: the abstract state is the pyramid mask plus how many talon cards of each
   value remain. A depth-first search with a table of dead states decides it exactly. It is
   the verdict for the relaxed variant and a quick proof of loss for ``passes=N`` (fewer
   passes can only lose more). Its table (whether each pool state it searched can be
   cleared) is kept for phase 2, which asks it of every new pyramid and talon
   (``pool_open``): a child whose pool cannot clear the pyramid is lost, exactly so when
   relaxed, and is never pushed. The bounds below see most of these losses but not all
   of them: they take each talon value left as unlimited, where the pool counts the cards.
2. **A\\*** for the shortest solution on the real order. The talon (stock and waste) is one
   cyclic sequence: waste bottom to top, then the stock in drawing order. Removing a card
   from it never reorders the rest, so a position is the pyramid mask, the set of talon
   cards removed, the waste-top position and (for ``passes=N``) the recycles used; the talon
   is kept in canonical form (talons that leave the same values in the same order are one
   position, ``canonical_removal``), and a position is skipped when another of the same
   pyramid and talon reached at g1, whose draws to it cost d, has g1 + d <= its g
   (``dominated``). Edges are
   macro moves: a pair or king of pyramid cards (1 step), or "draw/recycle until talon card
   ``j`` is the waste top, then remove it" (1 step plus the draws and recycles). Draws only
   ever serve to expose a card that is then removed, and pyramid moves do not depend on the
   talon, so any solution maps onto a macro path no longer than itself: shortest macro path =
   shortest solution. The bounds (``heuristic``, evaluated at each push; at each pop, the
   count of the recycles the position needs, ``passes_needed``, with its quick bound, and
   then the costlier ``threshold_bound``, both evaluated lazily) are admissible but not
   necessarily consistent (the tests check them
   against a naive breadth-first search) and prove positions lost when no pool can clear
   the pyramid. A state found again by a shorter path is expanded again, so the answer
   stays shortest even where the bounds are not consistent. Ties on f go to the deeper
   node. Two moves are taken alone when they are there, as some shortest solution starts
   with them: an accessible pyramid king, and a forced pair (two accessible cards that
   pair, one of them the only card of its value left in the pyramid and the talon, so the
   other can leave only with it; the tests check both against the naive search).
3. If A* runs out of budget on a deal the pool search proved winnable, the pool plan is
   played on the real talon (nearest card of each wanted value): a verified win that is not
   necessarily shortest (``stats["optimal"]`` is False). With a pass limit that plan may not
   fit, and the answer stays ``unknown``.
"""

from __future__ import annotations

import gc
from typing import TYPE_CHECKING, Any, Final

from dailydeal.games import Game
from dailydeal.games.pyramid import Pyramid
from dailydeal.games.rules.pyramid import SIZE, is_won, may_recycle
from dailydeal.solvers.base import LOST, UNKNOWN, WON, Budget, SolveResult
from dailydeal.solvers.pyramid_bounds import BIG, KING_VALUE, Bounds, count_shift, mask_key
from dailydeal.solvers.pyramid_plan import (
    E_KING,
    E_PAIR,
    E_TALON,
    G_SHIFT,
    LOST_BIT,
    NO_LINK,
    P_BITS,
    P_SHIFT,
    PYR_BITS,
    REC_SHIFT,
    TAL_BITS,
    TAL_SHIFT,
    Edge,
    PoolStep,
    bit_length,
    canonical_removal,
    link,
    notation,
    pack,
    path_to,
    pool_plan_path,
    reach,
    realize,
    redraw,
    room_of,
    same_before,
    unpack,
    waste_top,
)

if TYPE_CHECKING:
    # Native 64-bit ints for the compiled build (mypyc), as in ``pyramid_plan``.
    from mypy_extensions import i64

# The stage of an open entry, in its low two bits: its bound is the cheap one, the
# threshold one or the quick one; above them, once counted, the pass count
# (need << 6 | far + 1).
CHEAP: Final = 0
FULL: Final = 1
COUNTED: Final = 2


class _Frontier:
    """The open list of A*: entries (state, stage) in buckets by f and g, taken smallest
    f first, then largest g (deeper nodes are nearer a goal when the bound is tight),
    last in first out within a bucket. f and g are small integers, so buckets cost a
    list append and pop where a binary heap compares entries log n times."""

    def __init__(self) -> None:
        self.rows: list[list[list[int]]] = []  # rows[f][g]: state, stage, state, ...
        # occupied[f]: bit g set when rows[f][g] holds an entry, so that a pop finds the
        # largest g of a row from its top bit where it walked down the empty buckets (46
        # a pop on average; an int of more than 62 bits in the rows of long solutions)
        self.occupied: list[int] = []
        self.f = 0  # no entry has a smaller f than this
        self.g = -1  # the g of the entry ``pop`` took
        self.size = 0
        # the entry that ``pop`` took
        self.state = 0
        self.stage = 0

    def push(self, f: int, g: int, state: int, stage: int) -> None:
        rows = self.rows
        while len(rows) <= f:
            rows.append([])
            self.occupied.append(0)
        row = rows[f]
        while len(row) <= g:
            row.append([])
        bucket = row[g]
        bucket.append(state)
        bucket.append(stage)
        self.occupied[f] |= 1 << g
        self.size += 1
        if f < self.f:
            # Bounds that are not consistent let a child's f fall below its parent's;
            # every smaller f was emptied before, so this row is the only one.
            self.f = f

    def pop(self) -> bool:
        """Take the next entry into ``state``, ``stage``, ``f`` and ``g``; False when
        empty."""
        if not self.size:
            return False
        occupied = self.occupied
        f = self.f
        while not occupied[f]:
            f += 1
        top = occupied[f]
        g = top.bit_length() - 1
        bucket = self.rows[f][g]
        self.stage = bucket.pop()
        self.state = bucket.pop()
        if not bucket:
            occupied[f] = top ^ 1 << g
        self.size -= 1
        self.f = f
        self.g = g
        return True


COUNTS_BITS: Final = 36  # the pool search's counts (``count_shift``) below a mask's index
DOMINATED: Final = -2  # what ``dominated`` says of a dominated position


class _OutOfBudget(Exception):
    """The node/time budget is spent."""


class _Search:
    """One solve: the start position, the bounds, the node count and the pool plan."""

    def __init__(self, game: Pyramid, budget: Budget, strong: bool = True) -> None:
        self.budget = budget
        # False: the reference search (``solve_reference``), with the push-time bound alone
        self.strong = strong
        self.nodes = 0
        self.passes = game.PASSES
        self.most = BIG if self.passes is None else self.passes - 1  # recycles allowed
        # The talon as one cyclic order: waste bottom..top, then the stock in drawing order.
        talon = list(game.waste) + game.stock[::-1]
        self.bounds = Bounds(list(game.cards[:SIZE]), talon, self.passes)
        self.mask0 = game.mask
        rec0 = game.recycles if self.passes is not None else 0
        # The talon of the deal has no card removed: it is canonical (``canonical``).
        self.start = pack(self.mask0, self.bounds.full, len(game.waste), rec0)
        self.same = same_before(self.bounds.tvalues)
        self.plan: list[PoolStep] = []  # the pool search's winning plan
        # The pool search's table, kept for A* (``pool_open``): whether each pool state
        # (mask index << COUNTS_BITS | counts) it searched can be cleared; the steps of its
        # last win.
        self.pool_table: dict[int, bool] = {}
        self.steps: list[PoolStep] = []
        self.pool_nodes = 0
        # A*: the smallest g each state was reached with, the edge it came by, the open list
        # A*: per pyramid and talon (a state without its waste pointer and recycles), the
        # positions reached (see ``ROOM_BITS``)
        self.rooms: dict[int, list[int]] = {}
        self.frontier = _Frontier()

    def release(self) -> None:
        """Drop the search's tables (``_solve`` does, before the collector is on again)."""
        self.rooms = {}
        self.frontier = _Frontier()
        self.pool_table = {}
        self.bounds.release()

    def notation(self, path: list[Edge]) -> list[str]:
        return notation(path, self.bounds.cards, self.bounds.talon)

    # --- phase 1: the pool search ---------------------------------------------------
    def pool_winnable(self) -> bool | None:
        """Winnable with unlimited recycles? None when the budget ran out."""
        try:
            won = self._pool(self.mask0, self.bounds.counts_of(self.bounds.full))
        except _OutOfBudget:
            return None
        self.plan = self.steps[::-1]
        self.steps.clear()
        return won

    def pool_open(self, mask: int, tal: int) -> bool:
        """Can the pool search clear ``mask`` with the talon cards ``tal``? When it cannot,
        every position of that pyramid and talon is lost: exactly so with unlimited
        recycles (the pool is the game then), and with a pass limit, as fewer passes only
        lose more. A* asks this of every new pyramid and talon; the pool search's table is
        shared by all the calls, so most answers are a lookup."""
        counts = self.bounds.counts_of(tal)
        won = self._pool(mask, counts)
        self.steps.clear()
        return won

    def _pool(self, mask: int, counts: int) -> bool:
        """Depth-first pool search from ``mask`` with ``counts`` (``count_shift``: the talon
        cards of each value left). Records in ``pool_table`` whether each state it searched
        can be cleared, and the winning steps, last first, in ``steps``."""
        if mask == 0:
            return True
        bounds = self.bounds
        info = bounds.memo_info if mask == bounds.memo_mask else (
            bounds.info_cache.get(mask_key(mask)) or bounds.info(mask)
        )
        # The mask's index folded onto the counts too (one to one): raw, the keys' low
        # bits are the counts alone, shared by many masks (5.2 probes an insertion, 2.0).
        key = info.index << COUNTS_BITS | (counts ^ info.index)
        known = self.pool_table.get(key)
        if known is not None:
            return known
        self.nodes += 1
        self.pool_nodes += 1
        if self.budget.spent(self.nodes):
            raise _OutOfBudget
        for w, e in info.need:
            if counts >> count_shift(w) & 7 < e:
                self.pool_table[key] = False
                return False
        steps = self.steps
        won = False
        if info.king >= 0:
            if self._pool(mask & ~(1 << info.king), counts):
                steps.append((E_KING, info.king, -1))
                won = True
        else:
            for a, b in info.pairs:
                if self._pool(mask & ~(1 << a) & ~(1 << b), counts):
                    steps.append((E_PAIR, a, b))
                    won = True
                    break
            if not won:
                for w, places in info.talon_moves:
                    shift = count_shift(w)
                    if w != KING_VALUE and counts >> shift & 7:
                        for i in places:
                            if self._pool(mask & ~(1 << i), counts - (1 << shift)):
                                steps.append((E_TALON, w, i))
                                won = True
                                break
                        if won:
                            break
        self.pool_table[key] = won
        return won

    def _open(
        self, state: int, g: int, child: i64, cost: int, kind: int, a: int, b: int, cneed: int
    ) -> None:
        """Push ``child``, reached from ``state`` (at ``g``) by the edge (kind, a, b) of
        ``cost`` steps, unless it is dominated (``dominated``) or proved lost.
        ``cneed``: the recycles every solution from the child makes at least, as the
        parent's pass count says (0 when it says nothing)."""
        ng = g + cost
        room = room_of(child)
        ctal = child >> TAL_SHIFT & TAL_BITS
        cp = child >> P_SHIFT & P_BITS
        crec = child >> REC_SHIFT
        group = self.rooms.get(room)
        at = -1
        if group is not None:
            at = self.dominated(group, ctal, cp, crec, ng)
            if at == DOMINATED:
                return
        cmask = child & PYR_BITS
        bounds = self.bounds
        ch = bounds.heuristic(cmask, ctal, cp)
        if ch < 0:
            return
        steps = bounds.last_steps  # the child's pool steps, for the quick bound below
        if (
            group is None and crec < self.most and self.strong
            and not self.pool_open(cmask, ctal)
        ):
            # A room is opened only once its pool is (or with no recycle left, where the
            # threshold bound reads the one pass left, the talon's order included, and
            # the pool rarely sees more), so only new rooms are asked.
            return
        if cneed > 0:
            # Every solution from the parent makes at least its pass count of recycles,
            # those of the edge included: the rest are the child's, for the quick bound,
            # before the child is ever counted itself.
            qh = bounds.quick_with(steps, ctal, cp, crec, cneed, -1)
            if qh >= BIG:
                return
            if qh > ch:
                ch = qh
        where = cp | crec << 6 | ng << G_SHIFT
        edge = link(kind, a, b)
        if group is None:
            self.rooms[room] = [where, state, edge]
        elif at >= 0:
            group[at] = where
            group[at + 1] = state
            group[at + 2] = edge
        else:
            group.append(where)
            group.append(state)
            group.append(edge)
        self.frontier.push(ng + ch, ng, child, CHEAP)

    def dominated(self, group: list[int], tal: i64, p: i64, rec: i64, g: i64) -> int:
        """Is the position with talon ``tal``, waste pointer ``p`` and ``rec`` recycles
        used, reached at ``g``, dominated by one of ``group`` (the positions of the same
        pyramid and talon reached so far)? Draws alone, and a recycle, lead from any waste
        pointer to any other: a position reached at g1 whose draws (and recycle, if one is
        left) to this one cost d, with g1 + d <= g, has a solution as short as any of this
        one's, and if it is proved lost, so is this one. The same position reached at g or
        less dominates it too. DOMINATED, or the index of this position's own entry in
        ``group`` (-1: none)."""
        limited = self.passes is not None
        at = -1
        for k in range(0, len(group), 3):
            e: i64 = group[k]
            p1 = e & 63
            rec1 = e >> 6 & 3
            if p1 == p and rec1 == rec:
                if e & LOST_BIT or e >> G_SHIFT <= g:
                    return DOMINATED
                at = k
                continue
            if limited and rec1 + (p1 > p) > rec:
                continue  # not enough recycles left to get here from there
            d = redraw(tal, p1, p)  # 0 for the same pointer with fewer recycles used
            if e & LOST_BIT or (e >> G_SHIFT) + d <= g:
                return DOMINATED
        return at

    def astar(self) -> tuple[str, list[Edge]]:
        """(status, path of (parent state, kind, a, b) edges) from the start position."""
        passes = self.passes
        start = self.start
        h0 = self.bounds.heuristic(*unpack(start)[:3])
        if h0 < 0:
            return LOST, []
        # The positions reached, by pyramid and talon (``rooms``), each with the smallest
        # g it was reached with. A position is pushed only when reached with a smaller g
        # than before, and an entry whose g is no longer its position's best, or that is
        # dominated by now, is skipped: so each (position, g) is expanded at most once,
        # and a position found again with a smaller g is expanded again, which keeps A*
        # exact even where the bounds are not consistent.
        rooms = self.rooms = {room_of(start): [start >> P_SHIFT, NO_LINK, 0]}
        # Entries (state, stage) by f, then deeper nodes first (``_Frontier``). Children
        # are pushed with the cheap bound (CHEAP); when a node is popped, the pass count
        # (``passes_needed``) and its quick bound come first, then the costlier threshold
        # bound, and the node goes back with the larger f whenever one rises (COUNTED with
        # the pass count, then FULL): lazy evaluation keeps A* exact.
        frontier = self.frontier = _Frontier()
        frontier.push(h0, 0, start, CHEAP)
        budget = self.budget
        # Methods and functions are called by name, never through a local alias: compiled,
        # a direct call is a C call, an alias a Python one.
        bounds = self.bounds
        most = self.most
        value_bits = bounds.value_bits
        same = self.same
        while frontier.pop():
            state = frontier.state
            stage = frontier.stage
            g = frontier.g
            group = rooms[room_of(state)]
            tal = state >> TAL_SHIFT & TAL_BITS
            p = state >> P_SHIFT & P_BITS
            rec = state >> REC_SHIFT
            # (g - 1: the node's own entry, at g, is not one that dominates it)
            at = self.dominated(group, tal, p, rec, g - 1)
            if at < 0:
                continue  # dominated by now, or reached again with a smaller g
            mask = state & PYR_BITS
            if is_won(mask):
                return WON, realize(path_to(state, rooms), self.start)
            kind = stage & 3
            if kind != FULL and self.strong:
                f = frontier.f
                if kind == CHEAP:
                    # The pass count first: when its quick bound alone lifts f, the node
                    # goes back (with the count) and gets the threshold bound only if it
                    # comes up again.
                    # With no recycle left, the threshold bound already reads the one
                    # pass left (blockers included): the count costs more than it saves.
                    need, far = (
                        bounds.passes_needed(mask, tal, p, most - rec) if rec < most else (0, -1)
                    )
                    h = bounds.quick_bound(mask, tal, p, rec, need, far)
                    if h >= BIG:
                        group[at] |= LOST_BIT
                        continue
                    if g + h > f:
                        counted = (need << 6 | far + 1) << 2 | COUNTED
                        frontier.push(g + h, g, state, counted)
                        continue
                else:
                    need = stage >> 8
                    far = (stage >> 2 & 63) - 1
                h = bounds.threshold_bound(mask, tal, p, rec, need, far)
                if h >= BIG:
                    group[at] |= LOST_BIT
                    continue
                if g + h > f:
                    full = (need << 6 | far + 1) << 2 | FULL
                    frontier.push(g + h, g, state, full)
                    continue
            else:
                need = stage >> 8
            self.nodes += 1
            if budget.spent(self.nodes):
                return UNKNOWN, []
            tal = state >> TAL_SHIFT & TAL_BITS
            p = state >> P_SHIFT & P_BITS
            rec = state >> REC_SHIFT
            info = bounds.info_of(mask)
            # A forced pair: two accessible cards that pair, one of them (b) the only card
            # of its value left in the pyramid and the talon. The other (a) can leave only
            # with b, so every solution holds the step (a, b); taking it first costs the
            # same step, leaves the talon and its cursor as they are and only uncovers
            # cards, so the rest of the solution stays legal: a shortest solution
            # starts with it. Only that edge is taken.
            fa = fb = -1
            for a, b, w in info.lone_pairs:
                if not tal & value_bits[w]:
                    fa, fb = a, b
                    break
            if info.king >= 0:
                # Removing an accessible pyramid king at once is never worse: it must go
                # anyway, stays accessible, and removing it only uncovers cards.
                self._open(state, g, state & ~(1 << info.king), 1, E_KING, info.king, -1, need)
            elif fa >= 0:
                self._open(state, g, state & ~(1 << fa) & ~(1 << fb), 1, E_PAIR, fa, fb, need)
            else:
                for a, b in info.pairs:
                    self._open(state, g, state & ~(1 << a) & ~(1 << b), 1, E_PAIR, a, b, need)
                top = waste_top(tal, p)
                recycle_left = may_recycle(passes, rec)
                nrec_after = rec + 1 if passes is not None else rec
                for w, places in info.talon_moves:
                    t = tal & value_bits[w]
                    while t:
                        lowbit = t & -t
                        t ^= lowbit
                        j = bit_length(lowbit) - 1
                        draws, recycles, more, after = reach(tal, p, top, j)
                        if recycles and not recycle_left:
                            continue
                        cost = 1 + draws + recycles + more
                        ntal, after = canonical_removal(tal, after, j, same)
                        nhigh = (
                            ntal << TAL_SHIFT
                            | after << P_SHIFT
                            | (nrec_after if recycles else rec) << REC_SHIFT
                        )
                        for i in places:
                            child = nhigh | (mask if i < 0 else mask & ~(1 << i))
                            self._open(state, g, child, cost, E_TALON, j, i, need - recycles)
        return LOST, []


def solve_game(game: Game[Any], budget: Budget) -> SolveResult:
    """Solve a Pyramid from its current position; the game object is not changed."""
    return _solve(game, budget, True)


def solve_reference(game: Game[Any], budget: Budget) -> SolveResult:
    """The same A* with the push-time bound (``heuristic``) alone: no pass count
    (``passes_needed``), quick or threshold bound, and no pool check (``pool_open``). Slower,
    and independent of the bounds most likely to be wrong: the tests and
    ``benchmarks/solvers.py --reference`` compare the solver's shortest lengths with its
    own, and the strong bounds with the lengths along its solutions."""
    return _solve(game, budget, False)


def _solve(game: Game[Any], budget: Budget, strong: bool) -> SolveResult:
    if not isinstance(game, Pyramid):
        raise TypeError(f"not a Pyramid game: {type(game).__name__}")
    # A solve allocates hundreds of thousands of tuples, lists and ints, none of them in a
    # cycle: the cyclic collector would walk them again and again for nothing. It is off
    # for the whole solve (the pool search, A* and the notation), and the search's tables
    # are dropped before it is on again: left for later, the first allocation after it
    # would walk them all once more (8% of the CPU of small solves).
    collecting = gc.isenabled()
    gc.disable()
    solver: _Search | None = None
    try:
        solver = _Search(game, budget, strong)
        return _run(solver)
    finally:
        if solver is not None:
            solver.release()
        if collecting:
            gc.enable()


def _run(solver: _Search) -> SolveResult:
    if is_won(solver.mask0):
        return SolveResult(WON, [], 0, stats={"phase": "start"})
    pool = solver.pool_winnable()
    pool_nodes = solver.pool_nodes
    if pool is None:
        return SolveResult(UNKNOWN, [], solver.nodes, stats={"phase": "pool"})
    if not pool:
        return SolveResult(LOST, [], solver.nodes, stats={"phase": "pool", "proof": "pool"})
    try:
        status, path = solver.astar()
    except _OutOfBudget:  # in a pool search A* asked for (``pool_open``)
        status, path = UNKNOWN, []
    stats: dict[str, Any] = {
        "phase": "astar",
        "pool_nodes": pool_nodes,
        "pool_check_nodes": solver.pool_nodes - pool_nodes,
        "masks": len(solver.bounds.info_cache),
        "optimal": status == WON,
    }
    if status == UNKNOWN:
        # Out of budget before the shortest solution was proved: the pool plan still
        # gives a win (always with unlimited recycles), just not a shortest one.
        fallback = pool_plan_path(
            solver.plan, solver.start, solver.bounds.value_bits, solver.passes
        )
        if fallback is not None:
            stats["phase"] = "pool plan"
            return SolveResult(WON, solver.notation(fallback), solver.nodes, stats=stats)
    if status != WON:
        return SolveResult(status, [], solver.nodes, stats=stats)
    return SolveResult(WON, solver.notation(path), solver.nodes, stats=stats)
