"""Gaps solver: depth-first search per round, steered through the seeded redeals.

A game of Gaps is a sequence of rounds separated by redeals. Inside a round the search is
a plain depth-first graph search over the 52 cells (an exact table of seen positions, the
key is the 52 cell bytes). A redeal is only legal when blocked, and what it deals depends
only on the kept sequences (the collected cards are all the others) and on the redeal
number, because the shuffle is ``redeal_shuffle(collected, seed, k)``. So every blocked
position of a round with a redeal left is reduced to its *signature* (the kept sequences),
each signature is redealt at most once per pass (with the rule engine's own shuffle), and
the round that follows is searched with a capped effort, signatures with the most kept
cards first. A redeal subtree proved lost (or won) is remembered across passes.

The caps grow pass after pass, and each pass after the first tries the moves in another
(seeded, deterministic) order: these restarts are what wins the no-redeal variant, where
one deep search tends to sink its whole budget below a bad early choice. A pass in which
no cap was hit was exhaustive, which proves the position lost.

When no redeal is left from the start, the round is searched with Tarjan's strongly
connected components (2s moving between column-1 gaps make cycles): a completed component
has had every position it reaches searched, none won, so its positions are kept as proved
lost and later passes skip them. That table (``table.PositionTable``: in its C build, 41
bytes a slot, filled up to 31/32, where a dict took about 100 bytes a position) is bounded
at ``TABLE_LIMIT`` positions: past it, the proofs least recently written or met are
dropped, down to three quarters of it.
Dropping a proof costs searching its position again if it is met, never a wrong answer
(a position is only skipped while its proof is held). A key is one int (``_key``: the
cards' cells in base 53) where the cells took 96 bytes as bytes.
(With redeals, the last rounds keep the plain search and its bytes keys: they are short
and many, and the bookkeeping measured slower there.) The passes then take turns
between a *limited* game (two turns in three) that allows at most k *relocations* (a 2
standing in column 1 moving to column 1 of another row) and the real game, with caps
following the Luby sequence (many short restarts, now and then a longer one) for each.
The limited game starts at k = 0 (no 2 ever leaves column 1: a much smaller game, often
searched out in a few passes); once it is searched out (no win within k relocations) the
passes go on with k + 1, up to ``MORE_RELOCATIONS``. A win in a limited game is a real
win; its "lost" only moves the limit up. Nothing is pruned from the real game, only
ordered, and positions are only skipped when proved lost, so ``lost`` is exact.

Most moves of a position commute (they fill different gaps and neither takes away the
card the other is placed right of), so the search reaches most positions again by a
transposition, and most of those were proved lost already: a lookup per move that
answers DEAD. A *sleep set* skips them without the lookup: once a move t of a position
is known to lead to a lost position, every move m independent of t leads to a position
where t is asleep, since m then t reaches the position of t then m, which is reachable
from t's lost position. Only lookups that would answer DEAD are skipped, so the nodes,
their order and the answers are the same (measured: 1.1 to 1.35 lookups per node
instead of 2.6, about 1.25 times the nodes per second).

Two rules of the last round shrink the graph without changing any position's verdict
(``VERSION`` 14). Once all four 2s stand in column 1 no column-1 gap can appear again,
so no 2 moves again and the relocations left no longer matter: such a position has one
key in the real and the limited games, which share its proof. And where no 2 in column
1 can move again (that, or no relocation left), a *safe* extension of a kept run is
searched alone (``_safe`` proves that it loses no win).

``last_round`` is the reference of ``gaps_last.c``, the same search in C (the same nodes,
about twice as many a second), which ``round`` calls when compiled (``gaps_last.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from dailydeal.games import Game
from dailydeal.games.gaps import Gaps
from dailydeal.games.notation import GapsNotation
from dailydeal.games.rules import EMPTY as GAP
from dailydeal.games.rules.gaps import (
    BLOCKED_REDEAL,
    BLOCKED_WON,
    CELLS,
    COLS,
    SUCCESSOR,
    TWOS,
    is_won,
    redeal,
    when_blocked,
)
from dailydeal.games.rules.gaps import kept_signature as _kept  # the redeal signature
from dailydeal.shuffle import SplitMix64, fisher_yates
from dailydeal.solvers.base import LOST, UNKNOWN, WON, Budget, SolveResult, luby
from dailydeal.solvers.dead_cards import stuck
from dailydeal.solvers.gaps_last import last_round
from dailydeal.solvers.table import DEAD, PositionTable

CAPPED: Final = "capped"

# Move = (card, destination cell); None is a redeal.
Step = tuple[int, int] | None


class _OutOfBudget(Exception):
    """The node/time budget is spent: unwind and answer ``unknown``."""


# A placement is one small int: ``card | row << ROW_SHIFT``, the row (0..3) only for a 2
# (any other card goes right of its predecessor). All are below 256, the ints Python
# keeps ready-made: the move stacks allocate nothing per move.
ROW_SHIFT: Final = 6
CARD_MASK: Final = 63


def _target(move: int, pos: list[int]) -> int:
    """The destination cell of ``move`` (as ``rules.gaps.target``)."""
    card = move & CARD_MASK
    if card % 13 == 1:  # a 2: column 1 of its row
        return (move >> ROW_SHIFT) * COLS
    return pos[card - 1] + 1


def _rank(move: int, tb: list[int]) -> int:
    """The order of the moves neither best nor relocations: (tb[card], card, destination),
    as one int (the row is 0 but for a 2: another card has one destination)."""
    card = move & CARD_MASK
    return (tb[card] << ROW_SHIFT | card) << 2 | move >> ROW_SHIFT


def _insert(out: list[int], lo: int, hi: int, move: int, tb: list[int]) -> None:
    """Insert ``move`` into ``out[lo:hi]``, kept sorted by _rank (an insertion sort: a
    position has a handful of such moves)."""
    rank = _rank(move, tb)
    i = hi
    while i > lo and _rank(out[i - 1], tb) > rank:
        i -= 1
    out.insert(i, move)


def _moves(
    board: list[int],
    pos: list[int],
    gaps: list[int],
    tb: list[int],
    out: list[int],
    relocate: bool = True,
    frozen: bool = False,
) -> bool:
    """Append the legal placements on ``board`` (the cells as a list: mypyc reads a list
    item natively, a bytearray item through Python's generic protocol) to ``out``, ordered
    so that the first to try is LAST; False when there is none.

    First: a card that extends the kept run of its row (or a 2 that lands left of its 3);
    then the others in the pass's tie-break order ``tb``; last: a 2 that already stands in
    column 1 moving to another row (a *relocation*), left out when not ``relocate``.
    (Scoring the other moves by gaps kept alive or by in-suit neighbours was tried: no
    better than a random order, and slower.)

    ``frozen``: no 2 standing in column 1 can ever move again (no relocation left, or all
    four 2s in column 1), so the kept runs never break up. Then a *safe* run extension,
    when there is one, is the only move put out (``_safe``: it loses nothing).
    """
    # ``out`` grows in three parts, with nothing allocated: from ``n`` the relocations
    # (the worst moves, tried last), from ``r`` the others sorted by _rank, from ``b`` the
    # best (tried first); each move goes in its place as it is found
    n = len(out)
    r = n
    b = n
    for g in gaps:
        col = g % COLS
        if col == 0:
            row = g // COLS
            for two in TWOS:
                if pos[two] % COLS == 0:
                    if relocate:
                        out.insert(r, two | row << ROW_SHIFT)
                        r += 1
                        b += 1
                elif board[g + 1] == two + 1:
                    out.append(two | row << ROW_SHIFT)
                else:
                    _insert(out, r, b, two | row << ROW_SHIFT, tb)
                    b += 1
            continue
        card = SUCCESSOR[board[g - 1]]
        if card == GAP:
            continue
        base = g - col
        first = board[base]
        if card % 13 == col + 1 and first == card - col:
            j = 1
            while j < col and board[base + j] == first + j:
                j += 1
            if j == col:  # the card extends the kept run of its row
                if frozen and _safe(card, board, pos):
                    while len(out) > n:  # the other moves are not needed
                        out.pop()
                    out.append(card)
                    return True
                out.append(card)
                continue
        _insert(out, r, b, card, tb)
        b += 1
    return len(out) > n


def _safe(card: int, board: list[int], pos: list[int]) -> bool:
    """Whether extending a frozen kept run with ``card`` (its next card, into the gap right
    of the run) can be played at once without losing a win: ``card`` is a king, or stands
    in column 13, or has its own successor right of it.

    Proof (docs/rules.md). Let E, the run's end, stand at F - 1, and F be a gap. E never
    moves (its 2 never moves: the run is frozen), so ``card`` (E's successor) can only ever
    move into F, and F can only ever take ``card``. Take a winning line L from here; in
    it ``card`` moves into F at some step t (the won position has ``card`` at F: the run's
    2 sets its row's suit), standing at its cell s until then and F staying a gap. Play
    that move first, then L without step t: before t the two lines'
    positions differ only at s (a gap, not ``card``) and at F (``card``, not a gap). Every
    move of L before t stays legal: its destination was a gap other than s and F (s held
    ``card``, and F takes nothing else), and it needs its predecessor left of it, which
    fails only for the successor of ``card`` moving right of s (a 2 into column 1 needs no
    predecessor). That cannot happen: a king has no successor, column 13 has nothing
    right of it, and a successor standing right of s already can only leave by moving
    right of ``card``, where it stands. After step t both lines stand at the same
    position, so the new line wins too. Hence the position is won exactly when the one
    after this move is, and its other moves need no search. (A win is a line of legal
    moves: the proof shortens none, so by induction on a shortest win the search that
    only plays safe moves where there is one still finds a win wherever there is one.)
    """
    if card % 13 == 12:  # a king: no successor
        return True
    s = pos[card]
    return s % COLS == COLS - 1 or board[s + 1] == card + 1


def _replace(gaps: list[int], old: int, new: int) -> None:
    """``gaps[gaps.index(old)] = new`` as a native loop (list.index compares through
    Python's generic comparison; the list holds the 4 gaps)."""
    i = 0
    while gaps[i] != old:
        i += 1
    gaps[i] = new


def _take_back(
    cells: bytearray,
    board: list[int],
    pos: list[int],
    gaps: list[int],
    card: int,
    src: int,
    dst: int,
) -> None:
    """Undo moving ``card`` from ``src`` to ``dst`` (cells, then what ``_undo`` takes back:
    board, card positions, gap list)."""
    cells[dst] = GAP
    cells[src] = card
    _undo(board, pos, gaps, card, src, dst)


# The last round proves a position lost when a card is stuck for good (``dead_cards.stuck``,
# in C when compiled: a relocation followed where one may still be made) where at most
# this many gaps can take a card; -1: never, the default. Measured side by side at 10 s of
# CPU (docs/solvers.md, "Dead cards"): with 2 or 4, 0.8 to 0.9 of the nodes to a proof of
# loss for 0.75 to 0.85 of the nodes per second (a call costs about a third of a node in
# C), no deal more decided; so it is off, and the search is VERSION 14's node for node.
# Not Final: the tests (and anyone measuring it again) set it.
DEAD_CARDS = -1

UNLIMITED: Final = 255  # the relocations left in the real game (no limit): see ``last_round``
CHECK: Final = 64  # nodes between two looks at the budget in the last round


# The most positions the table of the last round holds (no redeal left; ``_Search.known``)
# before it is aged down to three quarters of it. The C build's table (table.c) doubles
# each of its 256 parts when more than 31/32 full: 8,000,000 positions fill 256 parts of
# 2**15 slots of 41 bytes, 344 MB (0.95 of them on average, the fullest near 31/32; one
# more doubling would take 688). A 10 s solve makes up to about 7,900,000 positions, and
# its search needs the proofs of the passes before: aging down to 3/4, or even 95%, lost
# wins that the whole table kept (docs/solvers.md). (The Python build keeps them in a
# dict: about 100 bytes each.) Not Final: the tests set a tiny one.
TABLE_LIMIT = 8_000_000


def _undo(board: list[int], pos: list[int], gaps: list[int], card: int, src: int, dst: int) -> None:
    """Undo moving ``card`` from ``src`` to ``dst`` (board, card positions, gap list): the
    last round's take-back, whose key is an int of its own (no cells to write)."""
    board[dst] = GAP
    board[src] = card
    pos[card] = src
    _replace(gaps, src, dst)


# The key of a last-round position (no redeal left) is one int: the cells of the 48 cards
# that are not aces as the digits of a number in base 53 (the cell of card c, 0..51, times
# 53 ** slot(c), slot(c) = c - c // 13 - 1), and the relocations left above them (times
# 53 ** 48). Exact (the cards' cells are the position), and under 2 ** 283: 10 digits of
# a Python int, 64 bytes, against 96 for the 53 bytes of the cells and the relocations as
# a bytes object. A move adds one number to it (``KEY_STEP``), where the bytes were made
# anew from the cells. Base 53 rather than 6 bits a card: a Python int hashes to itself
# modulo 2 ** 61 - 1, and the dict's slot is the hash's low bits; with 6 bits a card only
# the 17 or so cards whose bits fall on those low bits (mod 61) chose the slot (400,000
# positions of a search in 32,895 slots of 2 ** 21, against 364,000 for random hashes),
# while 53 ** slot is odd, and modulo 2 ** 61 - 1 spread over all 61 bits from slot 11
# on: every card's move changes the slot (364,071 slots, as for bytes).
KEY_BASE: Final = 53
LEFT_UNIT: Final = 53**48  # the relocations left count in this unit
# what a key gains when ``card`` moves by ``d`` cells (-51..51): KEY_STEP[card * 103 + 51 + d]
KEY_STEP: Final[tuple[int, ...]] = tuple(
    0 if card % 13 == 0 else (d - 51) * 53 ** (card - card // 13 - 1)
    for card in range(52)
    for d in range(103)
)


def _key(board: list[int], left: int) -> int:
    """The key of the position ``board`` (the 52 cells) with ``left`` relocations left."""
    key = left * LEFT_UNIT
    for i in range(CELLS):
        card = board[i]
        if card != GAP:
            key += i * KEY_BASE ** (card - card // 13 - 1)
    return key


def _position(key: int) -> tuple[list[int], int]:
    """The cells and relocations left of a key (``_key`` undone)."""
    cells = [GAP] * CELLS
    for card in range(52):
        if card % 13:
            cells[key // KEY_BASE ** (card - card // 13 - 1) % KEY_BASE] = card
    return cells, key // LEFT_UNIT


def _forget(known: PositionTable, comp: list[int]) -> None:
    """A pass ends with components still open: their positions are not proved lost."""
    for key in comp:
        del known[key]


def _asleep(z: int, move: int) -> bool:
    """Whether ``move`` is in the packed set ``z`` (a move a byte, 0 for none)."""
    while z:
        if z & 255 == move:
            return True
        z >>= 8
    return False


SLEEP_ROOM: Final = 1 << 48  # a packed set below this has room for one more move (7 at most)


def _fall_asleep(z: int, move: int) -> int:
    """``z`` with ``move`` added, or ``z`` when it is full (a move left out is only a
    lookup made: safe)."""
    return z << 8 | move if z < SLEEP_ROOM else z


def _inherit(z: int, card: int, src: int, dst: int, pos: list[int], limited: bool) -> int:
    """The moves of ``z`` that stay asleep after ``card`` moved from ``src`` to ``dst``
    (``pos`` is already updated): those independent of that move. Two moves are
    independent when each leaves the other legal and they touch different cells, so that
    both orders lead to the same position; in a limited game two relocations are taken as
    dependent (one may use the last relocation left)."""
    out = 0
    while z:
        t = z & 255
        z >>= 8
        y = t & CARD_MASK
        if y == card:
            continue
        if y % 13 == 1:  # a 2 to column 1 of a row
            if (t >> ROW_SHIFT) * COLS == dst:
                continue  # the same gap
            if limited and src % COLS == 0 and dst % COLS == 0 and pos[y] % COLS == 0:
                continue  # two relocations
        elif y - 1 == card:
            continue  # the move took away the predecessor t is placed right of
        if dst % COLS != 0 and pos[y] == dst - 1:
            continue  # t takes away the predecessor the move was placed right of
        out = out << 8 | t
    return out


def _steps(pos: list[int], path: list[int]) -> list[Step]:
    """The placements (card, destination) of a ``last_round`` path (card, src pairs):
    the moves taken back in turn, from the card positions ``pos`` at its end."""
    pos = list(pos)
    steps: list[Step] = []
    for i in range(len(path) - 2, -1, -2):
        card = path[i]
        steps.append((card, pos[card]))
        pos[card] = path[i + 1]
    steps.reverse()
    return steps


class _Search:
    """One solve: the caches that survive from pass to pass, and the node count."""

    def __init__(self, seed: int, redeals: int, offset: int, budget: Budget) -> None:
        self.seed = seed
        self.redeals = redeals  # redeals left at the start: rounds 0..redeals
        self.offset = offset  # redeals the game had used before: round k is redeal offset+k
        self.budget = budget
        self.nodes = 0
        # (k, signature) -> LOST or the winning steps from the redealt position
        self.redeal_results: dict[tuple[int, tuple[tuple[int, int], ...]], Any] = {}
        self.redeals_tried = 0
        self.tb = [0] * 53  # tie-breaks of the move order, varied from pass to pass
        # No redeal left: the relocations (a 2 leaving column 1 for another row) a pass
        # may make, UNLIMITED in the real game. A limited game is smaller (searched for
        # a quick win; its "lost" proves nothing about the real game).
        self.relocations = UNLIMITED
        # Positions of the last round (the 52 cells and the relocations left) -> DEAD
        # when proved lost (*with that many left*), kept from pass to pass; or, during a
        # pass, the visit number of a position in an open component. One table, so that
        # a position costs one lookup there (the open ones are forgotten when a pass ends).
        self.known = PositionTable()
        # it is aged once it holds more than ``table_limit`` (``limit``, or more while
        # many positions are open): the times it was, and the proofs it dropped
        self.limit = TABLE_LIMIT
        self.table_limit = self.limit
        self.aged = 0
        self.forgotten = 0

    def _make_room(self) -> None:
        """The table is full: drop the proofs least recently used, down to 3/4 of it."""
        self.aged += 1
        self.forgotten += self.known.age(self.limit * 3 // 4)

    def round(self, cells: bytearray, k: int, caps: list[int]) -> tuple[str, list[Step]]:
        """Search round ``k`` (``k`` redeals used) from ``cells``: WON/LOST/CAPPED + steps."""
        if self.redeals == 0:  # no redeal left from the start: the restarts' own search
            if DEAD_CARDS < 0:  # in C when compiled (gaps_last.c: the same search)
                return last_round(self, cells, caps[k])
            return self.last_round(cells, caps[k])
        cells = bytearray(cells)  # the key of a position: bytes(cells), as in last_round
        whole = [cells]
        board = list(cells)  # the same, read by _moves (and written once a position is new)
        pos = [-1] * 53
        gaps = []
        for i in range(len(cells)):
            c = cells[i]
            if c == GAP:
                gaps.append(i)
            else:
                pos[c] = i
        cap = caps[k]
        left = self.redeals - k  # redeals left in this round
        budget = self.budget
        seen = {b"".join(whole)}
        start_nodes = self.nodes
        path: list[tuple[int, int, int]] = []  # (card, src, dst)
        leaves: dict[tuple[tuple[int, int], ...], list[tuple[int, int, int]]] = {}
        capped = False
        first: list[int] = []
        _moves(board, pos, gaps, self.tb, first)
        stack = [first]
        if not first:
            end = when_blocked(cells, left)
            if end == BLOCKED_WON:
                return WON, []
            if end == BLOCKED_REDEAL:
                leaves[_kept(cells)] = []
            stack.pop()
        while stack:
            ms = stack[-1]
            if not ms:
                stack.pop()
                if path:
                    card, src, dst = path.pop()
                    _take_back(cells, board, pos, gaps, card, src, dst)
                continue
            move = ms.pop()
            card = move & CARD_MASK
            dst = _target(move, pos)
            src = pos[card]
            # The effect of rules.gaps.move, inlined in the hot loop (pos and gaps are only
            # updated once the position is known to be new).
            cells[src] = GAP
            cells[dst] = card
            key = b"".join(whole)
            if key in seen:
                cells[dst] = GAP
                cells[src] = card
                continue
            seen.add(key)
            board[src] = GAP
            board[dst] = card
            pos[card] = dst
            _replace(gaps, dst, src)
            path.append((card, src, dst))
            self.nodes += 1
            if budget.spent(self.nodes):
                raise _OutOfBudget
            nxt: list[int] = []
            if _moves(board, pos, gaps, self.tb, nxt):
                if self.nodes - start_nodes > cap:
                    capped = True
                    stack.clear()
                    break
                stack.append(nxt)
                continue
            # blocked
            end = when_blocked(cells, left)
            if end == BLOCKED_WON:
                return WON, [(c, d) for c, _, d in path]
            if end == BLOCKED_REDEAL:
                sig = _kept(cells)
                if sig not in leaves:
                    leaves[sig] = list(path)
            path.pop()
            _take_back(cells, board, pos, gaps, card, src, dst)
        if leaves:  # redeals from the blocked positions (none when no redeal is left)
            # restore the round's start position to redeal from each leaf
            start = bytearray(cells)
            for card, src, dst in reversed(path):
                start[dst] = GAP
                start[src] = card
            order = sorted(leaves.items(), key=lambda kv: -sum(n for _, n in kv[0]))
            for sig, leaf_path in order:
                status, steps = self.redeal(start, leaf_path, sig, k + 1, caps)
                if status == WON:
                    return WON, [(c, d) for c, _, d in leaf_path] + [None] + steps
                if status == CAPPED:
                    capped = True
        return (CAPPED if capped else LOST), []

    def last_round(self, cells: bytearray, cap: int) -> tuple[str, list[Step]]:
        """Search the last round (no redeal left) from ``cells``: WON/LOST/CAPPED + steps.

        A depth-first search with Tarjan's strongly connected components (2s moving
        between column-1 gaps make cycles): when a component is complete, every position
        reachable from it has been searched and none is won, so its positions go to
        ``self.known`` as DEAD and later passes skip them. The positions of a pass cut
        short by its cap that are still in an open component are not proved and are
        forgotten.

        A position is the 52 cells and the relocations left (UNLIMITED in the real game),
        keyed by ``_key``: the graph searched is that of these pairs, so its components,
        and what ``self.known`` records, are exact for it.
        """
        if len(self.known) > self.limit:  # between passes none is open
            self._make_room()
        self.table_limit = self.limit
        board = list(cells)  # the cells (written once a position is new)
        left = self.relocations
        pos = [-1] * 53
        gaps = []
        for i in range(CELLS):
            c = board[i]
            if c == GAP:
                gaps.append(i)
            else:
                pos[c] = i
        known = self.known
        # bound once: mypyc calls a method of a class it did not compile by looking up its
        # name on every call (2% of a search)
        setdefault: Callable[[int, int], int] = known.setdefault
        prove_lost: Callable[[list[int], int], None] = known.prove_lost
        budget = self.budget
        # the 2s standing in column 1: once all four do, no column-1 gap can ever appear
        # again (a card only ever moves right of its predecessor, a 2 into a column-1 gap),
        # so no 2 moves again and the relocations left no longer matter: the key counts
        # them as UNLIMITED, and the real and limited games share those positions' proofs
        home = 0
        for two in TWOS:
            if pos[two] % COLS == 0:
                home += 1
        root = _key(board, UNLIMITED if home == 4 else left)
        if root in known:  # proved lost: between passes no position is open
            return LOST, []
        # the moves left to try of every open position, one list: each position's moves
        # (the first to try last) above a mark, -1 - its visit number (moves are >= 0)
        moves = [-1]
        dead_cards = DEAD_CARDS
        frozen = left == 0 or home == 4
        if not _moves(board, pos, gaps, self.tb, moves, left != 0, frozen) or (
            dead_cards >= 0 and stuck(board, dead_cards, left != 0)
        ):
            if is_won(board):
                return WON, []
            known[root] = DEAD
            return LOST, []
        nodes = self.nodes
        stop = nodes + cap + 1  # the cap: a pass ends CAPPED past it
        # budget.spent is asked on every multiple of CHECK nodes, and at its node limit
        check = (nodes // CHECK + 1) * CHECK
        if budget.max_nodes is not None and budget.max_nodes < check:
            check = budget.max_nodes
        known[root] = 0  # its visit number
        comp = [root]  # the open components' positions, by visit number
        nums = [0]  # their visit numbers (as in the table: read here, not looked up there)
        counter = 1
        lows = [0]  # per open position: the lowest visit number of one it reaches
        # per open position, its moves known to lead to a lost position without a lookup
        # (packed, a byte each): the moves of its parent's set independent of the move
        # that led to it (a sleep set), then its own moves whose position was proved lost.
        # If t's position from P is lost and m is independent of t, then m then t from P
        # reaches the position of t then m, reachable from a lost position: lost too. So
        # skipping t after m skips only a lookup that would answer DEAD: the search, its
        # nodes and its answers are the same.
        sleeps = [0]
        limited = left != UNLIMITED
        path: list[int] = []  # card, src of each move played (the card is now at dst)
        key = root  # the key of the position searched now
        keys: list[int] = []  # the keys of the positions it was reached from
        while True:
            move = moves.pop()
            if move < 0:  # every move of this position is searched
                i = -1 - move
                low = lows.pop()
                sleeps.pop()
                if low == i:  # a complete component: all of it is lost
                    j = len(nums) - 1
                    while j and nums[j - 1] >= i:
                        j -= 1
                    while len(nums) > j:  # most components are one position: a pop is
                        nums.pop()  # native, where a slice deletion is Python's generic one
                    prove_lost(comp, j)  # one call for the component
                elif low < lows[-1]:
                    lows[-1] = low
                if not path:
                    self.nodes = nodes
                    return LOST, []
                src = path.pop()
                card = path.pop()
                dst = pos[card]
                if low == i:  # the move led to a lost position
                    sleeps[-1] = _fall_asleep(
                        sleeps[-1], card | (dst // COLS) << ROW_SHIFT if card % 13 == 1 else card
                    )
                if limited and src % COLS == 0 and dst % COLS == 0:
                    left += 1  # a relocation taken back
                elif card % 13 == 1 and src % COLS != 0:
                    home -= 1  # a 2 taken back out of column 1
                key = keys.pop()
                _undo(board, pos, gaps, card, src, dst)
                continue
            z = sleeps[-1]
            if z and _asleep(z, move):
                continue
            card = move & CARD_MASK
            dst = _target(move, pos)
            src = pos[card]
            # the key after the move (rules.gaps.move follows once the position is new)
            new = key + KEY_STEP[card * 103 + 51 + dst - src]
            relocation = limited and src % COLS == 0 and dst % COLS == 0
            if relocation:
                new -= LEFT_UNIT
            arrives = card % 13 == 1 and src % COLS != 0  # a 2 comes to column 1
            if arrives and home == 3 and limited:
                new += (UNLIMITED - left) * LEFT_UNIT  # the fourth: the key as above
            # one lookup: a new position goes in at once as open with the next visit
            # number (every known one has DEAD or a smaller one)
            seen = setdefault(new, counter)
            if seen != counter:  # proved lost, or open (its visit number)
                if seen == DEAD:
                    sleeps[-1] = _fall_asleep(z, move)
                elif seen < lows[-1]:
                    lows[-1] = seen
                continue
            comp.append(new)
            nums.append(counter)
            nodes += 1
            if nodes >= check:
                self.nodes = nodes
                if budget.spent(nodes):
                    _forget(known, comp)
                    raise _OutOfBudget
                if len(known) > self.table_limit:
                    self._make_room()
                    # many open positions (never dropped): room for limit / 4 more
                    # before the next aging, so that it does not come at every look
                    self.table_limit = max(self.limit, len(known) + self.limit // 4)
                check = nodes + CHECK
                if budget.max_nodes is not None and budget.max_nodes < check:
                    check = budget.max_nodes
            board[src] = GAP
            board[dst] = card
            pos[card] = dst
            _replace(gaps, dst, src)
            if relocation:
                left -= 1
            if arrives:
                home += 1
            moves.append(-1 - counter)
            frozen = left == 0 or home == 4
            if not _moves(board, pos, gaps, self.tb, moves, left != 0, frozen) or (
                dead_cards >= 0 and stuck(board, dead_cards, left != 0)
            ):
                # blocked (or no move left but relocations), or a card stuck for good
                while moves.pop() >= 0:  # its moves, if any, then its mark
                    pass
                if is_won(board):
                    self.nodes = nodes
                    _forget(known, comp)
                    path.append(card)
                    path.append(src)
                    return WON, _steps(pos, path)
                known[new] = DEAD  # blocked or stuck
                comp.pop()
                nums.pop()
                sleeps[-1] = _fall_asleep(z, move)
                if relocation:
                    left += 1
                if arrives:
                    home -= 1
                _undo(board, pos, gaps, card, src, dst)
                continue
            if nodes >= stop:
                self.nodes = nodes
                _forget(known, comp)
                return CAPPED, []
            path.append(card)
            path.append(src)
            keys.append(key)
            key = new
            lows.append(counter)
            sleeps.append(_inherit(z, card, src, dst, pos, limited) if z else 0)
            counter += 1

    def redeal(
        self,
        start: bytearray,
        leaf_path: list[tuple[int, int, int]],
        sig: tuple[tuple[int, int], ...],
        k: int,
        caps: list[int],
    ) -> tuple[str, list[Step]]:
        """Redeal number ``k`` from the blocked position of ``sig``, then search on."""
        known = self.redeal_results.get((k, sig))
        if known is not None:
            return (LOST, []) if known == LOST else (WON, known)
        cells = bytearray(start)
        for card, src, dst in leaf_path:
            cells[src] = GAP
            cells[dst] = card
        self.redeals_tried += 1
        status, steps = self.round(bytearray(redeal(cells, self.seed, k + self.offset)), k, caps)
        if status == WON:
            self.redeal_results[(k, sig)] = steps
        elif status == LOST:
            self.redeal_results[(k, sig)] = LOST
        return status, steps


def _notation(step: Step) -> str:
    """A step in the docs/rules.md notation (the game's codec)."""
    return GapsNotation.REDEAL if step is None else GapsNotation.place(*step)


GROWTH = 4  # caps grow by this factor from pass to pass (rounds with redeals)
FIRST_CAP_LEAD = 300  # nodes in a round that ends with a redeal, first pass
FIRST_CAP_LAST = 2000  # nodes in the last round, first pass
LUBY_UNIT = 2000  # no redeal left: pass n of each kind has a cap of LUBY_UNIT * luby(n)
# No redeal left: the passes take turns between these games, each with its own Luby
# caps: a limit on relocations (0: no 2 ever leaves column 1), UNLIMITED the real game.
# The limited game takes two turns in three: the real game's wins come early (all 34 of
# the first 120 deals' within 3.7 s), the limited games' keep coming late (limits 1 and
# 2 won the 4 that took over 8 s), and most proofs of loss, which need the real game
# searched out, are short (docs/solvers.md).
LEVELS: tuple[int, ...] = (0, 0, UNLIMITED)
# A limited game searched out gives its turns to the next limit up, to this one: the
# slow deals whose wins need a relocation mostly need one (the limit 1 took 3 of 200
# deals past the real game's passes; docs/solvers.md).
MORE_RELOCATIONS = 3


def _caps(redeals_left: int, scale: float) -> list[int]:
    """Node caps per round for one pass: index k is round k (k redeals used)."""
    return [int(FIRST_CAP_LEAD * scale)] * redeals_left + [int(FIRST_CAP_LAST * scale)]


def solve_game(game: Game[Any], budget: Budget) -> SolveResult:
    """Won (with moves), lost (exhaustive search) or unknown (budget) from the position now."""
    if not isinstance(game, Gaps):
        raise TypeError(f"the Gaps solver cannot solve {game.name}")
    used = game.redeals_used
    left = game.REDEALS - used
    seed = 0 if game.seed is None else game.seed  # an explicit deal redeals with seed 0
    cells = bytearray(game.cells)
    search = _Search(seed, left, used, budget)
    stats: dict[str, Any] = {"passes": 0}
    scale: float = 1.0
    status = UNKNOWN
    steps: list[Step] = []
    # no redeal left: passes of each game (relocation limit) so far, and the games not
    # searched out yet (a limited game searched out has no win: the others go on)
    runs = dict.fromkeys(LEVELS, 0)
    levels = list(LEVELS)
    try:
        while True:
            stats["passes"] += 1
            if stats["passes"] > 1:
                search.tb = fisher_yates(range(53), SplitMix64(stats["passes"]))
            if left:
                caps = _caps(left, scale)
                scale *= GROWTH
            else:
                limit = levels[(stats["passes"] - 1) % len(levels)]
                search.relocations = limit
                runs[limit] += 1
                caps = [LUBY_UNIT * luby(runs[limit])]
            search_status, steps = search.round(cells, 0, caps)
            if search_status == WON:
                if not left:
                    stats["won_level"] = search.relocations  # 255: the real game
                status = WON
                break
            if search_status == LOST:
                if search.relocations == UNLIMITED:
                    status = LOST
                    break
                limit = search.relocations
                stats[f"searched_out_{limit}"] = stats["passes"]
                if limit < MORE_RELOCATIONS:  # the next game up takes its turns
                    levels = [limit + 1 if level == limit else level for level in levels]
                    runs[limit + 1] = 0
                else:
                    levels = [level for level in levels if level != limit]
    except _OutOfBudget:
        status = UNKNOWN
    stats["redeals_tried"] = search.redeals_tried
    stats["tables_aged"] = search.aged  # the table of the last round was full
    stats["positions_forgotten"] = search.forgotten  # the proofs aging dropped
    stats["streamlined_passes"] = sum(n for level, n in runs.items() if level != UNLIMITED)
    moves = [_notation(s) for s in steps] if status == WON else []
    return SolveResult(status, moves, search.nodes, budget.elapsed(), stats)
