"""Hints: from the position after a player's moves, is the deal still winnable, and how?

``hint(position)`` asks the game's solver (``dailydeal.solvers``; every solver starts from
the position it is given: Accordion from its row and the cards still in the stock, Pyramid
from the pyramid, stock, waste and recycles, Gaps from its cells and the redeals used) and
answers:

- ``verdict``: ``winnable`` (the solver found a winning line from here), ``lost`` (proved:
  the rules say the game is over, or the solver's search was exhaustive) or ``unknown``
  (the node budget ran out first);
- ``move``: the first move of that line in docs/rules.md notation, playable as it is by the
  verifier; ``moves_left``: the length of the line; ``shortest``: whether no line is
  shorter (proved).

A hint is never wrong: before it is given, the whole line is replayed from the position
through the rule engine, exactly as the verifier would, and must end in a win; otherwise
the answer is ``unknown`` (and the mismatch is logged as a solver bug).

The cost is bounded by a node budget, so a hint is the same on every machine. The time
limit is only a safety net: when the clock stops a search, the answer could differ from
the node-budget answer (the Pyramid solver, for one, falls back on a longer line), so it
is not an answer at all: ``HintTimeout`` is raised and nothing is cached.

Answers are cached in a bounded LRU keyed by the deal and the position's ``key()`` (the
same position reached by two move orders is one entry): the solver's answer depends on
nothing else, so the cache never changes an answer, it only saves the work.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from dailydeal.games import Game
from dailydeal.games.base import LOST as GAME_LOST
from dailydeal.games.base import WON as GAME_WON
from dailydeal.solvers import Budget, SolveResult, solver_for
from dailydeal.solvers.base import LOST, WON

log = logging.getLogger(__name__)

WINNABLE, HOPELESS, UNKNOWN = "winnable", "lost", "unknown"
VERDICTS = (WINNABLE, HOPELESS, UNKNOWN)
# Node budgets per game: a p95 under a second (benchmarks/hints.py). A Pyramid node (A*) costs
# far more than the others; past its budget, Pyramid still answers with its pool plan (a
# win, not proved shortest).
MAX_NODES = {"accordion": 30_000, "pyramid": 5_000, "gaps": 30_000}
DEFAULT_MAX_NODES = 30_000  # a game not in MAX_NODES


def budget_for(game: str, max_nodes: int | None = None) -> int:
    """The node budget of a hint: ``max_nodes`` when given, else the game's default."""
    return max_nodes if max_nodes is not None else MAX_NODES.get(game, DEFAULT_MAX_NODES)
DEFAULT_TIME_LIMIT = 10.0  # the safety net: seconds before a search gives up (HintTimeout)
CACHE_SIZE = 20_000  # positions (a line fills one per move): some 20 MB per process at most


class HintTimeout(Exception):
    """The clock, not the node budget, stopped the search: there is no answer to give."""


@dataclass(frozen=True)
class Hint:
    verdict: str  # winnable, lost or unknown
    move: str | None  # the next move of a winning line (None: won already, or no line)
    moves_left: int | None  # moves of that line (0 when the position is won)
    shortest: bool  # proved: no winning line from here is shorter
    state: str  # the position's own state: won, lost, in progress
    nodes: int  # positions the solver searched
    max_nodes: int  # the node budget
    line: tuple[str, ...] = ()  # the whole winning line (kept here, never sent)

    def to_json(self) -> dict[str, Any]:
        return {
            "verdict": self.verdict,
            "move": self.move,
            "moves_left": self.moves_left,
            "shortest": self.shortest,
            "state": self.state,
            "nodes": self.nodes,
            "max_nodes": self.max_nodes,
        }


def line_wins(position: Game[Any], line: Sequence[str]) -> bool:
    """Whether ``line`` played from ``position`` as the verifier plays it wins the game."""
    probe = position.copy()
    try:
        for text in line:
            probe.play(probe.parse_move(text))
    except ValueError:
        return False
    probe.finish()
    return probe.status() == GAME_WON


def _proved_shortest(position: Game[Any], result: SolveResult) -> bool:
    if position.name == "accordion":
        # Every winning line has the same length: each deal adds a pile, each move takes
        # one away, and a win is one pile with the stock empty, so from s cards in stock
        # and p piles a line has s deals and p + s - 1 moves, whatever their order.
        return True
    return result.stats.get("optimal") is True  # Pyramid's A* proves it; Gaps never claims


def solve_hint(
    position: Game[Any],
    *,
    max_nodes: int | None = None,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
) -> Hint:
    """The hint for ``position`` (not changed), without the cache."""
    max_nodes = budget_for(position.name, max_nodes)
    state = position.status()
    if state == GAME_WON:
        return Hint(WINNABLE, None, 0, True, state, 0, max_nodes)
    if state == GAME_LOST:  # the rules say so: no move can change the outcome
        return Hint(HOPELESS, None, None, False, state, 0, max_nodes)
    budget = Budget(max_nodes=max_nodes, time_limit=time_limit)
    result = solver_for(position)(position, budget)
    if budget.timed_out:
        raise HintTimeout(f"no answer within {time_limit} s ({result.nodes} nodes)")
    if result.status == WON and result.moves:
        if line_wins(position, result.moves):
            return Hint(
                WINNABLE,
                result.moves[0],
                len(result.moves),
                _proved_shortest(position, result),
                state,
                result.nodes,
                max_nodes,
                tuple(result.moves),
            )
        log.error("solver line rejected by the rules: %r after %d moves",
                  position, len(position.move_stack))
    elif result.status == LOST:
        return Hint(HOPELESS, None, None, False, state, result.nodes, max_nodes)
    return Hint(UNKNOWN, None, None, False, state, result.nodes, max_nodes)


class HintCache:
    """A bounded LRU of hints by (deal, position key, budget), shared by threads."""

    def __init__(self, size: int = CACHE_SIZE) -> None:
        self.size = size
        self.items: OrderedDict[Hashable, Hint] = OrderedDict()
        self.lock = threading.Lock()
        self.hits = self.misses = 0

    @staticmethod
    def key(position: Game[Any], max_nodes: int) -> Hashable:
        return (
            position.name,
            position.variant,
            position.seed,
            position.cards,
            position.key(),
            max_nodes,
        )

    def get(
        self,
        position: Game[Any],
        *,
        max_nodes: int | None = None,
        time_limit: float | None = DEFAULT_TIME_LIMIT,
    ) -> Hint:
        max_nodes = budget_for(position.name, max_nodes)
        key = self.key(position, max_nodes)
        with self.lock:
            found = self.items.get(key)
            if found is not None:
                self.items.move_to_end(key)
                self.hits += 1
                return found
            self.misses += 1
        answer = solve_hint(position, max_nodes=max_nodes, time_limit=time_limit)
        if answer.verdict == WINNABLE and answer.line:
            self._remember_line(position, answer)
        with self.lock:
            self._put(key, answer)  # last: the position asked is the freshest entry
        return answer

    def _put(self, key: Hashable, answer: Hint) -> None:
        self.items[key] = answer
        self.items.move_to_end(key)
        while len(self.items) > self.size:
            self.items.popitem(last=False)

    def _remember_line(self, position: Game[Any], answer: Hint) -> None:
        """Answer the positions along a winning line from that line: a player who follows
        hints must meet no "unknown" on the way (a fresh search from a later position may
        run out of budget where the earlier one did not). An entry already winnable is
        kept; the line is checked (``line_wins``) before it is ever given, so every
        remainder of it wins too."""
        probe = position.copy()
        line = answer.line
        for i, text in enumerate(line[:-1]):
            probe.play(probe.parse_move(text))
            rest = line[i + 1 :]
            shortest = answer.shortest  # a suffix of a shortest line is shortest
            entry = Hint(WINNABLE, rest[0], len(rest), shortest, probe.status(), 0,
                         answer.max_nodes, rest)
            key = self.key(probe, answer.max_nodes)
            with self.lock:
                old = self.items.get(key)
                if old is None or old.verdict != WINNABLE:
                    self._put(key, entry)


_cache = HintCache()


def hint(
    position: Game[Any],
    *,
    max_nodes: int | None = None,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
    cache: HintCache | None = None,
) -> Hint:
    """The hint for ``position`` (not changed), from ``cache`` (default: this process's)."""
    return (cache or _cache).get(position, max_nodes=max_nodes, time_limit=time_limit)


__all__ = [
    "HOPELESS",
    "UNKNOWN",
    "VERDICTS",
    "WINNABLE",
    "Hint",
    "HintCache",
    "HintTimeout",
    "MAX_NODES",
    "budget_for",
    "hint",
    "line_wins",
    "solve_hint",
]
