"""Accordion solver: depth-first search over compact rows of top cards, pruned, restarted.

Representation. Only the top card of each pile matters (docs/rules.md: buried cards play no
part), so a position is ``(row, dealt)``: the tops as ``bytes`` (one byte per card 0..51)
and how many stock cards are out. The generic engine is never pushed during the search.

Variants are read from the game class (``ALLOWED_JUMPS``, ``FORCED``, ``OPEN``):

* moves optional (standard, open): dealing never removes an option, because a pile only
  moves left and a card added on the right changes nothing before it; a deal and a move that
  was already legal commute. So every position is equivalent to the one with the whole stock
  dealt, and the search runs on that "open" row: the key is the full row of tops. Deals are
  put back into the solution afterwards, just before the move that needs their card.
* forced: a move must be made when one exists, so dealing is not free; the search runs on
  ``(dealt, row)`` with a deal as the only child of a position without moves.

Search. The positions form a DAG (every move removes a pile, every deal adds a card), so
a plain DFS is exhaustive and a position whose subtree was searched to the end without a
win is proved dead. Three things make it fast:

* a sound prune (``viable``): every move covers a top card with a matching card, so over
  the live cards (tops and stock) the "covered by" relation of a winning line is a
  spanning tree of the graph "shares a suit or a rank"; the first pile never moves, so its
  top is a leaf of that tree. A child whose live cards fail this is never entered. The
  test is a few bit operations on a 52-bit mask (suits are linked when they share a rank),
  on native ints in the compiled build (``_Runner.fits``);
* move ordering (``_ordered``): cover first the card with the fewest matching live cards
  (the hardest to cover later, the least useful as a cover), ties to the mover with the
  fewest matches, then random;
* restarts: the DFS runs with a node limit and restarts with a new random tie-break, more
  random at each restart (search times are heavy-tailed: one bad early choice can trap a
  DFS in a huge dead subtree). Optional moves: the limits follow the Luby sequence times
  ``RESTART_UNIT`` (many short runs, now and then a long one: the tail of hard deals is
  cut without knowing how hard a deal is). Forced: geometric limits (``FORCED_GROWTH``),
  as those deals are mostly lost and a proof gains nothing from short runs. The set of
  proved-dead positions is kept across restarts, so no proof is thrown away and the
  limits grow without bound: ``lost`` is a proof. The dead set is capped (``MAX_DEAD``)
  to bound memory; past the cap, positions are simply searched again (still exact, only
  slower).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from dailydeal.cards import Card
from dailydeal.games import Game
from dailydeal.games.accordion import Accordion
from dailydeal.games.notation import AccordionNotation
from dailydeal.games.rules.accordion import MATCHES, is_won, pile_moves
from dailydeal.solvers.base import (
    LOST,
    UNKNOWN,
    WON,
    Budget,
    SolveResult,
    bit_count_table,
    luby,
)

if TYPE_CHECKING:
    # Native 64-bit ints for the compiled build (mypyc): no tag checks, no boxing. Only
    # annotations name it (never called), so the Python source runs without mypy_extensions.
    from mypy_extensions import i64

MAX_DEAD = 1_000_000  # proved-dead rows kept (about 130 bytes each): bounds memory
RESTART_UNIT = 100  # nodes of the shortest DFS run; run k may search luby(k) times this
FORCED_FIRST_LIMIT = 200  # forced variant: nodes of the first DFS run,
FORCED_GROWTH = 1.25  # and each restart may search this many times more than the last

Move = tuple[int, int]  # (source card, destination card); (-1, -1) is a deal
DEAL: Move = (-1, -1)


@dataclass
class Outcome:
    """What the search found: a status, the moves as card pairs, and counters."""

    status: str
    moves: list[Move] = field(default_factory=list)
    nodes: int = 0
    stats: dict[str, Any] = field(default_factory=dict)


def search(
    cards: Sequence[Card],
    budget: Budget,
    *,
    row: Sequence[Card] | None = None,
    dealt: int = 0,
    jumps: Sequence[int] = (1, 3),
    forced: bool = False,
) -> Outcome:
    """Solve an Accordion of ``cards`` (any length) from ``row`` with ``dealt`` cards out.

    ``row`` is the top cards left to right (the whole prefix ``cards[:dealt]`` when None).
    Won means: the stock is empty and one pile remains. The moves returned are card pairs
    (source, destination) and ``DEAL``; in the optional-moves variants they contain no
    deal (see ``with_deals``).
    """
    total = len(cards)
    tops = bytes(cards[:dealt]) if row is None else bytes(row)
    stock = bytes(cards[dealt:])
    jumps_t = tuple(sorted(set(jumps)))
    if forced and stock:
        return _Forced(tops, stock, dealt, total, jumps_t, budget).run()
    return _Open(tops + stock, jumps_t, budget).run()


class _Runner:
    """The restart loop shared by both searches; subclasses define the DFS."""

    def __init__(self, budget: Budget) -> None:
        self.budget = budget
        self.nodes = 0
        self.dead: set[bytes] = set()
        self.path: list[Move] = []
        self.stop = 0
        self.rng = random.Random(0)
        self.rnd: Callable[[], float] = self.rng.random  # bound once: no look-up per node
        self.restarts = 0
        self.jitter = JITTER
        self.exhausted = False  # the whole budget (not only this run's limit) is used up
        # The run's limit or the budget was reached: every DFS call returns False at once.
        # (A flag, not an exception: compiled, an exception adds a traceback entry at each
        # of the frames it unwinds, which cost a tenth of the search.)
        self.aborted = False
        self.max_dead = MAX_DEAD  # read once: a module global costs a dict look-up per node

    def fits(self, mask: i64, first: i64) -> bool:
        """``viable(mask, first)`` on native ints (compiled: no Python int, no call of
        ``NEIGHBOURS``; remembering the slow case in a dict cost more than computing it)."""
        rest = mask & ~_bit(first)
        return not rest or (_neighbours(first) & rest != 0 and connected(rest))

    def _dfs_root(self) -> bool:
        raise NotImplementedError

    def _on_abort(self) -> None:
        """Forget the positions of the interrupted path: they are not proved dead."""

    def run(self) -> Outcome:
        while True:
            self.path = []
            self.stop = self.nodes + self.limit(self.restarts)
            self.aborted = False
            won = self._dfs_root()
            if self.aborted:
                self._on_abort()
                if self.exhausted:
                    return Outcome(UNKNOWN, [], self.nodes, self._stats())
                self.restarts += 1
                self.rng = random.Random(self.restarts)
                self.rnd = self.rng.random
                self.jitter = JITTER * (1 + JITTER_GROWTH * self.restarts)
                continue
            status = WON if won else LOST
            moves = list(reversed(self.path)) if won else []
            return Outcome(status, moves, self.nodes, self._stats())

    def limit(self, restarts: int) -> int:
        """The node limit of the run after ``restarts`` restarts."""
        return RESTART_UNIT * luby(restarts + 1)

    def _stats(self) -> dict[str, Any]:
        return {"restarts": self.restarts, "dead": len(self.dead)}

    def _count(self) -> bool:
        """Count an expanded node; abort (True) when the run's limit or the budget is used
        up: the caller returns False, and so does every caller up to the root."""
        self.nodes += 1
        if self.budget.spent(self.nodes):
            self.exhausted = True
            self.aborted = True
        elif self.nodes >= self.stop:
            self.aborted = True
        return self.aborted


def card_mask(cards: Sequence[Card]) -> int:
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def _components_table() -> bytes:
    """CONNECTED[index] for the 10-bit index of ``connected``: 4 presence bits of the
    suits, then one bit per pair of suits (01 02 03 12 13 23) that share a rank.

    Suits as bits. For each set of links and each first suit present, the suits reached
    from it grow by every linked pair that touches them (three rounds reach all four);
    the cards are connected when every suit present is reached (no suit present: they
    are). Plain int operations, 64 x 4 closures: built at every import of the solver."""
    pairs = (0b0011, 0b0101, 0b1001, 0b0110, 0b1010, 0b1100)  # 01 02 03 12 13 23
    table = bytearray(1024)
    for links in range(64):
        linked = [pairs[k] for k in range(6) if links >> k & 1]
        table[links << 4] = 1
        for first in range(4):
            reach = 1 << first
            for _ in range(3):
                for pair in linked:
                    if reach & pair:
                        reach |= pair
            for higher in range(16 >> (first + 1)):  # the sets whose first suit is this
                present = 1 << first | higher << (first + 1)
                table[present | links << 4] = 1 if present & ~reach == 0 else 0
    return bytes(table)


CONNECTED: Final = _components_table()


def connected(mask: i64) -> bool:
    """Whether the cards of ``mask`` form one connected graph under "shares suit or rank".

    A necessary condition for a win (a sound prune): each move covers a top card with a
    matching one, so the cover relation over the live cards (tops and stock) is a spanning
    tree of that graph. Cards of one suit are always linked; two suits are linked when they
    share a rank, so only the four 13-bit rank sets need looking at.
    """
    s0 = mask & 0x1FFF
    s1 = mask >> 13 & 0x1FFF
    s2 = mask >> 26 & 0x1FFF
    s3 = mask >> 39
    if s0 & s1 and s0 & s2 and s0 & s3:
        return True  # the usual case: spades share a rank with every other suit
    # the CONNECTED index, bit by bit (compiled: native ints, no bool arithmetic)
    index: i64 = 0
    if s0:
        index |= 1
    if s1:
        index |= 2
    if s2:
        index |= 4
    if s3:
        index |= 8
    if s0 & s1:
        index |= 16
    if s0 & s2:
        index |= 32
    if s0 & s3:
        index |= 64
    if s1 & s2:
        index |= 128
    if s1 & s3:
        index |= 256
    if s2 & s3:
        index |= 512
    return CONNECTED[index] == 1


def viable(mask: int, first: int) -> bool:
    """The prune: the live cards ``mask`` other than ``first`` (the top of the first pile)
    are ``connected``, and ``first`` matches one of them.

    The first pile never moves, so its top never covers anything: it is a leaf of the
    cover tree, and the tree minus that leaf still spans the other live cards. (This
    implies ``connected(mask)``.)
    """
    rest = mask & ~(1 << first)
    return not rest or (NEIGHBOURS[first] & rest != 0 and connected(rest))


class _Open(_Runner):
    """Optional moves: search the row with the whole stock dealt (see the module doc)."""

    def __init__(self, row: bytes, jumps: tuple[int, ...], budget: Budget) -> None:
        super().__init__(budget)
        self.root = row
        self.jumps = jumps
        self.stack: list[bytes] = []

    def _dfs_root(self) -> bool:
        self.stack = []
        mask = card_mask(self.root)
        return len(self.root) <= 1 or (viable(mask, self.root[0]) and self._dfs(self.root, mask))

    def _on_abort(self) -> None:
        for row in self.stack:
            self.dead.discard(row)

    def _dfs(self, row: bytes, mask: i64) -> bool:
        """Depth-first from ``row`` (not yet known dead, not won); the caller pruned it."""
        if self._count():
            return False
        dead = self.dead
        pushed = len(dead) < self.max_dead
        if pushed:
            dead.add(row)
            self.stack.append(row)
        first: i64 = row[0]
        # every child is one pile fewer; the whole stock is in the row, so "dealt" is 0 of 0
        won = is_won(0, len(row) - 1, 0)
        moves = pile_moves(row, self.jumps)
        for t in _ordered(row, mask, moves, self.rnd, self.jitter):
            i, j = moves[t]
            covered: i64 = row[j]
            child_mask = mask ^ _bit(covered)
            if not self.fits(child_mask, first if j else row[i]):
                continue
            if i == j + 1:  # a slide: the mover simply takes the covered card's place
                child = row[:j] + row[i:]
            else:
                child = row[:j] + row[i : i + 1] + row[j + 1 : i] + row[i + 1 :]
            if won or (child not in dead and self._dfs(child, child_mask)):
                self.path.append((row[i], covered))
                return True
            if self.aborted:
                return False  # and the positions on ``stack`` stay there (``_on_abort``)
        if pushed:
            self.stack.pop()
        return False


class _Forced(_Runner):
    """A move must be made when one exists: the position is (dealt, row)."""

    def __init__(
        self,
        row: bytes,
        stock: bytes,
        dealt: int,
        total: int,
        jumps: tuple[int, ...],
        budget: Budget,
    ) -> None:
        super().__init__(budget)
        self.root = row
        self.cards = bytes(total - len(stock)) + stock  # only cards[dealt:] are read
        self.dealt0 = dealt
        self.total = total
        self.jumps = jumps
        self.stack: list[bytes] = []

    def limit(self, restarts: int) -> int:
        """Geometric limits here: forced deals are mostly lost, and a proof gains nothing
        from many short runs (measured: Luby limits cost more nodes on them)."""
        return int(FORCED_FIRST_LIMIT * FORCED_GROWTH**restarts)

    def _dfs_root(self) -> bool:
        self.stack = []
        mask = card_mask(self.root) | card_mask(self.cards[self.dealt0 :])
        if self.root and not viable(mask, self.root[0]):
            return False
        return connected(mask) and self._dfs(self.root, self.dealt0, mask)

    def _on_abort(self) -> None:
        for key in self.stack:
            self.dead.discard(key)

    def _dfs(self, row: bytes, dealt: int, mask: i64) -> bool:
        """``mask`` holds the live cards: the tops and the stock."""
        if is_won(dealt, len(row), self.total):
            return True
        key = bytes((dealt,)) + row
        dead = self.dead
        if key in dead:
            return False
        if self._count():
            return False
        pushed = len(dead) < self.max_dead
        if pushed:
            dead.add(key)
            self.stack.append(key)
        moves = pile_moves(row, self.jumps)
        if moves:
            first: i64 = row[0]
            for t in _ordered(row, mask, moves, self.rnd, self.jitter):
                i, j = moves[t]
                covered: i64 = row[j]
                child_mask = mask ^ _bit(covered)
                if not self.fits(child_mask, first if j else row[i]):
                    continue
                if i == j + 1:
                    child = row[:j] + row[i:]
                else:
                    child = row[:j] + row[i : i + 1] + row[j + 1 : i] + row[i + 1 :]
                if self._dfs(child, dealt, child_mask):
                    self.path.append((row[i], covered))
                    return True
                if self.aborted:
                    return False
        elif dealt < self.total:
            if self._dfs(row + self.cards[dealt : dealt + 1], dealt + 1, mask):
                self.path.append(DEAL)
                return True
            if self.aborted:
                return False
        if pushed:
            self.stack.pop()
        return False


# NEIGHBOURS[a]: the other cards sharing a suit or a rank with a, as a 52-bit mask.
# (Each row of MATCHES read as a binary number, card 0 the lowest bit: 52 conversions in C
# rather than 2,704 tests at every import.)
_AS_DIGITS: Final = bytes.maketrans(b"\x00\x01", b"01")
NEIGHBOURS: Final[tuple[int, ...]] = tuple(
    int(MATCHES[a][::-1].translate(_AS_DIGITS), 2) & ~(1 << a) for a in range(52)
)
MOVER_WEIGHT: Final = 0.1  # how much a mover with few matches left is preferred (tie-breaking)
JITTER: Final = 0.05  # random part of the order at the first run: it only breaks ties
JITTER_GROWTH: Final = 0.3  # the random part grows by this much of JITTER at each restart
# Bit counts through a table: compiled by mypyc, ``int.bit_count()`` is a generic method
# look-up and call (docs/solvers.md, "Compiled or Python").
_POP16: Final = bit_count_table()
_SUIT: Final = bytes(c // 13 for c in range(52))
# The masks that ``_neighbours`` and ``_bit`` shift right (see ``_bit``)
_LAST_SUIT: Final = 0x1FFF << 39  # the cards of suit 3
_LAST_RANK: Final = 0x8004002001 << 12  # the cards of rank 12
_LAST_CARD: Final = 1 << 51
_RANK: Final = bytes(c % 13 for c in range(52))


def popcount(x: int) -> int:
    """``x.bit_count()`` for 0 <= x < 2**64 (card masks)."""
    t = _POP16
    return t[x & 0xFFFF] + t[x >> 16 & 0xFFFF] + t[x >> 32 & 0xFFFF] + t[x >> 48]


def _ordered(
    row: bytes,
    mask: i64,
    moves: list[tuple[int, int]],
    rnd: Callable[[], float],
    jitter: float,
) -> list[int]:
    """The positions in ``moves`` (the rules' ``pile_moves`` of ``row``), best first.

    Cover first the card with the fewest matching cards still live (``mask``): such a card
    is the hardest to cover later and the least useful as a cover for others, while
    covering a card with many matches throws away flexibility. Ties go to the mover
    with fewer matches, then to a random order that changes at each restart.

    One ``rnd()`` per move in the order of ``moves`` when there are two or more, and the
    order by (key, source, destination). Compiled, the node's main cost: the keys are
    floats in a list and the positions are sorted by insertion (no tuple per move, no
    Python comparison of tuples but on equal keys).
    """
    count = len(moves)
    order: list[int] = []
    if count < 2:
        if count:
            order.append(0)
        return order
    w = MOVER_WEIGHT
    keys: list[float] = []
    for source, destination in moves:
        keys.append(
            _live_matches(mask, row[destination])
            + w * _live_matches(mask, row[source])
            + jitter * rnd()
        )
    t: i64 = 0
    while t < count:
        key = keys[t]
        u: i64 = t
        order.append(t)
        while u > 0:
            previous: i64 = order[u - 1]
            before = keys[previous]
            if before < key or (before == key and moves[previous] < moves[t]):
                break
            order[u] = previous
            u -= 1
        order[u] = t
        t += 1
    return order


def _neighbours(card: i64) -> i64:
    """``NEIGHBOURS[card]`` computed (compiled, reading a 52-bit int from a tuple costs
    more): the card's suit and its rank, without the card."""
    suit: i64 = _SUIT[card]
    rank: i64 = _RANK[card]
    return (_LAST_SUIT >> 39 - 13 * suit | _LAST_RANK >> 12 - rank) ^ _bit(card)


def _bit(card: i64) -> i64:
    """``1 << card``, written as a right shift: mypyc (2.4) compiles ``1 << card`` on an
    ``i64`` as a shift of the C ``int`` 1, wrong from ``card`` 32 on."""
    return _LAST_CARD >> 51 - card


def _live_matches(mask: i64, card: i64) -> int:
    """``popcount(NEIGHBOURS[card] & mask)``: the live cards matching ``card`` (an ``int``:
    the move keys are floats, and mypy has no float operations with ``i64``)."""
    suit: i64 = _SUIT[card]
    rank: i64 = _RANK[card]
    same_rank = mask >> rank
    return (
        _POP16[mask >> 13 * suit & 0x1FFF]
        + (same_rank & 1)
        + (same_rank >> 13 & 1)
        + (same_rank >> 26 & 1)
        + (same_rank >> 39 & 1)
        - 2 * (mask >> card & 1)
    )


def with_deals(moves: Sequence[Move], cards: Sequence[Card], dealt: int) -> list[Move]:
    """Put explicit deals into a move list of the optional-moves search.

    Each deal comes just before the first move whose source is still in the stock; the
    stock left after the last move is dealt at the end. This is legal because dealing
    commutes with moves (module doc): the real row is the searched row minus its
    undealt suffix, so every move meets the same two tops at the same distance.
    """
    position = {card: k for k, card in enumerate(cards)}
    out: list[Move] = []
    for move in moves:
        while position[move[0]] >= dealt:
            out.append(DEAL)
            dealt += 1
        out.append(move)
    out.extend(DEAL for _ in range(len(cards) - dealt))
    return out


def notation(moves: Sequence[Move]) -> list[str]:
    """Moves in the docs/rules.md notation (the game's codec): ``X>Y`` and ``d``."""
    return [AccordionNotation.DEAL if m == DEAL else AccordionNotation.pile(m[0], m[1])
            for m in moves]


def solve_game(game: Game[Any], budget: Budget) -> SolveResult:
    """Solve an Accordion game object from its current position (it is not modified)."""
    if not isinstance(game, Accordion):
        raise TypeError(f"not an Accordion game: {type(game).__name__}")
    cards = game.cards
    dealt = game.dealt
    row = [pile[-1] for pile in game.piles]
    forced = game.FORCED
    jumps = game.ALLOWED_JUMPS
    outcome = search(cards, budget, row=row, dealt=dealt, jumps=jumps, forced=forced)
    moves = outcome.moves
    if outcome.status == WON and not (forced and dealt < len(cards)):
        moves = with_deals(moves, cards, dealt)
    return SolveResult(outcome.status, notation(moves), outcome.nodes, stats=outcome.stats)


__all__ = [
    "DEAL",
    "MATCHES",
    "Outcome",
    "connected",
    "notation",
    "search",
    "solve_game",
    "viable",
    "with_deals",
]
